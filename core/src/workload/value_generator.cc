// Value generators of the schema design (value_generator.h).
#include "workload/value_generator.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace keyscope::workload {

namespace {

constexpr int64_t kMaxZipfRanks = 10000000;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> integerArg(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(v);
}

std::optional<double> numberArg(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Splits "a, "b,c", d" at top-level commas; quoted items lose their quotes.
Result<std::vector<std::string>> splitArgs(std::string_view args) {
  std::vector<std::string> out;
  std::string item;
  bool quoted = false, wasQuoted = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (quoted) {
      if (c == '"') quoted = false;
      else item += c;
    } else if (c == '"') {
      if (!std::string(trim(item)).empty()) return Status::invalidArgument("a quote inside a value");
      item.clear();
      quoted = wasQuoted = true;
    } else if (c == ',') {
      out.push_back(wasQuoted ? item : std::string(trim(item)));
      item.clear();
      wasQuoted = false;
    } else if (!wasQuoted || c != ' ') {
      if (wasQuoted) return Status::invalidArgument("text after a quoted value");
      item += c;
    }
  }
  if (quoted) return Status::invalidArgument("an unclosed quote");
  out.push_back(wasQuoted ? item : std::string(trim(item)));
  return out;
}

std::string quotedIfNeeded(const std::string& v) {
  return v.find_first_of(", ()\"") == std::string::npos && !v.empty() ? v : "\"" + v + "\"";
}

// Two's complement bits of a signed width-byte integer, as a signed value of that width.
int64_t signedFromBits(uint64_t bits, size_t width) {
  if (width >= 8) return static_cast<int64_t>(bits);
  const uint64_t mask = (uint64_t{1} << (8 * width)) - 1;
  const uint64_t v = bits & mask;
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  return static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign);
}

// 16 lowercase hex digits.
std::string hex64(uint64_t bits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, bits >>= 4) s[static_cast<size_t>(i)] = kDigits[bits & 15];
  return s;
}

// The text a number becomes in a text component: "user0042".
std::string label(const KeyComponent& c, const Drawn& d, int64_t maxNumber) {
  switch (d.kind) {
    case Drawn::Kind::kText: return d.text;
    case Drawn::Kind::kBits: return hex64(d.bits);
    case Drawn::Kind::kNumber: break;
  }
  if (d.number < 0) return c.name + std::to_string(d.number);
  return entityName(c.name, static_cast<uint64_t>(d.number), static_cast<uint64_t>(std::max<int64_t>(maxNumber, 0)) + 1);
}

Result<int64_t> asInteger(const Drawn& d) {
  if (d.kind == Drawn::Kind::kNumber) return d.number;
  if (d.kind == Drawn::Kind::kBits) return static_cast<int64_t>(d.bits);
  if (std::optional<int64_t> v = integerArg(d.text)) return *v;
  return Status::invalidArgument("'" + d.text + "' is not an integer");
}

}  // namespace

Result<ValueGenerator> ValueGenerator::parse(std::string_view spec) {
  std::string_view s = trim(spec);
  const size_t open = s.find('(');
  const std::string name(trim(s.substr(0, open)));
  std::vector<std::string> args;
  if (open != std::string_view::npos) {
    if (s.back() != ')') return Status::invalidArgument("'" + std::string(s) + "': a ')' must end it");
    Result<std::vector<std::string>> split = splitArgs(s.substr(open + 1, s.size() - open - 2));
    if (!split) return Status::invalidArgument("'" + std::string(s) + "': " + split.status().message());
    args = *split;
  }
  ValueGenerator g;
  auto noArgs = [&](Kind kind) -> Result<ValueGenerator> {
    if (open != std::string_view::npos) return Status::invalidArgument(name + " takes no arguments");
    g.m_kind = kind;
    return g;
  };
  if (name == "now") return noArgs(Kind::kNow);
  if (name == "seq") return noArgs(Kind::kSeq);
  if (name == "client") return noArgs(Kind::kClient);
  if (name == "step") return noArgs(Kind::kStep);
  if (name == "random") return noArgs(Kind::kRandom);
  if (name == "uniform") {
    std::optional<int64_t> lo = args.size() == 2 ? integerArg(args[0]) : std::nullopt;
    std::optional<int64_t> hi = args.size() == 2 ? integerArg(args[1]) : std::nullopt;
    if (!lo || !hi) return Status::invalidArgument("uniform(LO, HI) takes two integers");
    if (*lo > *hi) return Status::invalidArgument("uniform(LO, HI): LO is above HI");
    g.m_kind = Kind::kUniform;
    g.m_low = *lo;
    g.m_high = *hi;
    return g;
  }
  if (name == "zipf") {
    std::optional<int64_t> n = !args.empty() && args.size() <= 2 ? integerArg(args[0]) : std::nullopt;
    if (!n) return Status::invalidArgument("zipf(N[, S]) takes a count and an optional exponent");
    if (*n < 1 || *n > kMaxZipfRanks) return Status::invalidArgument("zipf(N[, S]): N must be 1 to 10,000,000");
    if (args.size() == 2) {
      std::optional<double> e = numberArg(args[1]);
      if (!e || !(*e > 0 && *e <= 10)) return Status::invalidArgument("zipf(N[, S]): S must be above 0, at most 10");
      g.m_exponent = *e;
    }
    g.m_kind = Kind::kZipf;
    g.m_low = 0;
    g.m_high = *n - 1;
    g.m_zipf = std::make_shared<const ZipfTable>(static_cast<uint64_t>(*n), g.m_exponent);
    return g;
  }
  if (name == "choice") {
    if (args.empty() || (args.size() == 1 && args[0].empty()))
      return Status::invalidArgument("choice(A, B, ...) needs at least one value");
    g.m_kind = Kind::kChoice;
    g.m_choices = args;
    return g;
  }
  return Status::invalidArgument("unknown generator '" + name +
                                 "' (now, seq, client, step, uniform(LO, HI), zipf(N[, S]), random, choice(A, ...))");
}

ValueGenerator ValueGenerator::defaultFor(const KeyComponent& c, uint64_t entities) {
  ValueGenerator g;
  const int64_t top = static_cast<int64_t>(entities) - 1;
  auto uniform = [&](int64_t hi) {
    g.m_kind = Kind::kUniform;
    g.m_low = 0;
    g.m_high = std::min(top, hi);
  };
  switch (c.type) {
    case ComponentType::kReverseTimestamp: g.m_kind = Kind::kNow; break;
    case ComponentType::kInt64:
    case ComponentType::kUInt64:
      g.m_kind = c.name == "ts" || c.name == "time" || c.name == "timestamp" || c.name == "t" ? Kind::kNow : Kind::kSeq;
      break;
    case ComponentType::kInt8: uniform(127); break;
    case ComponentType::kUInt8: uniform(255); break;
    case ComponentType::kInt16: uniform(32767); break;
    case ComponentType::kUInt16: uniform(65535); break;
    case ComponentType::kBool: uniform(1); break;
    case ComponentType::kFixedBytes:
    case ComponentType::kFloat32:
    case ComponentType::kFloat64:
    case ComponentType::kQuadkey: g.m_kind = Kind::kRandom; break;
    default: uniform(std::numeric_limits<int64_t>::max()); break;
  }
  return g;
}

Drawn ValueGenerator::draw(const KeyContext& ctx, Rng& rng) const {
  Drawn d;
  switch (m_kind) {
    case Kind::kNow: d.number = ctx.nowMillis; break;
    case Kind::kSeq: d.number = static_cast<int64_t>(ctx.event); break;
    case Kind::kClient: d.number = ctx.client; break;
    case Kind::kStep: d.number = static_cast<int64_t>(ctx.step); break;
    case Kind::kUniform: {
      const uint64_t span = static_cast<uint64_t>(m_high) - static_cast<uint64_t>(m_low) + 1;  // 0: all of int64
      d.number = span == 0 ? static_cast<int64_t>(rng.next())
                           : static_cast<int64_t>(static_cast<uint64_t>(m_low) + rng.below(span));
      break;
    }
    case Kind::kZipf: d.number = static_cast<int64_t>(m_zipf->sample(rng)); break;
    case Kind::kRandom:
      d.kind = Drawn::Kind::kBits;
      d.bits = rng.next();
      break;
    case Kind::kChoice:
      d.kind = Drawn::Kind::kText;
      d.text = m_choices[rng.below(m_choices.size())];
      break;
  }
  return d;
}

std::optional<std::pair<int64_t, int64_t>> ValueGenerator::range(const RunPlan& plan) const {
  switch (m_kind) {
    case Kind::kNow: return std::pair{plan.startMillis, plan.endMillis};
    case Kind::kSeq: return std::pair<int64_t, int64_t>{0, static_cast<int64_t>(plan.puts > 0 ? plan.puts - 1 : 0)};
    case Kind::kClient: return std::pair<int64_t, int64_t>{0, plan.clients - 1};
    case Kind::kStep: {
      const uint64_t steps = (plan.puts + plan.clients - 1) / plan.clients;
      return std::pair<int64_t, int64_t>{0, static_cast<int64_t>(steps > 0 ? steps - 1 : 0)};
    }
    case Kind::kUniform:
    case Kind::kZipf: return std::pair{m_low, m_high};
    case Kind::kRandom:
    case Kind::kChoice: break;
  }
  return std::nullopt;
}

std::string ValueGenerator::text() const {
  switch (m_kind) {
    case Kind::kNow: return "now";
    case Kind::kSeq: return "seq";
    case Kind::kClient: return "client";
    case Kind::kStep: return "step";
    case Kind::kRandom: return "random";
    case Kind::kUniform: return "uniform(" + std::to_string(m_low) + ", " + std::to_string(m_high) + ")";
    case Kind::kZipf: {
      char exponent[32];
      std::snprintf(exponent, sizeof exponent, "%g", m_exponent);
      return "zipf(" + std::to_string(m_high + 1) + ", " + exponent + ")";
    }
    case Kind::kChoice: {
      std::string s = "choice(";
      for (size_t i = 0; i < m_choices.size(); ++i) s += (i ? ", " : "") + quotedIfNeeded(m_choices[i]);
      return s + ")";
    }
  }
  return "seq";
}

Result<ComponentValue> toComponentValue(const KeyComponent& c, const Drawn& d, int64_t maxNumber) {
  switch (c.type) {
    case ComponentType::kInt8:
    case ComponentType::kInt16:
    case ComponentType::kInt32:
    case ComponentType::kInt64:
      if (d.kind == Drawn::Kind::kBits) return ComponentValue{signedFromBits(d.bits, *c.fixedSize())};
      [[fallthrough]];
    case ComponentType::kReverseTimestamp: {
      Result<int64_t> v = asInteger(d);
      if (!v) return v.status();
      return ComponentValue{*v};
    }
    case ComponentType::kUInt8:
    case ComponentType::kUInt16:
    case ComponentType::kUInt32:
    case ComponentType::kUInt64: {
      if (d.kind == Drawn::Kind::kBits) {
        const size_t w = *c.fixedSize();
        return ComponentValue{w >= 8 ? d.bits : d.bits & ((uint64_t{1} << (8 * w)) - 1)};
      }
      Result<int64_t> v = asInteger(d);
      if (!v) return v.status();
      if (*v < 0) return Status::invalidArgument(std::to_string(*v) + " is negative");
      return ComponentValue{static_cast<uint64_t>(*v)};
    }
    case ComponentType::kFloat32:
    case ComponentType::kFloat64:
      if (d.kind == Drawn::Kind::kBits) return ComponentValue{static_cast<double>(d.bits >> 11) * 0x1.0p-53};
      if (d.kind == Drawn::Kind::kNumber) return ComponentValue{static_cast<double>(d.number)};
      if (std::optional<double> v = numberArg(d.text)) return ComponentValue{*v};
      return Status::invalidArgument("'" + d.text + "' is not a number");
    case ComponentType::kBool:
      if (d.kind == Drawn::Kind::kText) {
        if (d.text == "true") return ComponentValue{true};
        if (d.text == "false") return ComponentValue{false};
        return Status::invalidArgument("'" + d.text + "' is not true or false");
      }
      return ComponentValue{(d.kind == Drawn::Kind::kBits ? d.bits : static_cast<uint64_t>(d.number)) % 2 != 0};
    case ComponentType::kUtf8:
    case ComponentType::kBytes: return ComponentValue{label(c, d, maxNumber)};
    case ComponentType::kReverseDomain:
      return ComponentValue{d.kind == Drawn::Kind::kText ? d.text : label(c, d, maxNumber) + ".example.com"};
    case ComponentType::kFixedBytes: {
      if (d.kind == Drawn::Kind::kText) return ComponentValue{d.text};
      // The number's (or the bits') low bytes, big-endian; past 8 bytes, more bits drawn from them.
      uint64_t word = d.kind == Drawn::Kind::kBits ? d.bits : static_cast<uint64_t>(d.number);
      Rng more(word);
      std::string out(c.width, '\0');
      for (size_t fromEnd = 0; fromEnd < c.width; ++fromEnd) {
        if (fromEnd > 0 && fromEnd % 8 == 0) word = more.next();
        out[c.width - 1 - fromEnd] = static_cast<char>((word >> (8 * (fromEnd % 8))) & 0xff);
      }
      return ComponentValue{out};
    }
    case ComponentType::kMd5: {
      const std::string input = label(c, d, maxNumber);
      return ComponentValue{md5Prefix(c, input)};
    }
    case ComponentType::kQuadkey: {
      if (d.kind == Drawn::Kind::kText) return Status::invalidArgument("a quadkey takes a number, not text");
      const uint64_t v = d.kind == Drawn::Kind::kBits ? d.bits : static_cast<uint64_t>(d.number);
      return ComponentValue{Tile{16, static_cast<uint32_t>(v & 0xffff), static_cast<uint32_t>((v >> 16) & 0xffff)}};
    }
    case ComponentType::kSalt: break;
  }
  return Status::invalidArgument("a derived component takes no generator");
}

}  // namespace keyscope::workload
