// Key tuples to and from JSON (see key_json.h), on nlohmann::json. Its
// exceptions stay inside this file.
#include "keyscope/key_json.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace keyscope {

namespace {

using nlohmann::json;

std::string shortDump(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

class ElementReader {
 public:
  ElementReader(const KeyComponent& c, size_t element) : m_c(c), m_element(element) {}

  Result<ComponentValue> read(const json& j) {
    if (j.is_null()) {
      if (m_c.isDerived()) return ComponentValue{};
      return fail("is null; only derived components (salt, md5 of fields) may be");
    }
    switch (m_c.type) {
      case ComponentType::kInt8:
      case ComponentType::kInt16:
      case ComponentType::kInt32:
      case ComponentType::kInt64:
      case ComponentType::kUInt8:
      case ComponentType::kUInt16:
      case ComponentType::kUInt32:
      case ComponentType::kUInt64:
      case ComponentType::kReverseTimestamp:
      case ComponentType::kSalt: return integer(j);
      case ComponentType::kFloat32:
      case ComponentType::kFloat64: return number(j);
      case ComponentType::kBool:
        if (!j.is_boolean()) return fail("expected true or false, got " + shortDump(j));
        return ComponentValue{j.get<bool>()};
      case ComponentType::kUtf8:
      case ComponentType::kReverseDomain:
        if (!j.is_string()) return fail("expected a string, got " + shortDump(j));
        return ComponentValue{j.get<std::string>()};
      case ComponentType::kBytes:
      case ComponentType::kFixedBytes:
      case ComponentType::kMd5: return bytes(j);
      case ComponentType::kQuadkey: return tile(j);
    }
    return fail("unsupported type");
  }

 private:
  Status fail(const std::string& what) const {
    return Status::invalidArgument("element " + std::to_string(m_element + 1) + " ('" + m_c.name + "', " +
                                   m_c.typeText() + "): " + what);
  }

  Result<ComponentValue> integer(const json& j) const {
    if (j.is_number_unsigned()) return ComponentValue{j.get<uint64_t>()};
    if (j.is_number_integer()) return ComponentValue{j.get<int64_t>()};
    if (j.is_string()) {  // decimal text, for integers beyond what some JSON writers keep exact
      const std::string s = j.get<std::string>();
      const char* end = s.data() + s.size();
      if (!s.empty() && s[0] == '-') {
        int64_t v = 0;
        auto [ptr, ec] = std::from_chars(s.data(), end, v);
        if (ec == std::errc() && ptr == end) return ComponentValue{v};
      } else {
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(s.data(), end, v);
        if (ec == std::errc() && ptr == end && !s.empty()) return ComponentValue{v};
      }
      return fail("expected an integer, got " + shortDump(j));
    }
    if (j.is_number_float()) return fail("expected an integer, got " + shortDump(j) + " (too large, or not whole)");
    return fail("expected an integer, got " + shortDump(j));
  }

  Result<ComponentValue> number(const json& j) const {
    if (j.is_number_float()) return ComponentValue{j.get<double>()};
    if (j.is_number_unsigned()) return ComponentValue{static_cast<double>(j.get<uint64_t>())};
    if (j.is_number_integer()) return ComponentValue{static_cast<double>(j.get<int64_t>())};
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      if (s == "NaN") return ComponentValue{std::numeric_limits<double>::quiet_NaN()};
      if (s == "Infinity") return ComponentValue{std::numeric_limits<double>::infinity()};
      if (s == "-Infinity") return ComponentValue{-std::numeric_limits<double>::infinity()};
    }
    return fail("expected a number, \"NaN\", \"Infinity\" or \"-Infinity\", got " + shortDump(j));
  }

  Result<ComponentValue> bytes(const json& j) const {
    if (j.is_string()) return ComponentValue{fromStringBinary(j.get<std::string>())};
    if (j.is_object() && j.size() == 1) {
      if (j.contains("hex") && j["hex"].is_string()) {
        size_t at = 0;
        auto b = fromHex(j["hex"].get<std::string>(), &at);
        if (!b) return fail("bad hex digits at character " + std::to_string(at + 1));
        return ComponentValue{*b};
      }
      if (m_c.type == ComponentType::kMd5 && j.contains("md5")) {
        KeyComponent asBytes = m_c;
        asBytes.type = ComponentType::kBytes;
        auto input = ElementReader(asBytes, m_element).bytes(j["md5"]);
        if (!input) return input.status();
        return ComponentValue{md5Prefix(m_c, std::get<std::string>(*input))};
      }
    }
    std::string forms = "a string (\\xNN escapes) or {\"hex\": \"...\"}";
    if (m_c.type == ComponentType::kMd5) forms += " or {\"md5\": \"input\"}";
    return fail("expected " + forms + ", got " + shortDump(j));
  }

  Result<ComponentValue> tile(const json& j) const {
    if (j.is_string()) {  // quadkey digits, one per zoom level
      const std::string s = j.get<std::string>();
      if (s.size() > 29) return fail("a quadkey has at most 29 digits");
      Tile t;
      t.zoom = static_cast<uint32_t>(s.size());
      for (char ch : s) {
        if (ch < '0' || ch > '3') return fail("quadkey digits are 0-3, got '" + std::string(1, ch) + "'");
        auto d = static_cast<uint32_t>(ch - '0');
        t.x = (t.x << 1) | (d & 1U);
        t.y = (t.y << 1) | (d >> 1);
      }
      return ComponentValue{t};
    }
    if (j.is_array() && j.size() == 3 && j[0].is_number_unsigned() && j[1].is_number_unsigned() &&
        j[2].is_number_unsigned()) {
      auto z = j[0].get<uint64_t>(), x = j[1].get<uint64_t>(), y = j[2].get<uint64_t>();
      if (z > 29 || x > UINT32_MAX || y > UINT32_MAX) return fail("tile " + shortDump(j) + " is out of range");
      return ComponentValue{Tile{static_cast<uint32_t>(z), static_cast<uint32_t>(x), static_cast<uint32_t>(y)}};
    }
    return fail("expected [zoom, x, y] with non-negative integers or a quadkey digit string, got " + shortDump(j));
  }

  const KeyComponent& m_c;
  size_t m_element;
};

}  // namespace

Result<KeyTuple> tupleFromJson(const KeySchema& schema, std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return Status::invalidArgument("invalid JSON at character " + std::to_string(e.byte) + ": " +
                                   std::string(e.what()).substr(std::string(e.what()).rfind(':') + 2));
  }
  if (!j.is_array()) return Status::invalidArgument("expected a JSON array of component values, got " + shortDump(j));
  // One element per component (derived ones may be null), or one per input
  // component with the derived ones left out; either may stop early (a prefix).
  std::vector<size_t> positions;
  if (j.size() > schema.size()) {
    return Status::invalidArgument("expected at most " + std::to_string(schema.size()) + " values, got " +
                                   std::to_string(j.size()));
  } else if (j.size() == schema.size() || j.size() > schema.inputCount()) {
    for (size_t i = 0; i < j.size(); ++i) positions.push_back(i);
  } else {
    for (size_t i = 0; i < schema.size() && positions.size() < j.size(); ++i)
      if (!schema[i].isDerived()) positions.push_back(i);
  }
  KeyTuple tuple(positions.empty() ? 0 : positions.back() + 1);
  for (size_t e = 0; e < positions.size(); ++e) {
    const KeyComponent& c = schema[positions[e]];
    auto v = ElementReader(c, e).read(j[e]);
    if (!v) return v.status();
    if (!std::holds_alternative<std::monostate>(*v)) {
      v = checkValue(c, *v);
      if (!v)
        return Status::invalidArgument("element " + std::to_string(e + 1) + " ('" + c.name + "', " + c.typeText() +
                                       "): " + v.status().message());
    }
    tuple[positions[e]] = std::move(v).value();
  }
  return tuple;
}

std::string valueToJson(const KeyComponent& c, const ComponentValue& value) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "null";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          if (std::isnan(v)) return "\"NaN\"";
          if (std::isinf(v)) return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
          if (c.type == ComponentType::kFloat32) return json(static_cast<float>(v)).dump();
          return json(v).dump();
        } else if constexpr (std::is_same_v<T, std::string>) {
          bool text = c.type == ComponentType::kUtf8 || c.type == ComponentType::kReverseDomain;
          return json(text ? v : toStringBinary(v)).dump(-1, ' ', false, json::error_handler_t::replace);
        } else {
          return "[" + std::to_string(v.zoom) + "," + std::to_string(v.x) + "," + std::to_string(v.y) + "]";
        }
      },
      value);
}

std::string tupleToJson(const KeySchema& schema, const KeyTuple& tuple) {
  std::string out = "[";
  for (size_t i = 0; i < tuple.size() && i < schema.size(); ++i) {
    if (i) out += ",";
    out += valueToJson(schema[i], tuple[i]);
  }
  return out + "]";
}

}  // namespace keyscope
