// The key-design advisor and the text of `keyscope-cli key explain`.
#include "keyscope/key_advisor.h"

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"
#include "keyscope/key_order.h"

namespace keyscope {

namespace {

// Thresholds. Every cell stores its full row key, so key bytes are paid once
// per cell, not once per row.
constexpr size_t kOversizedComponentBytes = 16;  // beyond a UUID or an md5
constexpr size_t kOversizedKeyBytes = 64;
constexpr size_t kMinSamplesForTrend = 8;
constexpr double kMonotonicShare = 0.9;  // share of consecutive pairs moving one way
constexpr uint32_t kLargeSaltFanOut = 32;

std::vector<std::string> nameWords(const std::string& name) {
  std::vector<std::string> words;
  std::string cur;
  for (size_t i = 0; i < name.size(); ++i) {
    char ch = name[i];
    bool upper = ch >= 'A' && ch <= 'Z';
    if (ch == '_' || (upper && !cur.empty())) {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
      if (ch == '_') continue;
    }
    cur.push_back(static_cast<char>(upper ? ch - 'A' + 'a' : ch));
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

bool nameHasWord(const std::string& name, const std::set<std::string>& words) {
  for (const auto& w : nameWords(name))
    if (words.count(w)) return true;
  return false;
}

// Names that say "a point in time": monotonic when written as time goes by.
bool nameSuggestsTime(const std::string& name) {
  static const std::set<std::string> words = {"ts",   "time",   "timestamp", "date", "epoch", "millis", "ms",
                                              "hour", "minute", "day",       "when", "nanos", "created"};
  return nameHasWord(name, words);
}

// Names that say "the next number": monotonic when they are integers. ("id"
// alone is not here: user ids and UUIDs are not sequences.)
bool nameSuggestsSequence(const std::string& name) {
  static const std::set<std::string> words = {"seq", "sequence", "counter", "serial", "autoincrement", "txid", "tick"};
  return nameHasWord(name, words);
}

bool isIntegral(ComponentType t) {
  switch (t) {
    case ComponentType::kInt16:
    case ComponentType::kInt32:
    case ComponentType::kInt64:
    case ComponentType::kUInt16:
    case ComponentType::kUInt32:
    case ComponentType::kUInt64: return true;
    default: return false;
  }
}

bool isDecimalText(const std::string& s) {
  if (s.empty() || s.size() > 20) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

std::string percent(double share) { return std::to_string(static_cast<int>(share * 100.0 + 0.5)) + "%"; }

struct SampleView {
  std::vector<DecodedKey> decoded;
  size_t undecodable = 0;
};

SampleView decodeSamples(const KeySchema& schema, std::span<const Bytes> samples) {
  SampleView view;
  for (const auto& key : samples) {
    DecodedKey d = decodeKey(schema, key);
    if (!d.ok()) ++view.undecodable;
    if (!d.values.empty()) view.decoded.push_back(std::move(d));
  }
  return view;
}

// Share of consecutive samples whose lead component's bytes rise (or fall).
std::optional<std::pair<double, bool>> leadTrend(std::span<const Bytes> samples, const SampleView& view) {
  if (view.decoded.size() < kMinSamplesForTrend || view.decoded.size() != samples.size()) return std::nullopt;
  size_t up = 0, down = 0;
  for (size_t i = 1; i < samples.size(); ++i) {
    auto [b0, e0] = view.decoded[i - 1].spans.at(0);
    auto [b1, e1] = view.decoded[i].spans.at(0);
    int cmp = samples[i - 1].compare(b0, e0 - b0, samples[i], b1, e1 - b1);
    up += cmp < 0;
    down += cmp > 0;
  }
  double pairs = static_cast<double>(samples.size() - 1);
  if (up >= down) return std::make_pair(static_cast<double>(up) / pairs, true);
  return std::make_pair(static_cast<double>(down) / pairs, false);
}

void adviseMonotonicLead(const KeySchema& schema, std::span<const Bytes> samples, const SampleView& view,
                         std::vector<Advice>& out) {
  if (schema.size() == 0) return;
  // A salt or hash lead needs no exemption: its bytes do not follow time, and
  // neither its type nor its samples trip the checks below.
  const KeyComponent& lead = schema[0];
  if (auto trend = leadTrend(samples, view)) {
    if (trend->first >= kMonotonicShare)
      out.push_back({"monotonic-lead", AdviceSeverity::kWarning, 0,
                     "The lead component '" + lead.name + "' " + (trend->second ? "rises" : "falls") + " in " +
                         percent(trend->first) + " of consecutive sample keys: every write lands on the " +
                         (trend->second ? "last" : "first") +
                         " region, so one server takes the whole load. Salt or hash the lead, or put another "
                         "field (metric, user) before it."});
    return;  // the samples decide
  }
  if (lead.type == ComponentType::kReverseTimestamp) {
    out.push_back({"monotonic-lead", AdviceSeverity::kWarning, 0,
                   "The lead component '" + lead.name +
                       "' is a reverse timestamp: new keys always sort first, so every write lands on the first "
                       "region. Put the entity (user, metric) before it."});
  } else if ((isIntegral(lead.type) && (nameSuggestsTime(lead.name) || nameSuggestsSequence(lead.name))) ||
             (lead.type == ComponentType::kUtf8 && nameSuggestsTime(lead.name))) {
    out.push_back({"monotonic-lead", AdviceSeverity::kWarning, 0,
                   "The lead component '" + lead.name + "' looks like a timestamp or sequence: if it grows with "
                       "time, every write lands on the last region and one server takes the whole load. Salt or "
                       "hash it, or lead with another field (metric|timestamp, as OpenTSDB does)."});
  }
}

void adviseNumbersAsStrings(const KeySchema& schema, const SampleView& view, std::vector<Advice>& out) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& c = schema[i];
    if (c.type != ComponentType::kUtf8 && c.type != ComponentType::kBytes) continue;
    size_t seen = 0, numeric = 0, totalLength = 0;
    for (const auto& d : view.decoded) {
      if (d.values.size() <= i) continue;
      const auto& s = std::get<std::string>(d.values[i]);
      ++seen;
      totalLength += s.size();
      numeric += isDecimalText(s);
    }
    if (seen > 0 && numeric == seen) {
      out.push_back({"number-as-string", AdviceSeverity::kWarning, i,
                     "'" + c.name + "' holds decimal numbers as text (" +
                         std::to_string((totalLength + seen / 2) / seen) +
                         " characters on average, plus the terminator): an i64/u64 takes 8 bytes, and as text "
                         "\"10\" sorts before \"9\". Store it as a binary integer."});
    } else if (seen == 0 && (nameSuggestsTime(c.name) || nameSuggestsSequence(c.name))) {
      out.push_back({"number-as-string", AdviceSeverity::kInfo, i,
                     "'" + c.name + "' sounds numeric but is " + c.typeText() +
                         ": if it holds numbers, an 8-byte i64 is shorter than its 10+ decimal characters and "
                         "sorts by value (as text \"10\" sorts before \"9\")."});
    }
  }
}

void adviseSizes(const KeySchema& schema, const SampleView& view, std::vector<Advice>& out) {
  size_t minKey = 0;
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& c = schema[i];
    auto fixed = c.fixedSize();
    minKey += fixed ? *fixed : (c.encoding == Encoding::kSorted ? 2 : 0);
    if (fixed && *fixed > kOversizedComponentBytes && c.type != ComponentType::kMd5)
      out.push_back({"oversized", AdviceSeverity::kWarning, i,
                     "'" + c.name + "' takes " + std::to_string(*fixed) +
                         " bytes in every key, and every cell repeats its row key: keep fixed parts to 16 bytes "
                         "or less (a hash prefix of 4-8 bytes spreads as well as a full digest)."});
    if (c.type == ComponentType::kMd5 && c.width == 16 && i == 0)
      out.push_back({"oversized", AdviceSeverity::kInfo, i,
                     "'" + c.name + "' keeps the whole 16-byte md5: the first 4-8 bytes spread writes just as "
                         "evenly and cost every cell less."});
  }
  if (minKey > kOversizedKeyBytes)
    out.push_back({"oversized", AdviceSeverity::kWarning, std::nullopt,
                   "Every key takes at least " + std::to_string(minKey) +
                       " bytes; each cell stores its row key again, so long keys cost storage and index memory "
                       "many times over."});
  if (!view.decoded.empty()) {
    size_t total = 0;
    for (const auto& d : view.decoded) total += d.spans.empty() ? 0 : d.spans.back().second;
    size_t avg = total / view.decoded.size();
    if (avg > kOversizedKeyBytes && minKey <= kOversizedKeyBytes)
      out.push_back({"oversized", AdviceSeverity::kWarning, std::nullopt,
                     "Sample keys average " + std::to_string(avg) +
                         " bytes; each cell stores its row key again, so long keys cost storage and index memory "
                         "many times over."});
  }
}

std::string fieldList(const KeySchema& schema, const KeyComponent& c) {
  std::string s;
  for (size_t k = 0; k < c.sources.size(); ++k) s += (k ? ", " : "") + schema[c.sources[k]].name;
  return s;
}

void adviseFanOut(const KeySchema& schema, std::vector<Advice>& out) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& c = schema[i];
    if (c.type == ComponentType::kSalt) {
      out.push_back({"salt-fan-out", c.buckets > kLargeSaltFanOut ? AdviceSeverity::kWarning : AdviceSeverity::kInfo, i,
                     "'" + c.name + "' salts the key over " + std::to_string(c.buckets) +
                         " buckets: writes spread, but a range scan over " + fieldList(schema, c) +
                         " becomes " + std::to_string(c.buckets) + " scans, one per bucket, merged by the client." +
                         (c.buckets > kLargeSaltFanOut ? " That many buckets make every scan expensive." : "")});
    } else if (c.type == ComponentType::kMd5 && i == 0) {
      std::string what = c.sources.empty() ? "its input" : fieldList(schema, c);
      out.push_back({"salt-fan-out", AdviceSeverity::kInfo, i,
                     "'" + c.name + "' leads with a hash of " + what +
                         ": writes spread evenly, but no range scan over " + what +
                         " is possible any more; only exact gets and full scans."});
    }
  }
}

std::string layoutTable(const KeySchema& schema) {
  std::vector<std::array<std::string, 6>> rows;
  rows.push_back({"#", "component", "type", "order", "layout", "offset, size"});
  bool knownOffset = true;
  size_t fixedOffset = 0;
  for (size_t i = 0; i < schema.size(); ++i) {
    const auto& c = schema[i];
    std::string type = schema.typeText(i);
    auto fixed = c.fixedSize();
    std::string at = knownOffset ? std::to_string(fixedOffset) : "after " + schema[i - 1].name;
    std::string size = fixed ? std::to_string(*fixed) + (*fixed == 1 ? " byte" : " bytes")
                             : (c.encoding == Encoding::kSorted ? "variable, ends 00 01" : "variable, to the end");
    rows.push_back({std::to_string(i), c.name, type, c.order == SortOrder::kDescending ? "desc" : "asc",
                    c.encoding == Encoding::kHBaseBytes ? "hbase Bytes.toBytes" : "sorted", at + ", " + size});
    if (fixed && knownOffset) fixedOffset += *fixed;
    else knownOffset = false;
  }
  std::array<size_t, 6> widths{};
  for (const auto& r : rows)
    for (size_t k = 0; k < r.size(); ++k) widths[k] = std::max(widths[k], r[k].size());
  std::string out;
  for (const auto& r : rows) {
    std::string line = " ";
    for (size_t k = 0; k < r.size(); ++k) line += " " + r[k] + std::string(widths[k] - r[k].size(), ' ') + " ";
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::vector<Advice> adviseKeyDesign(const KeySchema& schema, std::span<const Bytes> samples) {
  std::vector<Advice> out;
  SampleView view = decodeSamples(schema, samples);
  adviseMonotonicLead(schema, samples, view, out);
  for (const auto& brk : checkByteOrder(schema).breaks)
    out.push_back({"byte-order", AdviceSeverity::kWarning, brk.component,
                   "'" + schema[brk.component].name + "': " + brk.explanation + ". Drop 'hbase' to use the sorted encoding, "
                       "or keep the values non-negative."});
  adviseNumbersAsStrings(schema, view, out);
  adviseSizes(schema, view, out);
  adviseFanOut(schema, out);
  if (view.undecodable > 0)
    out.push_back({"samples", AdviceSeverity::kWarning, std::nullopt,
                   std::to_string(view.undecodable) + " of " + std::to_string(samples.size()) +
                       " sample keys do not fit the schema (see `keyscope-cli key decode`)."});
  return out;
}

std::string explainKeySchema(const KeySchema& schema, std::span<const Bytes> samples) {
  std::ostringstream out;
  out << "schema: " << schema.toString() << "\n\nlayout:\n" << layoutTable(schema);
  size_t minKey = 0;
  bool variable = false;
  for (const auto& c : schema.components()) {
    if (auto f = c.fixedSize()) minKey += *f;
    else {
      variable = true;
      if (c.encoding == Encoding::kSorted) minKey += 2;
    }
  }
  out << "key size: " << (variable ? "at least " : "exactly ") << minKey << " bytes\n\n";

  ByteOrderReport order = checkByteOrder(schema);
  if (order.preservesOrder) {
    out << "byte order: preserves value order\n";
  } else {
    for (const auto& brk : order.breaks) {
      const auto& c = schema[brk.component];
      out << "byte order: BROKEN by '" << c.name << "' (" << c.typeText() << " hbase): "
          << valueToJson(c, brk.smaller) << " < " << valueToJson(c, brk.larger) << " but "
          << toHex(brk.smallerBytes) << " sorts after " << toHex(brk.largerBytes) << ": " << brk.explanation
          << "\n";
    }
  }
  std::vector<Advice> advice = adviseKeyDesign(schema, samples);
  out << "\nadvice:";
  if (advice.empty()) out << " none\n";
  else out << "\n";
  for (const auto& a : advice) {
    out << "  " << (a.severity == AdviceSeverity::kWarning ? "warning" : "info") << " [" << a.code << "]";
    if (a.component) out << " " << schema[*a.component].name;
    out << ": " << a.message << "\n";
  }
  return out.str();
}

}  // namespace keyscope
