// Filters to and from JSON (see filter_json.h and docs/FILTERS.md), on
// nlohmann::json; its exceptions stay inside this file.
#include "filter/filter_json.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "filter/cell_filters.h"
#include "filter/column_filters.h"
#include "filter/compare_filters.h"
#include "filter/filter_factory.h"
#include "filter/filter_list.h"
#include "filter/row_filters.h"
#include "filter/value_filters.h"
#include "filter/wrapper_filters.h"
#include "utf8.h"

namespace keyscope {

namespace {

using nlohmann::json;
using filter::ByteComparator;
using Built = Result<std::unique_ptr<Filter>>;

// As the filter language's: deeper is certainly a mistake, and the cap bounds
// every recursion (ours, and nlohmann's when it destroys the tree).
constexpr int kMaxDepth = 64;
constexpr size_t kMaxLength = 1024 * 1024;

std::string shortDump(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// Bracket nesting of JSON text outside strings, to refuse absurd depth before parsing.
int jsonNesting(std::string_view text) {
  int depth = 0, maxDepth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      maxDepth = std::max(maxDepth, ++depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return maxDepth;
}

// Reads one filter object; nested filters get a Reader of their own, so each
// tracks the fields of its own object.
class Reader {
 public:
  Built filter(const json& j, const std::string& path, int depth) {
    if (depth > kMaxDepth) return fail(path, "filter nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (j.is_string()) {  // the filter language, anywhere a filter goes
      auto f = parseFilter(j.get<std::string>());
      if (!f) return fail(path, f.status().message());
      return f->get()->clone();
    }
    if (!j.is_object()) return fail(path, "expected a filter object or filter-language string, got " + shortDump(j));
    auto type = j.find("type");
    if (type == j.end() || !type->is_string()) return fail(path, "expected a \"type\" naming the filter");
    const std::string name = type->get<std::string>();
    m_fieldsSeen = {"type"};
    auto built = byType(name, j, path, depth);
    if (!built) return built;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (m_fieldsSeen.count(it.key()) == 0) return fail(join(path, it.key()), "unknown field for " + name);
    }
    return built;
  }

 private:
  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static Status fail(const std::string& path, const std::string& what) {
    return Status::invalidArgument((path.empty() ? std::string("filter") : path) + ": " + what);
  }

  // The field `key` of `j`, or null json when absent; marks it as known.
  const json* field(const json& j, const char* key) {
    m_fieldsSeen.insert(key);
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }

  Result<Bytes> bytes(const json& j, const std::string& path) {
    if (j.is_string()) return j.get<std::string>();
    if (j.is_object() && j.size() == 1) {
      if (auto h = j.find("hex"); h != j.end()) {
        size_t at = 0;
        auto b = h->is_string() ? fromHex(h->get<std::string>(), &at) : std::nullopt;
        if (!b) return fail(path + ".hex", "expected an even number of hex digits, got " + shortDump(*h));
        return *b;
      }
      for (int width : {8, 4}) {
        auto n = j.find(width == 8 ? "long" : "int");
        if (n == j.end()) continue;
        int64_t v = 0;
        const int64_t lo = width == 8 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
        const int64_t hi = width == 8 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int32_t>::max();
        if (!n->is_number_integer()) {
          return fail(path, std::string("expected an integer for \"") + (width == 8 ? "long" : "int") + "\", got " +
                                shortDump(*n));
        }
        const bool tooBig = n->is_number_unsigned() && n->get<uint64_t>() > static_cast<uint64_t>(hi);
        if (!tooBig) v = n->get<int64_t>();
        if (tooBig || v < lo || v > hi) {
          return fail(path, shortDump(*n) + " is out of range for a " + std::to_string(width * 8) + "-bit int");
        }
        const auto u = static_cast<uint64_t>(v);
        Bytes out(static_cast<size_t>(width), '\0');
        for (int i = 0; i < width; ++i) {
          out[static_cast<size_t>(i)] = static_cast<char>((u >> (8 * (width - 1 - i))) & 0xFF);
        }
        return out;
      }
    }
    return fail(path, "expected bytes: a string, {\"hex\":\"00ff\"}, {\"long\":N} or {\"int\":N}; got " + shortDump(j));
  }

  Result<Bytes> requiredBytes(const json& j, const std::string& path, const char* key) {
    const json* v = field(j, key);
    if (v == nullptr) return fail(join(path, key), "missing");
    return bytes(*v, join(path, key));
  }

  Result<bool> optionalBool(const json& j, const std::string& path, const char* key, bool fallback) {
    const json* v = field(j, key);
    if (v == nullptr) return fallback;
    if (!v->is_boolean()) return fail(join(path, key), "expected true or false, got " + shortDump(*v));
    return v->get<bool>();
  }

  Result<int64_t> integer(const json& j, const std::string& path, const char* key, int64_t lo, int64_t hi) {
    const json* v = field(j, key);
    if (v == nullptr) return fail(join(path, key), "missing");
    if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(hi)) ||
        v->get<int64_t>() < lo || v->get<int64_t>() > hi) {
      return fail(join(path, key), "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                       "], got " + shortDump(*v));
    }
    return v->get<int64_t>();
  }

  Result<CompareOp> op(const json& j, const std::string& path) {
    const json* v = field(j, "op");
    const std::string p = join(path, "op");
    if (v == nullptr) return fail(p, "missing");
    auto o = v->is_string() ? compareOpFromString(v->get<std::string>()) : std::nullopt;
    if (!o || *o == CompareOp::kNoOp) {
      return fail(p, "expected LESS, LESS_OR_EQUAL, EQUAL, NOT_EQUAL, GREATER_OR_EQUAL, GREATER or one of "
                     "<, <=, =, !=, >=, >; got " + shortDump(*v));
    }
    return *o;
  }

  Result<ByteComparator> comparator(const json& j, const std::string& path) {
    const json* v = field(j, "comparator");
    const std::string p = join(path, "comparator");
    if (v == nullptr) return fail(p, "missing");
    if (v->is_string()) {
      auto c = ByteComparator::parse(v->get<std::string>());
      if (!c) return fail(p, c.status().message());
      return c;
    }
    if (v->is_object()) {
      for (auto it = v->begin(); it != v->end(); ++it) {
        if (it.key() != "type" && it.key() != "value") return fail(join(p, it.key()), "unknown field for a comparator");
      }
      auto t = v->find("type");
      auto kind = (t != v->end() && t->is_string()) ? ByteComparator::kindFromName(t->get<std::string>()) : std::nullopt;
      if (!kind) return fail(join(p, "type"), "expected binary, binaryprefix, regexstring or substring");
      auto val = v->find("value");
      if (val == v->end()) return fail(join(p, "value"), "missing");
      auto b = bytes(*val, join(p, "value"));
      if (!b) return b.status();
      auto c = ByteComparator::make(*kind, std::move(b).value());
      if (!c) return fail(p, c.status().message());
      return c;
    }
    return fail(p, "expected \"type:value\" or {\"type\":…,\"value\":…}, got " + shortDump(*v));
  }

  // op + comparator, with HBase's parser rule for regexstring/substring when `strict`.
  Status test(const json& j, const std::string& path, bool strict, std::optional<filter::ColumnTest>* out) {
    auto o = op(j, path);
    if (!o) return o.status();
    auto c = comparator(j, path);
    if (!c) return c.status();
    if (strict) {
      Status s = filter::checkOpForComparator(*o, *c);
      if (!s.isOk()) return fail(join(path, "op"), s.message());
    }
    out->emplace(filter::ColumnTest{*o, std::move(c).value()});
    return Status::ok();
  }

  template <typename F>
  Built compareFilter(const json& j, const std::string& path) {
    std::optional<filter::ColumnTest> t;
    if (Status s = test(j, path, true, &t); !s.isOk()) return s;
    return std::unique_ptr<Filter>(std::make_unique<F>(t->op, std::move(t->comparator)));
  }

  template <typename F>
  Built singleColumnValue(const json& j, const std::string& path) {
    auto family = requiredBytes(j, path, "family");
    if (!family) return family.status();
    auto qualifier = requiredBytes(j, path, "qualifier");
    if (!qualifier) return qualifier.status();
    std::optional<filter::ColumnTest> t;
    if (Status s = test(j, path, true, &t); !s.isOk()) return s;
    auto ifMissing = optionalBool(j, path, "filter_if_missing", false);
    if (!ifMissing) return ifMissing.status();
    auto latest = optionalBool(j, path, "latest_version_only", true);
    if (!latest) return latest.status();
    return std::unique_ptr<Filter>(std::make_unique<F>(std::move(family).value(), std::move(qualifier).value(), t->op,
                                                       std::move(t->comparator), *ifMissing, *latest));
  }

  Built byType(const std::string& name, const json& j, const std::string& path, int depth) {
    constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
    constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
    if (name == "PrefixFilter" || name == "ColumnPrefixFilter") {
      auto prefix = requiredBytes(j, path, "prefix");
      if (!prefix) return prefix.status();
      if (name == "PrefixFilter") return std::unique_ptr<Filter>(std::make_unique<filter::PrefixFilter>(*prefix));
      return std::unique_ptr<Filter>(std::make_unique<filter::ColumnPrefixFilter>(*prefix));
    }
    if (name == "MultipleColumnPrefixFilter") {
      const json* list = field(j, "prefixes");
      const std::string p = join(path, "prefixes");
      if (list == nullptr || !list->is_array()) return fail(p, "expected an array of byte strings");
      std::set<Bytes> prefixes;
      for (size_t i = 0; i < list->size(); ++i) {
        const std::string pi = p + "[" + std::to_string(i) + "]";
        auto b = bytes((*list)[i], pi);
        if (!b) return b.status();
        if (!prefixes.insert(*b).second) return fail(pi, "prefixes must be distinct; this one is given twice");
      }
      return std::unique_ptr<Filter>(std::make_unique<filter::MultipleColumnPrefixFilter>(std::move(prefixes)));
    }
    if (name == "RowFilter") return compareFilter<filter::RowFilter>(j, path);
    if (name == "FamilyFilter") return compareFilter<filter::FamilyFilter>(j, path);
    if (name == "QualifierFilter") return compareFilter<filter::QualifierFilter>(j, path);
    if (name == "ValueFilter") return compareFilter<filter::ValueFilter>(j, path);
    if (name == "SingleColumnValueFilter") return singleColumnValue<filter::SingleColumnValueFilter>(j, path);
    if (name == "SingleColumnValueExcludeFilter") {
      return singleColumnValue<filter::SingleColumnValueExcludeFilter>(j, path);
    }
    if (name == "KeyOnlyFilter") {
      auto lenAsVal = optionalBool(j, path, "len_as_val", false);
      if (!lenAsVal) return lenAsVal.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::KeyOnlyFilter>(*lenAsVal));
    }
    if (name == "FirstKeyOnlyFilter") return std::unique_ptr<Filter>(std::make_unique<filter::FirstKeyOnlyFilter>());
    if (name == "PageFilter") {
      auto size = integer(j, path, "page_size", 0, kInt64Max);
      if (!size) return size.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::PageFilter>(*size));
    }
    if (name == "ColumnCountGetFilter") {
      auto limit = integer(j, path, "limit", 0, kInt32Max);
      if (!limit) return limit.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::ColumnCountGetFilter>(static_cast<int32_t>(*limit)));
    }
    if (name == "ColumnPaginationFilter") {
      auto limit = integer(j, path, "limit", 0, kInt32Max);
      if (!limit) return limit.status();
      const auto lim = static_cast<int32_t>(*limit);
      const bool hasColumn = field(j, "column_offset") != nullptr;
      const bool hasOffset = field(j, "offset") != nullptr;
      if (hasColumn == hasOffset) return fail(path, "give exactly one of \"offset\" and \"column_offset\"");
      if (hasColumn) {
        auto column = requiredBytes(j, path, "column_offset");
        if (!column) return column.status();
        return std::unique_ptr<Filter>(std::make_unique<filter::ColumnPaginationFilter>(lim, std::move(column).value()));
      }
      auto offset = integer(j, path, "offset", 0, kInt32Max);
      if (!offset) return offset.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::ColumnPaginationFilter>(lim, static_cast<int32_t>(*offset)));
    }
    if (name == "ColumnRangeFilter") {
      std::optional<Bytes> bounds[2];
      const char* keys[2] = {"min_column", "max_column"};
      for (int i = 0; i < 2; ++i) {
        if (const json* v = field(j, keys[i])) {
          auto b = bytes(*v, join(path, keys[i]));
          if (!b) return b.status();
          if (!b->empty()) bounds[i] = std::move(b).value();  // empty = unbounded, as in the language
        }
      }
      auto minInclusive = optionalBool(j, path, "min_column_inclusive", true);
      if (!minInclusive) return minInclusive.status();
      auto maxInclusive = optionalBool(j, path, "max_column_inclusive", false);
      if (!maxInclusive) return maxInclusive.status();
      return std::unique_ptr<Filter>(
          std::make_unique<filter::ColumnRangeFilter>(bounds[0], *minInclusive, bounds[1], *maxInclusive));
    }
    if (name == "InclusiveStopFilter") {
      auto stop = requiredBytes(j, path, "stop_row");
      if (!stop) return stop.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::InclusiveStopFilter>(*stop));
    }
    if (name == "TimestampsFilter") {
      const json* list = field(j, "timestamps");
      const std::string p = join(path, "timestamps");
      if (list == nullptr || !list->is_array()) return fail(p, "expected an array of timestamps");
      std::vector<int64_t> timestamps;
      for (size_t i = 0; i < list->size(); ++i) {
        const json& t = (*list)[i];
        if (!t.is_number_integer() || (t.is_number_unsigned() && t.get<uint64_t>() > uint64_t(kInt64Max)) ||
            t.get<int64_t>() < 0) {
          return fail(p + "[" + std::to_string(i) + "]", "expected a timestamp >= 0, got " + shortDump(t));
        }
        timestamps.push_back(t.get<int64_t>());
      }
      auto canHint = optionalBool(j, path, "can_hint", false);
      if (!canHint) return canHint.status();
      return std::unique_ptr<Filter>(std::make_unique<filter::TimestampsFilter>(timestamps, *canHint));
    }
    if (name == "DependentColumnFilter") {
      auto family = requiredBytes(j, path, "family");
      if (!family) return family.status();
      auto qualifier = requiredBytes(j, path, "qualifier");
      if (!qualifier) return qualifier.status();
      auto drop = optionalBool(j, path, "drop_dependent_column", false);
      if (!drop) return drop.status();
      const bool hasOp = field(j, "op") != nullptr;
      const bool hasComparator = field(j, "comparator") != nullptr;
      if (hasOp != hasComparator) return fail(path, "give both \"op\" and \"comparator\", or neither");
      std::optional<filter::ColumnTest> t;
      if (hasOp) {
        if (Status s = test(j, path, false, &t); !s.isOk()) return s;
      }
      return std::unique_ptr<Filter>(std::make_unique<filter::DependentColumnFilter>(
          std::move(family).value(), std::move(qualifier).value(), *drop, std::move(t)));
    }
    if (name == "FilterList") {
      const json* opv = field(j, "operator");
      if (opv == nullptr || !opv->is_string() ||
          (*opv != "MUST_PASS_ALL" && *opv != "MUST_PASS_ONE")) {
        return fail(join(path, "operator"), "expected \"MUST_PASS_ALL\" or \"MUST_PASS_ONE\"");
      }
      const json* list = field(j, "filters");
      const std::string p = join(path, "filters");
      if (list == nullptr || !list->is_array() || list->empty()) return fail(p, "expected a non-empty array of filters");
      const auto op = *opv == "MUST_PASS_ALL" ? filter::FilterList::Operator::kMustPassAll
                                              : filter::FilterList::Operator::kMustPassOne;
      std::vector<std::unique_ptr<Filter>> members;
      for (size_t i = 0; i < list->size(); ++i) {
        auto m = Reader().filter((*list)[i], p + "[" + std::to_string(i) + "]", depth + 1);
        if (!m) return m;
        members.push_back(std::move(m).value());
      }
      return std::unique_ptr<Filter>(std::make_unique<filter::FilterList>(op, std::move(members)));
    }
    if (name == "SkipFilter" || name == "WhileMatchFilter") {
      const json* inner = field(j, "filter");
      if (inner == nullptr) return fail(join(path, "filter"), "missing");
      auto f = Reader().filter(*inner, join(path, "filter"), depth + 1);
      if (!f) return f;
      if (name == "SkipFilter") return std::unique_ptr<Filter>(std::make_unique<filter::SkipFilter>(std::move(f).value()));
      return std::unique_ptr<Filter>(std::make_unique<filter::WhileMatchFilter>(std::move(f).value()));
    }
    return fail(join(path, "type"), "unknown filter '" + name + "'");
  }

  std::set<std::string> m_fieldsSeen;
};

// ---- writing ---------------------------------------------------------------

using ojson = nlohmann::ordered_json;

ojson bytesJson(BytesView b) {
  if (!firstInvalidUtf8(b)) return std::string(b);
  return ojson{{"hex", toHex(b)}};
}

ojson comparatorJson(const ByteComparator& c) {
  if (!firstInvalidUtf8(c.value())) return c.spec();
  return ojson{{"type", ByteComparator::kindName(c.kind())}, {"value", bytesJson(c.value())}};
}

ojson toJson(const Filter& f) {
  using namespace filter;
  ojson j;
  auto typed = [&](const char* type) { j["type"] = type; };
  auto compare = [&](const char* type, const CompareFilter& c) {
    typed(type);
    j["op"] = compareOpName(c.op());
    j["comparator"] = comparatorJson(c.comparator());
  };
  auto scv = [&](const char* type, const SingleColumnValueFilter& s) {
    typed(type);
    j["family"] = bytesJson(s.family());
    j["qualifier"] = bytesJson(s.qualifier());
    j["op"] = compareOpName(s.op());
    j["comparator"] = comparatorJson(s.comparator());
    j["filter_if_missing"] = s.filterIfMissing();
    j["latest_version_only"] = s.latestVersionOnly();
  };
  if (auto* p = dynamic_cast<const PrefixFilter*>(&f)) {
    typed("PrefixFilter");
    j["prefix"] = bytesJson(p->prefix());
  } else if (auto* cp = dynamic_cast<const ColumnPrefixFilter*>(&f)) {
    typed("ColumnPrefixFilter");
    j["prefix"] = bytesJson(cp->prefix());
  } else if (auto* mp = dynamic_cast<const MultipleColumnPrefixFilter*>(&f)) {
    typed("MultipleColumnPrefixFilter");
    j["prefixes"] = ojson::array();
    for (const Bytes& b : mp->prefixes()) j["prefixes"].push_back(bytesJson(b));
  } else if (auto* rf = dynamic_cast<const RowFilter*>(&f)) {
    compare("RowFilter", *rf);
  } else if (auto* ff = dynamic_cast<const FamilyFilter*>(&f)) {
    compare("FamilyFilter", *ff);
  } else if (auto* qf = dynamic_cast<const QualifierFilter*>(&f)) {
    compare("QualifierFilter", *qf);
  } else if (auto* vf = dynamic_cast<const ValueFilter*>(&f)) {
    compare("ValueFilter", *vf);
  } else if (auto* sx = dynamic_cast<const SingleColumnValueExcludeFilter*>(&f)) {
    scv("SingleColumnValueExcludeFilter", *sx);
  } else if (auto* s = dynamic_cast<const SingleColumnValueFilter*>(&f)) {
    scv("SingleColumnValueFilter", *s);
  } else if (auto* k = dynamic_cast<const KeyOnlyFilter*>(&f)) {
    typed("KeyOnlyFilter");
    j["len_as_val"] = k->lenAsVal();
  } else if (dynamic_cast<const FirstKeyOnlyFilter*>(&f) != nullptr) {
    typed("FirstKeyOnlyFilter");
  } else if (auto* pg = dynamic_cast<const PageFilter*>(&f)) {
    typed("PageFilter");
    j["page_size"] = pg->pageSize();
  } else if (auto* cc = dynamic_cast<const ColumnCountGetFilter*>(&f)) {
    typed("ColumnCountGetFilter");
    j["limit"] = cc->limit();
  } else if (auto* cpg = dynamic_cast<const ColumnPaginationFilter*>(&f)) {
    typed("ColumnPaginationFilter");
    j["limit"] = cpg->limit();
    if (cpg->columnOffset()) {
      j["column_offset"] = bytesJson(*cpg->columnOffset());
    } else {
      j["offset"] = cpg->offset();
    }
  } else if (auto* cr = dynamic_cast<const ColumnRangeFilter*>(&f)) {
    typed("ColumnRangeFilter");
    j["min_column"] = cr->minColumn() ? bytesJson(*cr->minColumn()) : ojson(nullptr);
    j["min_column_inclusive"] = cr->minInclusive();
    j["max_column"] = cr->maxColumn() ? bytesJson(*cr->maxColumn()) : ojson(nullptr);
    j["max_column_inclusive"] = cr->maxInclusive();
  } else if (auto* is = dynamic_cast<const InclusiveStopFilter*>(&f)) {
    typed("InclusiveStopFilter");
    j["stop_row"] = bytesJson(is->stopRow());
  } else if (auto* ts = dynamic_cast<const TimestampsFilter*>(&f)) {
    typed("TimestampsFilter");
    j["timestamps"] = ojson::array();
    for (int64_t t : ts->timestamps()) j["timestamps"].push_back(t);
    j["can_hint"] = ts->canHint();
  } else if (auto* dc = dynamic_cast<const DependentColumnFilter*>(&f)) {
    typed("DependentColumnFilter");
    j["family"] = bytesJson(dc->family());
    j["qualifier"] = bytesJson(dc->qualifier());
    j["drop_dependent_column"] = dc->dropDependentColumn();
    if (dc->test()) {
      j["op"] = compareOpName(dc->test()->op);
      j["comparator"] = comparatorJson(dc->test()->comparator);
    }
  } else if (auto* fl = dynamic_cast<const FilterList*>(&f)) {
    typed("FilterList");
    j["operator"] = fl->op() == FilterList::Operator::kMustPassAll ? "MUST_PASS_ALL" : "MUST_PASS_ONE";
    j["filters"] = ojson::array();
    for (const auto& m : fl->filters()) j["filters"].push_back(toJson(*m));
  } else if (auto* sk = dynamic_cast<const SkipFilter*>(&f)) {
    typed("SkipFilter");
    j["filter"] = toJson(sk->wrapped());
  } else if (auto* wm = dynamic_cast<const WhileMatchFilter*>(&f)) {
    typed("WhileMatchFilter");
    j["filter"] = toJson(wm->wrapped());
  } else {
    return ojson(f.toString());  // a filter from elsewhere: its filter-language text
  }
  return j;
}

}  // namespace

Result<std::shared_ptr<const Filter>> filterFromJson(std::string_view text) {
  if (text.size() > kMaxLength) {
    return Status::invalidArgument("filter JSON is " + std::to_string(text.size()) + " bytes; the limit is " +
                                   std::to_string(kMaxLength));
  }
  if (jsonNesting(text) > 2 * kMaxDepth + 2) {
    return Status::invalidArgument("filter: nested deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return Status::invalidArgument(std::string("filter: not valid JSON: ") + e.what());
  }
  try {
    Reader reader;
    auto f = reader.filter(j, "", 0);
    if (!f) return f.status();
    return std::shared_ptr<const Filter>(std::move(f).value());
  } catch (const json::exception& e) {  // defensive: every access above is type-checked
    return Status::invalidArgument(std::string("filter: ") + e.what());
  }
}

namespace filter {

std::string filterToJson(const Filter& f) {
  return toJson(f).dump(-1, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace filter

}  // namespace keyscope
