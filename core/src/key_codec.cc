// The sorted key encoding: encode, decode and compare row keys by schema.
//
// Byte layout of each component type (sorted encoding; all integers big-endian;
// `desc` complements every byte of the component). Stored in workspaces and
// in users' tables: DO NOT CHANGE.
//
//   TYPE        SIZE  LAYOUT
//   iN          N/8   two's complement, sign bit flipped
//   uN          N/8   plain
//   f32, f64    4, 8  IEEE bits; negative: all bits flipped, else sign bit set;
//                     NaN first made the canonical quiet NaN
//   bool        1     00 false, 01 true
//   utf8, bytes var   each 00 written as 00 ff, then the terminator 00 01
//   bytes(N)    N     as is
//   salt        1     u32be(md5(h)[0..4]) mod buckets, h = hbaseBytes of the sources
//   md5         N     md5(h)[0..N]
//   revts       8     the i64 layout of INT64_MAX - ts
//   domain      var   the utf8 layout of reverseDomain(value)
//   quadkey     8     u64 of packQuadkey(tile)
//
// The hbase encoding (Bytes.toBytes) drops the sign flips, stores raw IEEE
// bits and bool as ff/00, and writes variable-length values without escape or
// terminator (the schema parser keeps those to the last component).
#include "keyscope/key_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "md5_digest.h"
#include "utf8.h"

namespace keyscope {

namespace {

constexpr uint32_t kMaxQuadkeyZoom = 29;
constexpr uint64_t kCanonicalNaN64 = 0x7ff8000000000000ULL;
constexpr uint32_t kCanonicalNaN32 = 0x7fc00000U;

std::string quoted(const KeyComponent& c) { return "'" + c.name + "'"; }

bool isSigned(ComponentType t) {
  return t == ComponentType::kInt8 || t == ComponentType::kInt16 || t == ComponentType::kInt32 ||
         t == ComponentType::kInt64;
}
bool isUnsigned(ComponentType t) {
  return t == ComponentType::kUInt8 || t == ComponentType::kUInt16 || t == ComponentType::kUInt32 ||
         t == ComponentType::kUInt64;
}

void putBigEndian(Bytes& out, uint64_t v, size_t width) {
  for (size_t i = width; i-- > 0;) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t getBigEndian(BytesView in, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

uint64_t signBit(size_t width) { return uint64_t{1} << (8 * width - 1); }
uint64_t widthMask(size_t width) { return width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1; }

// Float bits made sortable as unsigned integers (totalOrder, NaN canonical).
uint64_t sortableDouble(double d) {
  uint64_t bits = std::isnan(d) ? kCanonicalNaN64 : std::bit_cast<uint64_t>(d);
  return (bits & signBit(8)) ? ~bits : bits | signBit(8);
}
uint32_t sortableFloat(float f) {
  uint32_t bits = std::isnan(f) ? kCanonicalNaN32 : std::bit_cast<uint32_t>(f);
  return (bits & 0x80000000U) ? ~bits : bits | 0x80000000U;
}

void appendEscaped(Bytes& out, BytesView value) {
  for (char ch : value) {
    out.push_back(ch);
    if (ch == '\0') out.push_back('\xff');
  }
  out.push_back('\0');
  out.push_back('\x01');
}

Result<ComponentValue> checkValueUnnamed(const KeyComponent& c, const ComponentValue& v) {
  auto typeError = [&](const char* expected) -> Status {
    return Status::invalidArgument(std::string("expected ") + expected);
  };
  auto rangeError = [&](const std::string& what) -> Status { return Status::invalidArgument(what); };
  if (std::holds_alternative<std::monostate>(v)) return typeError("a value, got none");

  if (isSigned(c.type) || c.type == ComponentType::kReverseTimestamp) {
    int64_t x;
    if (auto* i = std::get_if<int64_t>(&v)) x = *i;
    else if (auto* u = std::get_if<uint64_t>(&v)) {
      if (*u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return rangeError(std::to_string(*u) + " is out of range");
      x = static_cast<int64_t>(*u);
    } else return typeError("an integer");
    if (c.type == ComponentType::kReverseTimestamp) {
      if (x < 0) return rangeError("timestamp " + std::to_string(x) + " is negative");
      return ComponentValue{x};
    }
    size_t w = *c.fixedSize();
    if (w < 8) {
      int64_t lo = -static_cast<int64_t>(signBit(w)), hi = static_cast<int64_t>(signBit(w) - 1);
      if (x < lo || x > hi)
        return rangeError(std::to_string(x) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return ComponentValue{x};
  }
  if (isUnsigned(c.type) || c.type == ComponentType::kSalt) {
    uint64_t x;
    if (auto* u = std::get_if<uint64_t>(&v)) x = *u;
    else if (auto* i = std::get_if<int64_t>(&v)) {
      if (*i < 0) return rangeError(std::to_string(*i) + " is negative");
      x = static_cast<uint64_t>(*i);
    } else return typeError("a non-negative integer");
    uint64_t max = c.type == ComponentType::kSalt ? c.buckets - 1 : widthMask(*c.fixedSize());
    if (x > max) return rangeError(std::to_string(x) + " is out of range [0, " + std::to_string(max) + "]");
    return ComponentValue{x};
  }
  switch (c.type) {
    case ComponentType::kFloat32:
    case ComponentType::kFloat64: {
      double d;
      if (auto* f = std::get_if<double>(&v)) d = *f;
      else if (auto* i = std::get_if<int64_t>(&v)) d = static_cast<double>(*i);
      else if (auto* u = std::get_if<uint64_t>(&v)) d = static_cast<double>(*u);
      else return typeError("a number");
      if (std::isnan(d)) return ComponentValue{std::numeric_limits<double>::quiet_NaN()};
      if (c.type == ComponentType::kFloat32) {
        if (std::isfinite(d) && std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
          return rangeError("out of range for f32");
        d = static_cast<double>(static_cast<float>(d));  // f32 keeps what a float can hold
      }
      return ComponentValue{d};
    }
    case ComponentType::kBool:
      if (!std::holds_alternative<bool>(v)) return typeError("true or false");
      return v;
    case ComponentType::kUtf8:
    case ComponentType::kReverseDomain: {
      auto* s = std::get_if<std::string>(&v);
      if (!s) return typeError("a string");
      if (auto bad = firstInvalidUtf8(*s)) return rangeError("invalid UTF-8 at byte " + std::to_string(*bad));
      return v;
    }
    case ComponentType::kBytes:
      if (!std::holds_alternative<std::string>(v)) return typeError("bytes");
      return v;
    case ComponentType::kFixedBytes:
    case ComponentType::kMd5: {
      auto* s = std::get_if<std::string>(&v);
      if (!s) return typeError("bytes");
      if (s->size() != c.width)
        return rangeError("needs exactly " + std::to_string(c.width) + " bytes, got " + std::to_string(s->size()));
      return v;
    }
    case ComponentType::kQuadkey: {
      auto* t = std::get_if<Tile>(&v);
      if (!t) return typeError("a tile [zoom, x, y]");
      if (t->zoom > kMaxQuadkeyZoom) return rangeError("zoom " + std::to_string(t->zoom) + " is above 29");
      uint64_t side = uint64_t{1} << t->zoom;
      if (t->x >= side || t->y >= side)
        return rangeError("tile (" + std::to_string(t->x) + ", " + std::to_string(t->y) + ") is outside zoom " +
                          std::to_string(t->zoom) + " (0.." + std::to_string(side - 1) + ")");
      return v;
    }
    default: break;
  }
  return typeError("a value of its type");
}

// checkValue with the component named in the error, as encodeKey reports it.
Result<ComponentValue> normalise(const KeyComponent& c, const ComponentValue& v) {
  auto r = checkValueUnnamed(c, v);
  if (!r) return Status::invalidArgument("component " + quoted(c) + " (" + c.typeText() + "): " + r.status().message());
  return r;
}

// The value a derived component takes, given the normalised tuple.
Result<ComponentValue> deriveValue(const KeySchema& schema, const KeyComponent& c, const KeyTuple& tuple) {
  Bytes input;
  for (size_t src : c.sources) {
    if (src >= tuple.size() || std::holds_alternative<std::monostate>(tuple[src]))
      return Status::invalidArgument("component " + quoted(c) + " needs " + quoted(schema[src]) +
                                     ", which has no value");
    auto bytes = hbaseBytes(schema[src], tuple[src]);
    if (!bytes) return bytes.status();
    input += *bytes;
  }
  Md5Digest digest = md5(input);
  if (c.type == ComponentType::kSalt) {
    uint64_t head = getBigEndian(BytesView(reinterpret_cast<const char*>(digest.data()), 4), 4);
    return ComponentValue{head % c.buckets};
  }
  return ComponentValue{std::string(reinterpret_cast<const char*>(digest.data()), c.width)};
}

// Appends the component's encoding of a normalised value.
void appendComponent(Bytes& out, const KeyComponent& c, const ComponentValue& v) {
  const size_t start = out.size();
  const bool hbase = c.encoding == Encoding::kHBaseBytes;
  if (isSigned(c.type)) {
    size_t w = *c.fixedSize();
    uint64_t bits = static_cast<uint64_t>(std::get<int64_t>(v)) & widthMask(w);
    putBigEndian(out, hbase ? bits : bits ^ signBit(w), w);
  } else if (isUnsigned(c.type)) {
    putBigEndian(out, std::get<uint64_t>(v), *c.fixedSize());
  } else {
    switch (c.type) {
      case ComponentType::kFloat32: {
        float f = static_cast<float>(std::get<double>(v));
        uint32_t bits = std::isnan(f) ? kCanonicalNaN32 : std::bit_cast<uint32_t>(f);
        putBigEndian(out, hbase ? bits : sortableFloat(f), 4);
        break;
      }
      case ComponentType::kFloat64: {
        double d = std::get<double>(v);
        uint64_t bits = std::isnan(d) ? kCanonicalNaN64 : std::bit_cast<uint64_t>(d);
        putBigEndian(out, hbase ? bits : sortableDouble(d), 8);
        break;
      }
      case ComponentType::kBool: {
        bool b = std::get<bool>(v);
        out.push_back(hbase ? (b ? '\xff' : '\0') : (b ? '\x01' : '\0'));
        break;
      }
      case ComponentType::kUtf8:
      case ComponentType::kBytes:
      case ComponentType::kReverseDomain: {
        const std::string& s = std::get<std::string>(v);
        std::string stored = c.type == ComponentType::kReverseDomain ? reverseDomain(s) : s;
        if (hbase) out += stored;
        else appendEscaped(out, stored);
        break;
      }
      case ComponentType::kFixedBytes:
      case ComponentType::kMd5: out += std::get<std::string>(v); break;
      case ComponentType::kSalt: out.push_back(static_cast<char>(std::get<uint64_t>(v))); break;
      case ComponentType::kReverseTimestamp: {
        uint64_t bits = static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - std::get<int64_t>(v));
        putBigEndian(out, hbase ? bits : bits ^ signBit(8), 8);
        break;
      }
      case ComponentType::kQuadkey: putBigEndian(out, packQuadkey(std::get<Tile>(v)), 8); break;
      default: break;
    }
  }
  if (c.order == SortOrder::kDescending)
    for (size_t i = start; i < out.size(); ++i) out[i] = static_cast<char>(~static_cast<uint8_t>(out[i]));
}

// Reads one component at `pos`; on success advances `pos`.
class ComponentReader {
 public:
  ComponentReader(BytesView key, const KeyComponent& c, size_t index) : m_key(key), m_c(c), m_index(index) {}

  Result<ComponentValue> read(size_t& pos) {
    m_errorOffset = pos;
    const bool hbase = m_c.encoding == Encoding::kHBaseBytes;
    if (auto fixed = m_c.fixedSize()) {
      if (m_key.size() - pos < *fixed)
        return fail(pos, "truncated " + m_c.typeText() + ": needs " + std::to_string(*fixed) + " bytes, " +
                             std::to_string(m_key.size() - pos) + " left");
      Bytes raw = take(pos, *fixed);
      auto value = fromFixed(raw, hbase, pos);
      if (value) pos += *fixed;
      return value;
    }
    // Variable-length strings.
    Bytes stored;
    if (hbase) {
      stored = take(pos, m_key.size() - pos);
      pos = m_key.size();
    } else {
      size_t i = pos;
      while (true) {
        if (i >= m_key.size())
          return fail(i, "unterminated " + m_c.typeText() + ": no 00 01 terminator before the end of the key");
        uint8_t b = byteAt(i);
        if (b != 0x00) {
          stored.push_back(static_cast<char>(b));
          ++i;
          continue;
        }
        if (i + 1 >= m_key.size())
          return fail(i, "unterminated " + m_c.typeText() + ": 00 at the end of the key");
        uint8_t next = byteAt(i + 1);
        if (next == 0xff) {
          stored.push_back('\0');
          i += 2;
        } else if (next == 0x01) {
          i += 2;
          break;
        } else {
          return fail(i, "invalid escape 00 " + toHex(std::string(1, static_cast<char>(next))) + " in " +
                             m_c.typeText() + " (expected 00 ff or the terminator 00 01)");
        }
      }
      pos = i;
    }
    if (m_c.type != ComponentType::kBytes) {
      if (auto bad = firstInvalidUtf8(stored))
        return fail(m_errorOffset, "invalid UTF-8 in " + m_c.typeText() + " at its byte " + std::to_string(*bad));
    }
    if (m_c.type == ComponentType::kReverseDomain) return ComponentValue{reverseDomain(stored)};
    return ComponentValue{std::move(stored)};
  }

  DecodeError error() const { return m_error; }

 private:
  uint8_t byteAt(size_t i) const {
    auto b = static_cast<uint8_t>(m_key[i]);
    return m_c.order == SortOrder::kDescending ? static_cast<uint8_t>(~b) : b;
  }
  Bytes take(size_t pos, size_t n) const {
    Bytes raw(n, '\0');
    for (size_t i = 0; i < n; ++i) raw[i] = static_cast<char>(byteAt(pos + i));
    return raw;
  }
  Status fail(size_t offset, std::string reason) {
    m_error = DecodeError{offset, m_index, std::move(reason)};
    return Status::corruption(m_error.reason);
  }

  Result<ComponentValue> fromFixed(const Bytes& raw, bool hbase, size_t pos) {
    const size_t w = raw.size();
    if (isSigned(m_c.type)) {
      uint64_t bits = getBigEndian(raw, w);
      if (!hbase) bits ^= signBit(w);
      // Sign-extend from the component's width.
      if (w < 8 && (bits & signBit(w))) bits |= ~widthMask(w);
      return ComponentValue{static_cast<int64_t>(bits)};
    }
    if (isUnsigned(m_c.type)) return ComponentValue{getBigEndian(raw, w)};
    switch (m_c.type) {
      case ComponentType::kFloat32: {
        auto stored = static_cast<uint32_t>(getBigEndian(raw, 4));
        uint32_t bits = hbase ? stored : ((stored & 0x80000000U) ? stored ^ 0x80000000U : ~stored);
        float f = std::bit_cast<float>(bits);
        if (std::isnan(f) && bits != kCanonicalNaN32) return fail(pos, "non-canonical NaN in f32");
        return ComponentValue{static_cast<double>(f)};
      }
      case ComponentType::kFloat64: {
        uint64_t stored = getBigEndian(raw, 8);
        uint64_t bits = hbase ? stored : ((stored & signBit(8)) ? stored ^ signBit(8) : ~stored);
        double d = std::bit_cast<double>(bits);
        if (std::isnan(d) && bits != kCanonicalNaN64) return fail(pos, "non-canonical NaN in f64");
        return ComponentValue{d};
      }
      case ComponentType::kBool: {
        auto b = static_cast<uint8_t>(raw[0]);
        uint8_t trueByte = hbase ? 0xff : 0x01;
        if (b != 0 && b != trueByte)
          return fail(pos, "invalid bool byte " + toHex(raw) + " (expected 00 or " +
                               toHex(std::string(1, static_cast<char>(trueByte))) + ")");
        return ComponentValue{b == trueByte};
      }
      case ComponentType::kFixedBytes:
      case ComponentType::kMd5: return ComponentValue{raw};
      case ComponentType::kSalt: {
        auto b = static_cast<uint8_t>(raw[0]);
        if (b >= m_c.buckets)
          return fail(pos, "salt byte " + std::to_string(b) + " is not below its " + std::to_string(m_c.buckets) + " buckets");
        return ComponentValue{uint64_t{b}};
      }
      case ComponentType::kReverseTimestamp: {
        uint64_t bits = getBigEndian(raw, 8);
        if (!hbase) bits ^= signBit(8);
        auto reversed = static_cast<int64_t>(bits);
        if (reversed < 0) return fail(pos, "not a reverse timestamp: INT64_MAX - ts would be negative");
        return ComponentValue{std::numeric_limits<int64_t>::max() - reversed};
      }
      case ComponentType::kQuadkey: {
        auto tile = unpackQuadkey(getBigEndian(raw, 8));
        if (!tile) return fail(pos, "not a packed quadkey (zoom above 29 or digits beyond the zoom)");
        return ComponentValue{*tile};
      }
      default: break;
    }
    return fail(pos, "unsupported fixed type");
  }

  BytesView m_key;
  const KeyComponent& m_c;
  size_t m_index;
  size_t m_errorOffset = 0;
  DecodeError m_error;
};

template <typename T>
int threeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compareValues(const KeyComponent& c, const ComponentValue& a, const ComponentValue& b) {
  if (a.index() != b.index()) return threeWay(a.index(), b.index());  // not expected for valid tuples
  switch (c.type) {
    case ComponentType::kFloat32:
    case ComponentType::kFloat64: return threeWay(sortableDouble(std::get<double>(a)), sortableDouble(std::get<double>(b)));
    case ComponentType::kReverseTimestamp: return threeWay(std::get<int64_t>(b), std::get<int64_t>(a));
    case ComponentType::kReverseDomain:
      return threeWay(reverseDomain(std::get<std::string>(a)), reverseDomain(std::get<std::string>(b)));
    case ComponentType::kQuadkey: return threeWay(packQuadkey(std::get<Tile>(a)), packQuadkey(std::get<Tile>(b)));
    default: break;
  }
  return std::visit(
      [&](const auto& x) -> int {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, Tile>) return 0;
        else return threeWay(x, std::get<T>(b));
      },
      a);
}

}  // namespace

Result<KeyTuple> completeTuple(const KeySchema& schema, const KeyTuple& tuple) {
  if (tuple.size() > schema.size())
    return Status::invalidArgument("the schema has " + std::to_string(schema.size()) + " components, got " +
                                   std::to_string(tuple.size()) + " values");
  KeyTuple out(tuple.size());
  for (size_t i = 0; i < tuple.size(); ++i) {
    const auto& c = schema[i];
    if (c.isDerived()) continue;
    auto v = normalise(c, tuple[i]);
    if (!v) return v.status();
    out[i] = std::move(v).value();
  }
  for (size_t i = 0; i < tuple.size(); ++i) {
    const auto& c = schema[i];
    if (!c.isDerived()) continue;
    const bool given = !std::holds_alternative<std::monostate>(tuple[i]);
    for (size_t src : c.sources) {
      if (src < tuple.size()) continue;
      // A prefix that stops before the fields: a given value is taken as it is
      // (a scan of one salt bucket); an absent one cannot be computed.
      if (!given)
        return Status::invalidArgument("component " + quoted(c) + " needs " + quoted(schema[src]) +
                                       ", which this prefix leaves out (give the " + componentTypeName(c.type) +
                                       " value itself to scan one bucket)");
    }
    if (given && std::any_of(c.sources.begin(), c.sources.end(), [&](size_t src) { return src >= tuple.size(); })) {
      auto v = normalise(c, tuple[i]);
      if (!v) return v.status();
      out[i] = std::move(v).value();
      continue;
    }
    auto derived = deriveValue(schema, c, out);
    if (!derived) return derived.status();
    if (given) {
      auto givenValue = normalise(c, tuple[i]);
      if (!givenValue) return givenValue.status();
      if (compareValues(c, *givenValue, *derived) != 0)
        return Status::invalidArgument("component " + quoted(c) + ": the value given does not match " +
                                       c.typeText() + " of its fields (leave it out to compute it)");
    }
    out[i] = std::move(derived).value();
  }
  return out;
}

Result<ComponentValue> checkValue(const KeyComponent& component, const ComponentValue& value) {
  return checkValueUnnamed(component, value);
}

Result<Bytes> encodeKey(const KeySchema& schema, const KeyTuple& tuple) {
  auto complete = completeTuple(schema, tuple);
  if (!complete) return complete.status();
  Bytes out;
  for (size_t i = 0; i < complete->size(); ++i) appendComponent(out, schema[i], (*complete)[i]);
  return out;
}

Result<Bytes> encodeComponent(const KeyComponent& component, const ComponentValue& value) {
  auto v = normalise(component, value);
  if (!v) return v.status();
  Bytes out;
  appendComponent(out, component, *v);
  return out;
}

Result<Bytes> hbaseBytes(const KeyComponent& component, const ComponentValue& value) {
  KeyComponent plain = component;
  plain.encoding = Encoding::kHBaseBytes;
  plain.order = SortOrder::kAscending;
  return encodeComponent(plain, value);
}


DecodedKey decodeKey(const KeySchema& schema, BytesView key) {
  DecodedKey result;
  size_t pos = 0;
  for (size_t i = 0; i < schema.size(); ++i) {
    const bool mayBeEmpty = schema[i].encoding == Encoding::kHBaseBytes && !schema[i].fixedSize();
    if (pos == key.size() && i > 0 && !mayBeEmpty) {
      result.error = DecodeError{pos, i, "the key ends before component " + quoted(schema[i])};
      return result;
    }
    ComponentReader reader(key, schema[i], i);
    size_t begin = pos;
    auto value = reader.read(pos);
    if (!value) {
      result.error = reader.error();
      return result;
    }
    result.values.push_back(std::move(value).value());
    result.spans.emplace_back(begin, pos);
  }
  if (pos != key.size()) {
    result.error = DecodeError{pos, schema.size() ? schema.size() - 1 : 0,
                               std::to_string(key.size() - pos) + (key.size() - pos == 1 ? " byte" : " bytes") +
                                   " left after the last component"};
    return result;
  }
  // Derived components must agree with the fields they cover.
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& c = schema[i];
    if (!c.isDerived()) continue;
    auto expected = deriveValue(schema, c, result.values);
    if (expected && compareValues(c, *expected, result.values[i]) != 0) {
      result.error = DecodeError{result.spans[i].first, i,
                                 c.typeText() + " does not match the fields it covers (expected " +
                                     (c.type == ComponentType::kSalt
                                          ? std::to_string(std::get<uint64_t>(*expected))
                                          : toHex(std::get<std::string>(*expected))) +
                                     "): not a key of this schema"};
      return result;
    }
  }
  return result;
}

std::string DecodeError::toString(const KeySchema& schema) const {
  std::string where = "offset " + std::to_string(offset);
  if (component < schema.size()) where += ", component '" + schema[component].name + "'";
  return where + ": " + reason;
}

int compareTuples(const KeySchema& schema, const KeyTuple& a, const KeyTuple& b) {
  size_t n = std::min({a.size(), b.size(), schema.size()});
  for (size_t i = 0; i < n; ++i) {
    int cmp = compareValues(schema[i], a[i], b[i]);
    if (cmp != 0) return schema[i].order == SortOrder::kDescending ? -cmp : cmp;
  }
  return threeWay(a.size(), b.size());
}

}  // namespace keyscope
