// Parser and printer for the one-line key schema syntax (see key_schema.h and
// docs/KEY-SCHEMAS.md).
#include "keyscope/key_schema.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace keyscope {

namespace {

// Size limits, so a schema can never ask for absurd allocations.
constexpr uint64_t kMaxFixedBytes = 4096;
constexpr uint64_t kMaxSaltBuckets = 256;  // the salt is one byte
constexpr uint64_t kMd5Bytes = 16;

struct Token {
  enum Kind { kIdent, kNumber, kPunct, kEnd } kind = kEnd;
  std::string text;
  size_t offset = 0;  // 0-based byte offset in the schema text
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : m_text(text) {}

  // Returns the next token, or an error for a character no token starts with.
  Result<Token> next() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
    Token tok;
    tok.offset = m_pos;
    if (m_pos >= m_text.size()) return tok;
    char c = m_text[m_pos];
    auto isIdentStart = [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_'; };
    auto isIdentChar = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    if (isIdentStart(c)) {
      size_t start = m_pos;
      while (m_pos < m_text.size() && isIdentChar(m_text[m_pos])) ++m_pos;
      tok.kind = Token::kIdent;
      tok.text = std::string(m_text.substr(start, m_pos - start));
      return tok;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = m_pos;
      while (m_pos < m_text.size() && std::isalnum(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
      tok.kind = Token::kNumber;
      tok.text = std::string(m_text.substr(start, m_pos - start));
      return tok;
    }
    if (c == ':' || c == '|' || c == '(' || c == ')' || c == ',') {
      ++m_pos;
      tok.kind = Token::kPunct;
      tok.text = std::string(1, c);
      return tok;
    }
    std::string shown = (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
                            ? "byte 0x" + std::string(1, "0123456789abcdef"[(c >> 4) & 0xf]) +
                                  std::string(1, "0123456789abcdef"[c & 0xf])
                            : "'" + std::string(1, c) + "'";
    return Status::invalidArgument("column " + std::to_string(m_pos + 1) + ": unexpected " + shown);
  }

 private:
  std::string_view m_text;
  size_t m_pos = 0;
};

Status errorAt(size_t offset, const std::string& what) {
  return Status::invalidArgument("column " + std::to_string(offset + 1) + ": " + what);
}

std::string describe(const Token& tok) {
  switch (tok.kind) {
    case Token::kEnd: return "end of schema";
    case Token::kPunct: return "'" + tok.text + "'";
    default: return "'" + tok.text + "'";
  }
}

struct SimpleType {
  ComponentType type;
  uint32_t width;
};

const std::map<std::string, SimpleType, std::less<>>& simpleTypes() {
  static const std::map<std::string, SimpleType, std::less<>> types = {
      {"utf8", {ComponentType::kUtf8, 0}},      {"bytes", {ComponentType::kBytes, 0}},
      {"i8", {ComponentType::kInt8, 1}},        {"i16", {ComponentType::kInt16, 2}},
      {"i32", {ComponentType::kInt32, 4}},      {"i64", {ComponentType::kInt64, 8}},
      {"u8", {ComponentType::kUInt8, 1}},       {"u16", {ComponentType::kUInt16, 2}},
      {"u32", {ComponentType::kUInt32, 4}},     {"u64", {ComponentType::kUInt64, 8}},
      {"f32", {ComponentType::kFloat32, 4}},    {"f64", {ComponentType::kFloat64, 8}},
      {"bool", {ComponentType::kBool, 1}},      {"revts", {ComponentType::kReverseTimestamp, 8}},
      {"domain", {ComponentType::kReverseDomain, 0}}, {"quadkey", {ComponentType::kQuadkey, 8}},
  };
  return types;
}

// Names people reach for from other systems, and what Keyscope calls them.
const char* suggestionFor(std::string_view name) {
  static const std::map<std::string, const char*, std::less<>> aliases = {
      {"string", "utf8"},  {"str", "utf8"},     {"text", "utf8"},    {"varchar", "utf8"},
      {"utf_8", "utf8"},   {"binary", "bytes"}, {"blob", "bytes"},   {"byte", "u8"},
      {"int", "i32"},      {"integer", "i32"},  {"int8", "i8"},      {"int16", "i16"},
      {"int32", "i32"},    {"int64", "i64"},    {"long", "i64"},     {"bigint", "i64"},
      {"short", "i16"},    {"smallint", "i16"}, {"tinyint", "i8"},   {"uint8", "u8"},
      {"uint16", "u16"},   {"uint32", "u32"},   {"uint64", "u64"},   {"float", "f32"},
      {"double", "f64"},   {"float32", "f32"},  {"float64", "f64"},  {"boolean", "bool"},
      {"timestamp", "i64 or revts"}, {"hash", "md5(N, field)"},
  };
  auto it = aliases.find(name);
  return it == aliases.end() ? nullptr : it->second;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : m_lexer(text) {}

  Status parse(std::vector<KeyComponent>& out) {
    if (Status s = advance(); !s) return s;
    if (m_tok.kind == Token::kEnd) return errorAt(m_tok.offset, "empty schema: expected a component such as 'user:utf8'");
    while (true) {
      if (Status s = parseComponent(out); !s) return s;
      if (m_tok.kind == Token::kEnd) break;
      if (!isPunct("|")) return errorAt(m_tok.offset, "expected '|' or end of schema, got " + describe(m_tok));
      if (Status s = advance(); !s) return s;
    }
    return Status::ok();
  }

  // Field references, resolved once every component is known.
  struct PendingRef {
    size_t component;
    std::string name;
    size_t offset;
  };
  std::vector<PendingRef> refs;

 private:
  bool isPunct(const char* p) const { return m_tok.kind == Token::kPunct && m_tok.text == p; }

  Status advance() {
    auto next = m_lexer.next();
    if (!next) return next.status();
    m_tok = std::move(next).value();
    return Status::ok();
  }

  Status expectPunct(const char* p, const std::string& context) {
    if (!isPunct(p)) return errorAt(m_tok.offset, "expected '" + std::string(p) + "' " + context + ", got " + describe(m_tok));
    return advance();
  }

  Result<uint64_t> number(const std::string& what) {
    if (m_tok.kind != Token::kNumber) return errorAt(m_tok.offset, "expected " + what + ", got " + describe(m_tok));
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(m_tok.text.data(), m_tok.text.data() + m_tok.text.size(), v);
    if (ec != std::errc() || ptr != m_tok.text.data() + m_tok.text.size())
      return errorAt(m_tok.offset, "'" + m_tok.text + "' is not a valid " + what);
    if (Status s = advance(); !s) return s;
    return v;
  }

  Status parseComponent(std::vector<KeyComponent>& out) {
    KeyComponent c;
    c.textOffset = m_tok.offset;
    if (m_tok.kind != Token::kIdent)
      return errorAt(m_tok.offset, "expected a component name, got " + describe(m_tok));
    c.name = m_tok.text;
    for (const auto& prev : out)
      if (prev.name == c.name) return errorAt(m_tok.offset, "duplicate component name '" + c.name + "'");
    if (Status s = advance(); !s) return s;
    if (Status s = expectPunct(":", "after component name '" + c.name + "'"); !s) return s;
    if (Status s = parseType(c, out.size()); !s) return s;
    if (Status s = parseModifiers(c); !s) return s;
    out.push_back(std::move(c));
    return Status::ok();
  }

  Status parseType(KeyComponent& c, size_t index) {
    if (m_tok.kind != Token::kIdent)
      return errorAt(m_tok.offset, "expected a type after '" + c.name + ":', got " + describe(m_tok));
    const std::string typeName = m_tok.text;
    const size_t typeOffset = m_tok.offset;
    if (Status s = advance(); !s) return s;

    if (typeName == "salt") {
      c.type = ComponentType::kSalt;
      if (Status s = expectPunct("(", "after 'salt': salt(N[, field...])"); !s) return s;
      auto n = number("bucket count");
      if (!n) return n.status();
      if (*n < 1 || *n > kMaxSaltBuckets)
        return errorAt(typeOffset, "salt needs 1 to 256 buckets (it is one byte), got " + std::to_string(*n));
      c.buckets = static_cast<uint32_t>(*n);
      return parseFieldList(index, "salt");
    }
    if (typeName == "md5") {
      c.type = ComponentType::kMd5;
      c.width = kMd5Bytes;
      if (!isPunct("(")) return Status::ok();
      if (Status s = advance(); !s) return s;
      if (m_tok.kind == Token::kNumber) {
        size_t at = m_tok.offset;
        auto n = number("digest length");
        if (!n) return n.status();
        if (*n < 1 || *n > kMd5Bytes) return errorAt(at, "md5 keeps 1 to 16 bytes, got " + std::to_string(*n));
        c.width = static_cast<uint32_t>(*n);
        if (isPunct(")")) return advance();
        if (Status s = expectPunct(",", "in md5(N, field...)"); !s) return s;
      }
      return parseFields(index, "md5");
    }
    if (typeName == "bytes" && isPunct("(")) {
      if (Status s = advance(); !s) return s;
      size_t at = m_tok.offset;
      auto n = number("byte count");
      if (!n) return n.status();
      if (*n < 1 || *n > kMaxFixedBytes)
        return errorAt(at, "bytes(N) needs N from 1 to " + std::to_string(kMaxFixedBytes) + ", got " + std::to_string(*n));
      c.type = ComponentType::kFixedBytes;
      c.width = static_cast<uint32_t>(*n);
      return expectPunct(")", "after bytes(N");
    }
    auto it = simpleTypes().find(typeName);
    if (it == simpleTypes().end()) {
      std::string msg = "unknown type '" + typeName + "'";
      if (const char* hint = suggestionFor(typeName)) msg += std::string(" (did you mean ") + hint + "?)";
      else msg += " (types: utf8 bytes bytes(N) i8..i64 u8..u64 f32 f64 bool salt(N) md5 revts domain quadkey)";
      return errorAt(typeOffset, msg);
    }
    c.type = it->second.type;
    c.width = 0;
    if (isPunct("(")) return errorAt(m_tok.offset, "type '" + typeName + "' takes no arguments");
    return Status::ok();
  }

  // After "salt(N": optionally ", field, field" then ")".
  Status parseFieldList(size_t index, const char* what) {
    if (isPunct(")")) return advance();
    if (Status s = expectPunct(",", std::string("or ')' in ") + what + "(N, field...)"); !s) return s;
    return parseFields(index, what);
  }

  // One or more field names then ")".
  Status parseFields(size_t index, const char* what) {
    while (true) {
      if (m_tok.kind != Token::kIdent)
        return errorAt(m_tok.offset, std::string("expected a field name in ") + what + "(...), got " + describe(m_tok));
      refs.push_back({index, m_tok.text, m_tok.offset});
      if (Status s = advance(); !s) return s;
      if (isPunct(")")) return advance();
      if (Status s = expectPunct(",", std::string("or ')' in ") + what + "(...)"); !s) return s;
    }
  }

  Status parseModifiers(KeyComponent& c) {
    bool sawOrder = false, sawHBase = false;
    size_t conflictAt = 0;  // the modifier that makes desc + hbase
    while (m_tok.kind == Token::kIdent) {
      const std::string& m = m_tok.text;
      if (m == "asc" || m == "desc") {
        if (sawOrder) return errorAt(m_tok.offset, "'" + c.name + "' has two sort orders");
        sawOrder = true;
        c.order = m == "desc" ? SortOrder::kDescending : SortOrder::kAscending;
        conflictAt = m_tok.offset;
      } else if (m == "hbase") {
        if (sawHBase) return errorAt(m_tok.offset, "'hbase' given twice for '" + c.name + "'");
        sawHBase = true;
        c.encoding = Encoding::kHBaseBytes;
        conflictAt = m_tok.offset;
      } else {
        return errorAt(m_tok.offset, "unknown modifier '" + m + "' for '" + c.name +
                                         "' (modifiers: asc, desc, hbase; separate components with '|')");
      }
      if (Status s = advance(); !s) return s;
    }
    if (c.encoding == Encoding::kHBaseBytes && c.order == SortOrder::kDescending)
      return errorAt(conflictAt, "'" + c.name +
                                     "': HBase's Bytes.toBytes layout has no descending form "
                                       "(drop 'hbase', or use revts for newest-first timestamps)");
    return Status::ok();
  }

  Lexer m_lexer;
  Token m_tok;
};

}  // namespace

bool KeyComponent::isDerived() const {
  return type == ComponentType::kSalt || (type == ComponentType::kMd5 && !sources.empty());
}

std::optional<size_t> KeyComponent::fixedSize() const {
  switch (type) {
    case ComponentType::kUtf8:
    case ComponentType::kBytes:
    case ComponentType::kReverseDomain: return std::nullopt;
    case ComponentType::kInt8:
    case ComponentType::kUInt8:
    case ComponentType::kBool:
    case ComponentType::kSalt: return 1;
    case ComponentType::kInt16:
    case ComponentType::kUInt16: return 2;
    case ComponentType::kInt32:
    case ComponentType::kUInt32:
    case ComponentType::kFloat32: return 4;
    case ComponentType::kInt64:
    case ComponentType::kUInt64:
    case ComponentType::kFloat64:
    case ComponentType::kReverseTimestamp:
    case ComponentType::kQuadkey: return 8;
    case ComponentType::kFixedBytes:
    case ComponentType::kMd5: return width;
  }
  return std::nullopt;
}

const char* componentTypeName(ComponentType type) {
  switch (type) {
    case ComponentType::kUtf8: return "utf8";
    case ComponentType::kBytes: return "bytes";
    case ComponentType::kFixedBytes: return "bytes(N)";
    case ComponentType::kInt8: return "i8";
    case ComponentType::kInt16: return "i16";
    case ComponentType::kInt32: return "i32";
    case ComponentType::kInt64: return "i64";
    case ComponentType::kUInt8: return "u8";
    case ComponentType::kUInt16: return "u16";
    case ComponentType::kUInt32: return "u32";
    case ComponentType::kUInt64: return "u64";
    case ComponentType::kFloat32: return "f32";
    case ComponentType::kFloat64: return "f64";
    case ComponentType::kBool: return "bool";
    case ComponentType::kSalt: return "salt";
    case ComponentType::kMd5: return "md5";
    case ComponentType::kReverseTimestamp: return "revts";
    case ComponentType::kReverseDomain: return "domain";
    case ComponentType::kQuadkey: return "quadkey";
  }
  return "?";
}

std::optional<KeySchema> KeySchema::parseStored(std::string_view text) {
  if (text.empty()) return std::nullopt;
  Result<KeySchema> schema = parse(text);
  if (!schema) return std::nullopt;
  return std::move(schema).value();
}

Result<KeySchema> KeySchema::parse(std::string_view text) {
  KeySchema schema;
  Parser parser(text);
  if (Status s = parser.parse(schema.m_components); !s) return s;
  auto& comps = schema.m_components;

  // Resolve field references now that every name is known.
  for (const auto& ref : parser.refs) {
    auto idx = schema.indexOf(ref.name);
    if (!idx) return errorAt(ref.offset, "no component named '" + ref.name + "'");
    if (*idx == ref.component)
      return errorAt(ref.offset, "'" + ref.name + "' cannot hash itself");
    auto& target = comps[ref.component];
    auto& src = target.sources;
    if (std::find(src.begin(), src.end(), *idx) != src.end())
      return errorAt(ref.offset, "'" + ref.name + "' named twice");
    src.push_back(*idx);
  }
  // Derived components may only cover stored input components.
  for (const auto& ref : parser.refs) {
    size_t idx = *schema.indexOf(ref.name);
    if (comps[idx].isDerived())
      return errorAt(ref.offset, "'" + ref.name + "' is itself derived; hash the fields it covers instead");
  }
  for (size_t i = 0; i < comps.size(); ++i) {
    auto& c = comps[i];
    if (c.type == ComponentType::kSalt && c.sources.empty()) {
      for (size_t j = 0; j < comps.size(); ++j)
        if (j != i && !comps[j].isDerived()) c.sources.push_back(j);
      if (c.sources.empty())
        return errorAt(c.textOffset, "salt '" + c.name + "' has nothing to hash: add a component after it");
    }
    if (c.encoding == Encoding::kHBaseBytes && !c.fixedSize() && i + 1 != comps.size())
      return errorAt(c.textOffset, "'" + c.name + "': a variable-length hbase " + componentTypeName(c.type) +
                                       " has no terminator, so only the last component may be one "
                                       "(use bytes(N), or drop 'hbase' for the sorted encoding)");
  }
  return schema;
}

std::optional<size_t> KeySchema::indexOf(std::string_view name) const {
  for (size_t i = 0; i < m_components.size(); ++i)
    if (m_components[i].name == name) return i;
  return std::nullopt;
}

size_t KeySchema::inputCount() const {
  size_t n = 0;
  for (const auto& c : m_components) n += c.isDerived() ? 0u : 1u;
  return n;
}

std::string KeyComponent::typeText() const {
  switch (type) {
    case ComponentType::kFixedBytes: return "bytes(" + std::to_string(width) + ")";
    case ComponentType::kSalt:
    case ComponentType::kMd5: {
      std::string s = std::string(componentTypeName(type)) + "(" +
                      std::to_string(type == ComponentType::kSalt ? buckets : width);
      // Field names are printed by KeySchema::toString, which knows them.
      return s + ")";
    }
    default: return componentTypeName(type);
  }
}

std::string KeySchema::typeText(size_t i) const {
  const auto& c = m_components[i];
  std::string type = c.typeText();
  if (!c.sources.empty()) {
    type.pop_back();  // ")"
    for (size_t s : c.sources) type += ", " + m_components[s].name;
    type += ")";
  }
  return type;
}

std::string KeySchema::toString() const {
  std::string out;
  for (size_t i = 0; i < m_components.size(); ++i) {
    const auto& c = m_components[i];
    if (i) out += " | ";
    out += c.name + ":" + typeText(i);
    if (c.order == SortOrder::kDescending) out += " desc";
    if (c.encoding == Encoding::kHBaseBytes) out += " hbase";
  }
  return out;
}

}  // namespace keyscope
