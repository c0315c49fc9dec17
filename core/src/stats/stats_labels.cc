// KeyLabeler (stats_labels.h).
#include "stats/stats_labels.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <variant>

namespace keyscope::stats {

namespace {

constexpr std::string_view kSeparator = " \u203a ";  // " › "

// [2000-01-01, 2100-01-01) in seconds.
constexpr int64_t kPlausibleFrom = 946684800;
constexpr int64_t kPlausibleTo = 4102444800;

bool namesTime(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view n(lower);
  return n == "ts" || n.ends_with("_ts") || n.find("time") != std::string_view::npos ||
         n.find("date") != std::string_view::npos;
}

std::optional<std::string> asTime(int64_t v) {
  if (v >= kPlausibleFrom * 1000 && v < kPlausibleTo * 1000) return formatUtcMillis(v);
  if (v >= kPlausibleFrom && v < kPlausibleTo) return formatUtcMillis(v * 1000);
  return std::nullopt;
}

bool printable(std::string_view s) {
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f || b == '\\') return false;
  }
  return true;
}

std::string number(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

}  // namespace

Result<std::optional<KeySchema>> parseTableSchema(std::string_view text) {
  if (text.find_first_not_of(" \t") == std::string_view::npos) return std::optional<KeySchema>();
  Result<KeySchema> schema = KeySchema::parse(text);
  if (!schema) return Status::invalidArgument("the table's key schema does not parse: " + schema.status().message());
  return std::optional<KeySchema>(std::move(schema).value());
}

std::string formatUtcMillis(int64_t millis) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds(millis)};
  const auto day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss hms(t - day);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02d:%02d:%02d", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  std::string out(buf);
  if (const auto ms = hms.subseconds().count(); ms != 0) {
    std::snprintf(buf, sizeof buf, ".%03d", static_cast<int>(ms));
    out += buf;
  }
  return out;
}

std::string KeyLabeler::value(size_t component, const ComponentValue& v) const {
  const KeyComponent* c = m_schema && component < m_schema->size() ? &(*m_schema)[component] : nullptr;
  return std::visit(
      [&](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "?";
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          if (c != nullptr && (c->type == ComponentType::kReverseTimestamp || namesTime(c->name)))
            if (auto t = asTime(x)) return *t;
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, uint64_t>) {
          if (c != nullptr && c->type != ComponentType::kSalt && namesTime(c->name) &&
              x <= static_cast<uint64_t>(INT64_MAX))
            if (auto t = asTime(static_cast<int64_t>(x))) return *t;
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          return number(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          if (c != nullptr && c->type == ComponentType::kMd5) return toHex(x);
          const bool text = c != nullptr && (c->type == ComponentType::kUtf8 || c->type == ComponentType::kReverseDomain);
          return text && printable(x) ? x : toStringBinary(x);
        } else {
          return std::to_string(x.zoom) + "/" + std::to_string(x.x) + "/" + std::to_string(x.y);
        }
      },
      v);
}

std::string KeyLabeler::row(BytesView row, size_t firstComponent) const {
  if (!m_schema) return toStringBinary(row);
  const DecodedKey decoded = decodeKey(*m_schema, row);
  std::string out;
  size_t decodedEnd = 0;
  for (size_t i = 0; i < decoded.values.size(); ++i) {
    decodedEnd = decoded.spans[i].second;
    if (i < firstComponent) continue;
    if (!out.empty()) out += kSeparator;
    out += (*m_schema)[i].name;
    out += '=';
    out += value(i, decoded.values[i]);
  }
  // A salt that does not match its fields still decoded every component:
  // the label shows them. Otherwise the bytes that did not decode follow.
  if (decoded.error && decodedEnd < row.size()) {
    if (!out.empty()) out += kSeparator;
    out += toStringBinary(row.substr(decodedEnd));
  }
  return out;
}

}  // namespace keyscope::stats
