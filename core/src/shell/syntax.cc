#include "shell/syntax.h"

#include <algorithm>
#include <limits>

#include "keyscope/did_you_mean.h"

namespace keyscope::shell {

namespace {

// Arrays and maps nest at most this deep: far beyond any real option map, and
// it keeps the recursion (a few frames a level) bounded for any input.
constexpr int kMaxDepth = 64;

Bytes bigEndian64(int64_t v) {
  Bytes out(8, '\0');
  auto u = static_cast<uint64_t>(v);
  for (size_t i = 8; i-- > 0;) {
    out[i] = static_cast<char>(u & 0xff);
    u >>= 8;
  }
  return out;
}

bool isTerminator(TokenKind kind) {
  return kind == TokenKind::kNewline || kind == TokenKind::kSemicolon || kind == TokenKind::kEnd;
}

bool sameKey(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::Kind::kString: return a.bytes == b.bytes;
    case Value::Kind::kInteger: return a.integer == b.integer;
    case Value::Kind::kBool: return a.boolean == b.boolean;
    case Value::Kind::kNil: return true;
    default: return false;
  }
}

}  // namespace

const char* Value::kindName() const {
  switch (kind) {
    case Kind::kNil: return "nil";
    case Kind::kBool: return "a boolean";
    case Kind::kInteger: return "an integer";
    case Kind::kString: return "a string";
    case Kind::kArray: return "an array";
    case Kind::kMap: return "a {KEY => value} map";
  }
  return "a value";
}

const std::vector<std::string_view>& knownConstants() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names = {
        // Family options.
        "NAME", "VERSIONS", "MIN_VERSIONS", "TTL", "KEEP_DELETED_CELLS", "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE",
        "IN_MEMORY", "BLOCKCACHE", "DATA_BLOCK_ENCODING", "REPLICATION_SCOPE", "COMPRESSION_COMPACT", "MOB_THRESHOLD",
        "IS_MOB", "NEW_VERSION_BEHAVIOR", "CONFIGURATION", "METADATA",
        // Table options.
        "SPLITS", "SPLITS_FILE", "NUMREGIONS", "SPLITALGO", "METHOD", "MAX_FILESIZE", "SPLIT_POLICY",
        "MEMSTORE_FLUSHSIZE", "READONLY", "DURABILITY", "REGION_REPLICATION", "NORMALIZATION_ENABLED", "OWNER",
        "KEY_SCHEMA", "DESCRIPTION", "EXAMPLES",
        // Reads.
        "COLUMN", "COLUMNS", "TIMESTAMP", "TIMERANGE", "STARTROW", "STOPROW", "ROWPREFIXFILTER", "LIMIT",
        "REVERSED", "RAW", "FILTER", "CACHE_BLOCKS", "CACHE", "BATCH", "MAXLENGTH", "FORMATTER", "FORMATTER_CLASS",
        "ALL_METRICS", "METRICS", "INTERVAL", "ATTRIBUTES", "VISIBILITY", "AUTHORIZATIONS", "CONSISTENCY",
        "ISOLATION_LEVEL", "REGION_REPLICA_ID", "READ_TYPE", "ALLOW_PARTIAL_RESULTS", "MAX_RESULT_SIZE",
        // Regions.
        "HISTORY",
        // Values.
        "LATEST_TIMESTAMP",
    };
    std::sort(names.begin(), names.end());
    return names;
  }();
  return kNames;
}

std::string didYouMean(std::string_view word, const std::vector<std::string_view>& candidates) {
  // Case differences cost nothing; a short word may have one typo, a longer
  // one two (a transposition, "sacn"), or one per four letters.
  const size_t allowed = word.size() <= 3 ? 1 : std::max<size_t>(2, word.size() / 4);
  const std::string_view best = nearestName(word, candidates, allowed);
  if (best.empty()) return "";
  return " (did you mean " + std::string(best) + "?)";
}

StatementReader::StatementReader(const SourceText& source) : m_source(source), m_lexer(source.text()) {
  m_tok = m_lexer.next();
}

const Token& StatementReader::peek() {
  if (!m_peek) m_peek = m_lexer.next();
  return *m_peek;
}

void StatementReader::advance() {
  switch (m_tok.kind) {
    case TokenKind::kLParen: case TokenKind::kLBracket: case TokenKind::kLBrace: ++m_depth; break;
    case TokenKind::kRParen: case TokenKind::kRBracket: case TokenKind::kRBrace: m_depth = std::max(0, m_depth - 1); break;
    default: break;
  }
  if (m_peek) {
    m_tok = std::move(*m_peek);
    m_peek.reset();
  } else {
    m_tok = m_lexer.next();
  }
}

void StatementReader::skipNewlines() {
  while (m_tok.kind == TokenKind::kNewline) advance();
}

// Skips the rest of a failed statement: to the first line end or ';' outside
// the brackets the statement opened.
void StatementReader::recover() {
  while (m_tok.kind != TokenKind::kEnd) {
    if ((m_tok.kind == TokenKind::kNewline || m_tok.kind == TokenKind::kSemicolon) && m_depth == 0) return;
    advance();
  }
}

Status StatementReader::unexpected(const std::string& expected) const {
  if (m_tok.kind == TokenKind::kError) return fail(m_tok.errorAt, m_tok.text);
  return fail(m_tok.offset, "expected " + expected + ", got " + describeToken(m_tok, m_source.text()));
}

std::optional<StatementReader::Item> StatementReader::next() {
  while (m_tok.kind == TokenKind::kNewline || m_tok.kind == TokenKind::kSemicolon) advance();
  if (m_tok.kind == TokenKind::kEnd) return std::nullopt;
  m_depth = 0;
  Item item;
  item.offset = m_tok.offset;
  auto failed = [&](Status status) {
    item.error = std::move(status);
    recover();
    return item;
  };
  if (m_tok.kind != TokenKind::kName) return failed(unexpected("a command name"));
  RawStatement statement;
  statement.name = m_tok.text;
  statement.nameOffset = m_tok.offset;
  statement.nameEnd = m_tok.end;
  item.name = m_tok.text;
  advance();
  if (m_tok.kind == TokenKind::kEquals)
    return failed(fail(m_tok.offset, "assignments ('" + statement.name + " = ...') are not supported"));
  if (m_tok.kind == TokenKind::kDot)
    return failed(fail(m_tok.offset, "method calls on '" + statement.name +
                                         "' are not supported (table references such as t.scan are not either)"));
  if (m_tok.kind == TokenKind::kLParen) {
    advance();
    skipNewlines();
    if (m_tok.kind != TokenKind::kRParen) {
      if (Status s = parseArgs(TokenKind::kRParen, &statement.args); !s) return failed(s);
    }
    skipNewlines();
    if (m_tok.kind != TokenKind::kRParen) return failed(unexpected("',' or ')'"));
    advance();
  } else if (!isTerminator(m_tok.kind)) {
    if (Status s = parseArgs(TokenKind::kEnd, &statement.args); !s) return failed(s);
  }
  if (!isTerminator(m_tok.kind)) {
    const std::string after = statement.args.empty() ? "'" + statement.name + "'" : "an argument";
    return failed(unexpected("',' or the end of the command after " + after));
  }
  item.statement = std::move(statement);
  return item;
}

Status StatementReader::parseArgs(TokenKind closing, std::vector<Value>* args) {
  std::optional<Value> pairs;  // trailing KEY => value pairs, gathered as Ruby does
  while (true) {
    if (closing == TokenKind::kRParen) skipNewlines();
    Value value;
    if (Status s = parseValue(0, &value); !s) return s;
    if (m_tok.kind == TokenKind::kArrow) {
      advance();
      skipNewlines();
      MapEntry entry;
      entry.key = std::move(value);
      if (Status s = parseValue(0, &entry.value); !s) return s;
      if (!pairs) {
        pairs.emplace();
        pairs->kind = Value::Kind::kMap;
        pairs->offset = entry.key.offset;
      }
      for (const MapEntry& e : pairs->entries) {
        if (sameKey(e.key, entry.key))
          return fail(entry.key.offset, "'" + std::string(m_source.text().substr(entry.key.offset, entry.key.end - entry.key.offset)) +
                                            "' is given twice (first at " + m_source.where(e.key.offset) + ")");
      }
      pairs->end = entry.value.end;
      pairs->entries.push_back(std::move(entry));
    } else {
      if (pairs)
        return fail(value.offset, "a positional argument cannot follow KEY => value pairs; put it before them");
      args->push_back(std::move(value));
    }
    if (m_tok.kind != TokenKind::kComma) break;
    advance();
    skipNewlines();  // a ',' at the end of a line continues the command
  }
  if (pairs) args->push_back(std::move(*pairs));
  return Status::ok();
}

Status StatementReader::parseValue(int depth, Value* out) {
  if (Status s = parsePrimary(depth, out); !s) return s;
  // .to_s and .to_java_bytes, as HBase scripts write them; both leave bytes as they are.
  while (m_tok.kind == TokenKind::kDot) {
    advance();
    if (m_tok.kind != TokenKind::kName) return unexpected("a method name after '.'");
    const std::string method = m_tok.text;
    if (method != "to_s" && method != "to_java_bytes")
      return fail(m_tok.offset, "unsupported method '" + method + "' (only .to_s and .to_java_bytes are)");
    if (out->kind == Value::Kind::kInteger) {
      out->bytes = std::to_string(out->integer);
      out->kind = Value::Kind::kString;
      out->literalStarts.clear();
    } else if (out->kind != Value::Kind::kString) {
      return fail(m_tok.offset, std::string("'.") + method + "' needs a string or an integer, not " + out->kindName());
    }
    out->end = m_tok.end;
    advance();
  }
  return Status::ok();
}

Status StatementReader::parsePrimary(int depth, Value* out) {
  out->offset = m_tok.offset;
  switch (m_tok.kind) {
    case TokenKind::kString:
      out->kind = Value::Kind::kString;
      // Adjacent literals concatenate ("a" 'b' is "ab"), as in Ruby.
      while (m_tok.kind == TokenKind::kString) {
        out->bytes += m_tok.bytes;
        out->literalStarts.push_back(m_tok.offset);
        out->end = m_tok.end;
        advance();
      }
      return Status::ok();
    case TokenKind::kInteger:
      out->kind = Value::Kind::kInteger;
      out->integer = m_tok.integer;
      out->end = m_tok.end;
      advance();
      return Status::ok();
    case TokenKind::kLBracket: return parseArray(depth, out);
    case TokenKind::kLBrace: return parseMap(depth, out);
    case TokenKind::kName: return parseName(depth, out);
    default: return unexpected("a value");
  }
}

Status StatementReader::parseArray(int depth, Value* out) {
  if (depth >= kMaxDepth) return fail(m_tok.offset, "arrays and maps nested deeper than " + std::to_string(kMaxDepth) + " levels");
  out->kind = Value::Kind::kArray;
  const size_t open = m_tok.offset;
  advance();
  skipNewlines();
  while (m_tok.kind != TokenKind::kRBracket) {
    Value item;
    if (Status s = parseValue(depth + 1, &item); !s) return s;
    out->items.push_back(std::move(item));
    skipNewlines();
    if (m_tok.kind == TokenKind::kComma) {
      advance();
      skipNewlines();
      continue;
    }
    if (m_tok.kind != TokenKind::kRBracket)
      return unexpected("',' or ']' to close the '[' at " + m_source.where(open));
  }
  out->end = m_tok.end;
  advance();
  return Status::ok();
}

Status StatementReader::parseMap(int depth, Value* out) {
  if (depth >= kMaxDepth) return fail(m_tok.offset, "arrays and maps nested deeper than " + std::to_string(kMaxDepth) + " levels");
  out->kind = Value::Kind::kMap;
  const size_t open = m_tok.offset;
  advance();
  skipNewlines();
  while (m_tok.kind != TokenKind::kRBrace) {
    MapEntry entry;
    if (Status s = parseValue(depth + 1, &entry.key); !s) return s;
    const std::string keyText(m_source.text().substr(entry.key.offset, entry.key.end - entry.key.offset));
    skipNewlines();
    if (m_tok.kind != TokenKind::kArrow) return unexpected("'=>' after '" + keyText + "'");
    advance();
    skipNewlines();
    if (Status s = parseValue(depth + 1, &entry.value); !s) return s;
    for (const MapEntry& e : out->entries) {
      if (sameKey(e.key, entry.key))
        return fail(entry.key.offset, "'" + keyText + "' is given twice (first at " + m_source.where(e.key.offset) + ")");
    }
    out->entries.push_back(std::move(entry));
    skipNewlines();
    if (m_tok.kind == TokenKind::kComma) {
      advance();
      skipNewlines();
      continue;
    }
    if (m_tok.kind != TokenKind::kRBrace)
      return unexpected("',' or '}' after the value of '" + keyText + "' (the '{' is at " + m_source.where(open) + ")");
  }
  out->end = m_tok.end;
  advance();
  return Status::ok();
}

Status StatementReader::parseName(int depth, Value* out) {
  const std::string name = m_tok.text;
  const size_t start = m_tok.offset;
  out->end = m_tok.end;
  if (name == "true" || name == "false") {
    out->kind = Value::Kind::kBool;
    out->boolean = name == "true";
    advance();
    return Status::ok();
  }
  if (name == "nil") {
    out->kind = Value::Kind::kNil;
    advance();
    return Status::ok();
  }
  if (name == "LATEST_TIMESTAMP") {
    out->kind = Value::Kind::kInteger;
    out->integer = std::numeric_limits<int64_t>::max();
    out->constant = name;
    advance();
    return Status::ok();
  }
  if (name == "Bytes" || name == "org") {
    // Bytes.toBytes(x), Bytes.toBytesBinary('...'), optionally fully qualified.
    std::string path = name;
    advance();
    while (m_tok.kind == TokenKind::kDot && peek().kind == TokenKind::kName) {
      advance();
      path += "." + m_tok.text;
      advance();
    }
    constexpr std::string_view kPackage = "org.apache.hadoop.hbase.util.";
    std::string_view method = path;
    if (method.substr(0, kPackage.size()) == kPackage) method.remove_prefix(kPackage.size());
    if (method != "Bytes.toBytes" && method != "Bytes.toBytesBinary")
      return fail(start, "unsupported helper '" + path + "' (Bytes.toBytes and Bytes.toBytesBinary are supported)");
    if (m_tok.kind != TokenKind::kLParen) return unexpected("'(' after " + path);
    advance();
    skipNewlines();
    Value arg;
    if (Status s = parseValue(depth + 1, &arg); !s) return s;
    skipNewlines();
    if (m_tok.kind != TokenKind::kRParen) return unexpected("')' after the argument of " + path);
    out->end = m_tok.end;
    advance();
    out->kind = Value::Kind::kString;
    out->fromBytesHelper = true;
    if (method == "Bytes.toBytesBinary") {
      if (!arg.isString()) return fail(arg.offset, path + " takes a string, not " + arg.kindName());
      out->bytes = fromStringBinary(arg.bytes);
    } else if (arg.kind == Value::Kind::kInteger) {
      out->bytes = bigEndian64(arg.integer);  // Bytes.toBytes(long): 8 bytes, big-endian
    } else if (arg.kind == Value::Kind::kBool) {
      out->bytes = Bytes(1, arg.boolean ? '\xff' : '\0');  // Bytes.toBytes(boolean)
    } else if (arg.isString()) {
      out->bytes = arg.bytes;
    } else {
      return fail(arg.offset, path + " takes an integer, a string or a boolean, not " + arg.kindName());
    }
    return Status::ok();
  }
  const auto& constants = knownConstants();
  if (std::binary_search(constants.begin(), constants.end(), std::string_view(name))) {
    out->kind = Value::Kind::kString;
    out->bytes = name;
    out->constant = name;
    advance();
    return Status::ok();
  }
  const bool upper = !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
  if (upper) return fail(start, "unknown constant '" + name + "'" + didYouMean(name, constants));
  return fail(start, "unknown name '" + name + "': quote strings ('" + name + "'); variables are not supported");
}

}  // namespace keyscope::shell
