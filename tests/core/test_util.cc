#include "test_util.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace keyscope::test {

KeySchema schemaOf(std::string_view text) {
  auto parsed = KeySchema::parse(text);
  if (!parsed) {
    ADD_FAILURE() << "schema '" << text << "' does not parse: " << parsed.status().toString();
    return KeySchema();
  }
  return parsed.value();
}

std::string encodeHex(const KeySchema& schema, const KeyTuple& tuple) {
  auto key = encodeKey(schema, tuple);
  if (!key) return "error: " + key.status().message();
  return toHex(*key);
}

std::string encodeHex(std::string_view schemaText, const KeyTuple& tuple) {
  return encodeHex(schemaOf(schemaText), tuple);
}

Bytes encodeOk(const KeySchema& schema, const KeyTuple& tuple) {
  auto key = encodeKey(schema, tuple);
  if (!key) {
    ADD_FAILURE() << "encodeKey(" << schema.toString() << ", " << describe(tuple)
                  << ") failed: " << key.status().toString();
    return {};
  }
  return *key;
}

Bytes unhex(std::string_view hex) {
  auto bytes = fromHex(hex);
  if (!bytes) {
    ADD_FAILURE() << "bad hex in test: " << hex;
    return {};
  }
  return *bytes;
}

bool sameValue(const ComponentValue& a, const ComponentValue& b) {
  if (a.index() != b.index()) return false;
  if (const double* x = std::get_if<double>(&a)) {
    const double y = std::get<double>(b);
    if (std::isnan(*x) || std::isnan(y)) return std::isnan(*x) && std::isnan(y);
    return std::bit_cast<uint64_t>(*x) == std::bit_cast<uint64_t>(y);
  }
  return a == b;
}

::testing::AssertionResult sameTuple(const KeyTuple& expected, const KeyTuple& actual) {
  bool same = expected.size() == actual.size();
  for (size_t k = 0; same && k < expected.size(); ++k) same = sameValue(expected[k], actual[k]);
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << describe(expected) << ", got " << describe(actual);
}

std::string describe(const ComponentValue& v) {
  std::ostringstream out;
  struct Visitor {
    std::ostringstream& out;
    void operator()(std::monostate) const { out << "absent"; }
    void operator()(bool x) const { out << (x ? "true" : "false"); }
    void operator()(int64_t x) const { out << x; }
    void operator()(uint64_t x) const { out << x << "u"; }
    void operator()(double x) const {
      out.precision(17);
      out << x << "(0x" << std::hex << std::bit_cast<uint64_t>(x) << std::dec << ")";
    }
    void operator()(const std::string& x) const { out << '"' << toStringBinary(x) << '"'; }
    void operator()(const Tile& t) const { out << "tile(" << t.zoom << "," << t.x << "," << t.y << ")"; }
  };
  std::visit(Visitor{out}, v);
  return out.str();
}

std::string describe(const KeyTuple& t) {
  std::string text = "[";
  for (size_t k = 0; k < t.size(); ++k) text += (k ? ", " : "") + describe(t[k]);
  return text + "]";
}

int byteOrder(BytesView a, BytesView b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (c != 0) return sign(c);
  return (a.size() > b.size()) - (a.size() < b.size());
}

namespace {

template <typename T>
int cmp3(const T& x, const T& y) {
  return (x > y) - (x < y);
}

// IEEE 754 totalOrder with every NaN made one, NaN last (the spec's float order).
int compareFloats(double x, double y) {
  const bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx || ny) return cmp3(nx, ny);
  if (x == 0.0 && y == 0.0) return cmp3(!std::signbit(x), !std::signbit(y));
  return cmp3(x, y);
}

int compareBytes(const std::string& x, const std::string& y) { return byteOrder(x, y); }

// Packed quadkey computed from the spec table, independently of packQuadkey().
uint64_t referencePack(const Tile& t) {
  uint64_t packed = 0;
  for (uint32_t level = 1; level <= t.zoom; ++level) {
    const uint32_t bit = t.zoom - level;
    const uint64_t digit = (((t.y >> bit) & 1u) << 1) | ((t.x >> bit) & 1u);
    packed |= digit << (64 - 2 * level);
  }
  return packed | t.zoom;
}

// host labels reversed, the part from the first '/' or ':' kept as is.
std::string referenceReverseDomain(const std::string& url) {
  const size_t cut = url.find_first_of("/:");
  const std::string host = url.substr(0, cut);
  const std::string rest = cut == std::string::npos ? "" : url.substr(cut);
  std::vector<std::string> labels;
  size_t start = 0;
  for (;;) {
    const size_t dot = host.find('.', start);
    labels.push_back(host.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::string out;
  for (size_t k = labels.size(); k-- > 0;) out += labels[k] + (k ? "." : "");
  return out + rest;
}

int compareComponent(const KeyComponent& c, const ComponentValue& x, const ComponentValue& y) {
  switch (c.type) {
    case ComponentType::kInt8:
    case ComponentType::kInt16:
    case ComponentType::kInt32:
    case ComponentType::kInt64:
      return cmp3(std::get<int64_t>(x), std::get<int64_t>(y));
    case ComponentType::kReverseTimestamp:  // newest first
      return cmp3(std::get<int64_t>(y), std::get<int64_t>(x));
    case ComponentType::kUInt8:
    case ComponentType::kUInt16:
    case ComponentType::kUInt32:
    case ComponentType::kUInt64:
    case ComponentType::kSalt:
      return cmp3(std::get<uint64_t>(x), std::get<uint64_t>(y));
    case ComponentType::kFloat32:
    case ComponentType::kFloat64:
      return compareFloats(std::get<double>(x), std::get<double>(y));
    case ComponentType::kBool:
      return cmp3(std::get<bool>(x), std::get<bool>(y));
    case ComponentType::kUtf8:
    case ComponentType::kBytes:
    case ComponentType::kFixedBytes:
    case ComponentType::kMd5:
      return compareBytes(std::get<std::string>(x), std::get<std::string>(y));
    case ComponentType::kReverseDomain:
      return compareBytes(referenceReverseDomain(std::get<std::string>(x)),
                          referenceReverseDomain(std::get<std::string>(y)));
    case ComponentType::kQuadkey:
      return cmp3(referencePack(std::get<Tile>(x)), referencePack(std::get<Tile>(y)));
  }
  return 0;
}

}  // namespace

int referenceCompare(const KeySchema& schema, const KeyTuple& a, const KeyTuple& b, size_t count) {
  const size_t n = std::min({count, schema.size(), a.size(), b.size()});
  for (size_t k = 0; k < n; ++k) {
    int c = compareComponent(schema[k], a[k], b[k]);
    if (schema[k].order == SortOrder::kDescending) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

namespace {

template <typename T>
T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
  std::uniform_int_distribution<size_t> d(0, values.size() - 1);
  return *(values.begin() + static_cast<std::ptrdiff_t>(d(rng)));
}

bool coin(std::mt19937_64& rng) { return (rng() & 1u) != 0; }

int64_t randomSigned(std::mt19937_64& rng, int bits) {
  const int64_t lo = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
  const int64_t hi = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  if (coin(rng)) return pick<int64_t>(rng, {lo, lo + 1, -1, 0, 1, hi - 1, hi});
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

uint64_t randomUnsigned(std::mt19937_64& rng, int bits) {
  const uint64_t hi = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  if (coin(rng)) return pick<uint64_t>(rng, {0, 1, 2, hi - 1, hi});
  return std::uniform_int_distribution<uint64_t>(0, hi)(rng);
}

double randomFloat(std::mt19937_64& rng, bool single) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (coin(rng)) {
    const double tiny = single ? double(std::numeric_limits<float>::denorm_min())
                               : std::numeric_limits<double>::denorm_min();
    const double big = single ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
    return pick<double>(rng, {-inf, -big, -1.0, -tiny, -0.0, 0.0, tiny, 1.0, 1.5, big, inf, nan, -nan});
  }
  if (single) {
    const auto bits = static_cast<uint32_t>(rng());
    return double(std::bit_cast<float>(bits));  // any float, NaNs included
  }
  if (coin(rng)) return std::uniform_real_distribution<double>(-4.0, 4.0)(rng);
  return std::bit_cast<double>(rng());
}

std::string randomString(std::mt19937_64& rng, bool utf8) {
  // Pieces chosen so that strings often prefix each other and hold the
  // escape-sensitive bytes 0x00 and 0xff (bytes) or multi-byte sequences (utf8).
  static const char* const kUtf8Pieces[] = {"a", "b", "\0", "\x01", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  static const char* const kBytePieces[] = {"a", "b", "\0", "\x01", "\xfe", "\xff"};
  const size_t length = std::uniform_int_distribution<size_t>(0, 5)(rng);
  std::string out;
  for (size_t k = 0; k < length; ++k) {
    if (utf8) {
      const char* piece = kUtf8Pieces[rng() % 8];
      out += *piece ? std::string(piece) : std::string(1, '\0');
    } else {
      const char* piece = kBytePieces[rng() % 6];
      out += *piece ? std::string(piece) : std::string(1, '\0');
    }
  }
  return out;
}

std::string randomHost(std::mt19937_64& rng) {
  const size_t labels = std::uniform_int_distribution<size_t>(1, 3)(rng);
  std::string host;
  for (size_t k = 0; k < labels; ++k) {
    host += (k ? "." : "") + pick<std::string>(rng, {"a", "b", "com", "org", "www", "example"});
  }
  if (coin(rng)) host += pick<std::string>(rng, {"/", "/a", "/b/c", ":8080/x"});
  return host;
}

Tile randomTile(std::mt19937_64& rng) {
  const auto zoom = static_cast<uint32_t>(coin(rng) ? pick<uint32_t>(rng, {0, 1, 2, 29}) : rng() % 30);
  const uint64_t side = uint64_t{1} << zoom;
  return Tile{zoom, static_cast<uint32_t>(rng() % side), static_cast<uint32_t>(rng() % side)};
}

}  // namespace

ComponentValue randomValue(const KeyComponent& c, std::mt19937_64& rng) {
  switch (c.type) {
    case ComponentType::kInt8: return randomSigned(rng, 8);
    case ComponentType::kInt16: return randomSigned(rng, 16);
    case ComponentType::kInt32: return randomSigned(rng, 32);
    case ComponentType::kInt64: return randomSigned(rng, 64);
    case ComponentType::kUInt8: return randomUnsigned(rng, 8);
    case ComponentType::kUInt16: return randomUnsigned(rng, 16);
    case ComponentType::kUInt32: return randomUnsigned(rng, 32);
    case ComponentType::kUInt64: return randomUnsigned(rng, 64);
    case ComponentType::kFloat32: return randomFloat(rng, true);
    case ComponentType::kFloat64: return randomFloat(rng, false);
    case ComponentType::kBool: return coin(rng);
    case ComponentType::kUtf8: return randomString(rng, true);
    case ComponentType::kBytes: return randomString(rng, false);
    case ComponentType::kFixedBytes: {
      std::string out;
      for (uint32_t k = 0; k < c.width; ++k) out += pick<char>(rng, {'\0', '\x01', 'a', '\xfe', '\xff'});
      return out;
    }
    case ComponentType::kReverseTimestamp: {
      if (coin(rng)) return pick<int64_t>(rng, {0, 1, 1700000000000, std::numeric_limits<int64_t>::max()});
      return std::uniform_int_distribution<int64_t>(0, std::numeric_limits<int64_t>::max())(rng);
    }
    case ComponentType::kReverseDomain: return randomHost(rng);
    case ComponentType::kQuadkey: return randomTile(rng);
    case ComponentType::kSalt:
    case ComponentType::kMd5:
      if (c.isDerived()) return std::monostate{};
      return randomString(rng, false);  // md5 of its own value
  }
  return std::monostate{};
}

KeyTuple randomTuple(const KeySchema& schema, std::mt19937_64& rng) {
  KeyTuple t;
  for (const KeyComponent& c : schema.components()) t.push_back(randomValue(c, rng));
  return t;
}

KeyTuple completed(const KeySchema& schema, const KeyTuple& tuple) {
  auto full = completeTuple(schema, tuple);
  if (!full) {
    ADD_FAILURE() << "completeTuple(" << schema.toString() << ", " << describe(tuple)
                  << ") failed: " << full.status().toString();
    return tuple;
  }
  return *full;
}

}  // namespace keyscope::test
