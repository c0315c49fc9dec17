// Key component values as CSV text (see key_text.h).
#include "csv/key_text.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace keyscope::csv {

namespace {

// The text quoted for an error message, shortened and with odd bytes escaped.
std::string shown(std::string_view text) {
  std::string s = toStringBinary(text.substr(0, 40));
  if (text.size() > 40) s += "...";
  return "'" + s + "'";
}

Result<ComponentValue> integer(std::string_view text, bool isSigned) {
  const char* end = text.data() + text.size();
  if (isSigned) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec == std::errc() && ptr == end && !text.empty()) return ComponentValue{v};
    if (ec == std::errc::result_out_of_range) return Status::invalidArgument(shown(text) + " is out of the range of an i64");
  } else {
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec == std::errc() && ptr == end && !text.empty()) return ComponentValue{v};
    if (ec == std::errc::result_out_of_range) return Status::invalidArgument(shown(text) + " is out of the range of a u64");
    if (text.starts_with('-')) return Status::invalidArgument("expected a non-negative integer, got " + shown(text));
  }
  return Status::invalidArgument("expected an integer, got " + shown(text));
}

// An f32 is read as a float: the shortest text of FLT_MAX read as a double
// lies just past FLT_MAX, and only float rounding brings it back exactly.
template <typename Float>
Result<ComponentValue> number(std::string_view text, const char* typeName) {
  if (text == "NaN" || text == "nan") return ComponentValue{std::numeric_limits<double>::quiet_NaN()};
  if (text == "Infinity" || text == "inf") return ComponentValue{std::numeric_limits<double>::infinity()};
  if (text == "-Infinity" || text == "-inf") return ComponentValue{-std::numeric_limits<double>::infinity()};
  Float v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc() && ptr == end && !text.empty()) return ComponentValue{static_cast<double>(v)};
  if (ec == std::errc::result_out_of_range)
    return Status::invalidArgument(shown(text) + " is out of the range of an " + typeName);
  return Status::invalidArgument("expected a number (or NaN, Infinity, -Infinity), got " + shown(text));
}

Result<ComponentValue> tile(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash != std::string_view::npos) {  // zoom/x/y
    const size_t slash2 = text.find('/', slash + 1);
    uint32_t parts[3] = {0, 0, 0};
    const std::string_view pieces[3] = {text.substr(0, slash),
                                        slash2 == std::string_view::npos ? std::string_view() : text.substr(slash + 1, slash2 - slash - 1),
                                        slash2 == std::string_view::npos ? std::string_view() : text.substr(slash2 + 1)};
    for (int i = 0; i < 3; ++i) {
      const char* end = pieces[i].data() + pieces[i].size();
      auto [ptr, ec] = std::from_chars(pieces[i].data(), end, parts[i]);
      if (slash2 == std::string_view::npos || pieces[i].empty() || ec != std::errc() || ptr != end)
        return Status::invalidArgument("expected quadkey digits or zoom/x/y, got " + shown(text));
    }
    return ComponentValue{Tile{parts[0], parts[1], parts[2]}};
  }
  if (text.size() > 29) return Status::invalidArgument("a quadkey has at most 29 digits, got " + std::to_string(text.size()));
  Tile t;
  t.zoom = static_cast<uint32_t>(text.size());
  for (char ch : text) {
    if (ch < '0' || ch > '3') return Status::invalidArgument("expected quadkey digits 0-3 or zoom/x/y, got " + shown(text));
    const auto d = static_cast<uint32_t>(ch - '0');
    t.x = (t.x << 1) | (d & 1U);
    t.y = (t.y << 1) | (d >> 1);
  }
  return ComponentValue{t};
}

Result<ComponentValue> parse(const KeyComponent& c, std::string_view text, ByteFormat bytes) {
  switch (c.type) {
    case ComponentType::kInt8:
    case ComponentType::kInt16:
    case ComponentType::kInt32:
    case ComponentType::kInt64:
    case ComponentType::kReverseTimestamp: return integer(text, true);
    case ComponentType::kUInt8:
    case ComponentType::kUInt16:
    case ComponentType::kUInt32:
    case ComponentType::kUInt64:
    case ComponentType::kSalt: return integer(text, false);
    case ComponentType::kFloat32: return number<float>(text, "f32");
    case ComponentType::kFloat64: return number<double>(text, "f64");
    case ComponentType::kBool:
      if (text == "true" || text == "1") return ComponentValue{true};
      if (text == "false" || text == "0") return ComponentValue{false};
      return Status::invalidArgument("expected true or false, got " + shown(text));
    case ComponentType::kUtf8:
    case ComponentType::kReverseDomain: return ComponentValue{std::string(text)};
    case ComponentType::kBytes:
    case ComponentType::kFixedBytes:
    case ComponentType::kMd5: {
      Result<Bytes> b = parseBytes(text, bytes);
      if (!b) return b.status();
      return ComponentValue{std::move(b).value()};
    }
    case ComponentType::kQuadkey: return tile(text);
  }
  return Status::invalidArgument("unsupported component type");
}

template <typename T>
std::string shortest(T v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : std::to_string(v);
}

}  // namespace

Result<ComponentValue> componentFromText(const KeyComponent& component, std::string_view text, ByteFormat bytes) {
  Result<ComponentValue> value = parse(component, text, bytes);
  if (!value) return value;
  return checkValue(component, *value);
}

std::string componentToText(const KeyComponent& component, const ComponentValue& value, ByteFormat bytes) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          if (std::isnan(v)) return "NaN";
          if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
          if (component.type == ComponentType::kFloat32) return shortest(static_cast<float>(v));
          return shortest(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          const bool text = component.type == ComponentType::kUtf8 || component.type == ComponentType::kReverseDomain;
          return text ? v : formatBytes(v, bytes);
        } else {
          return quadkeyDigits(v);
        }
      },
      value);
}

}  // namespace keyscope::csv
