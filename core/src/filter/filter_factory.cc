// The filter language's filters by name (see filter_factory.h).
#include "filter/filter_factory.h"

#include <limits>
#include <set>
#include <string>

#include "filter/cell_filters.h"
#include "filter/column_filters.h"
#include "filter/compare_filters.h"
#include "filter/row_filters.h"
#include "filter/value_filters.h"

namespace keyscope::filter {

namespace {

using Args = std::vector<FilterArg>;
using Built = Result<std::unique_ptr<Filter>>;

// Reads the arguments of one filter; every error names a column.
class ArgReader {
 public:
  ArgReader(std::string_view name, const Args& args, size_t closeColumn)
      : m_name(name), m_args(args), m_closeColumn(closeColumn) {}

  size_t size() const { return m_args.size(); }

  // OK when the count is one of `counts`; otherwise an error quoting `usage`.
  Status expectCount(std::initializer_list<size_t> counts, std::string_view usage) const {
    for (size_t c : counts) {
      if (c == m_args.size()) return Status::ok();
    }
    return failAt(m_closeColumn, std::string(m_name) + " takes " + std::string(usage) + ", got " +
                                     std::to_string(m_args.size()) + " argument" +
                                     (m_args.size() == 1 ? "" : "s"));
  }

  Result<Bytes> bytes(size_t i) const {
    if (m_args[i].kind != FilterArg::Kind::kString) return wrongKind(i, "a quoted string");
    return m_args[i].text;
  }
  Result<int64_t> integer(size_t i, int64_t min, int64_t max) const {
    const FilterArg& a = m_args[i];
    if (a.kind != FilterArg::Kind::kInteger) return wrongKind(i, "an integer");
    if (a.integer < min || a.integer > max) {
      return failAt(a.column, argName(i) + " must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                                  "], got " + std::to_string(a.integer));
    }
    return a.integer;
  }
  Result<bool> boolean(size_t i) const {
    if (m_args[i].kind != FilterArg::Kind::kBool) return wrongKind(i, "true or false");
    return m_args[i].boolean;
  }
  Result<CompareOp> op(size_t i) const {
    if (m_args[i].kind != FilterArg::Kind::kOp) return wrongKind(i, "a comparison operator (<, <=, =, !=, >=, >)");
    return m_args[i].op;
  }
  Result<ByteComparator> comparator(size_t i) const {
    if (m_args[i].kind != FilterArg::Kind::kString) {
      return wrongKind(i, "a quoted comparator such as 'binary:abc'");
    }
    auto c = ByteComparator::parse(m_args[i].text);
    if (!c) return failAt(m_args[i].column, argName(i) + ": " + c.status().message());
    return c;
  }
  // The op and comparator at i, i+1, with the EQUAL/NOT_EQUAL rule when `strict`.
  Status opAndComparator(size_t i, bool strict, CompareOp* op, std::optional<ByteComparator>* comparator) const {
    auto o = this->op(i);
    if (!o) return o.status();
    auto c = this->comparator(i + 1);
    if (!c) return c.status();
    if (strict) {
      Status s = checkOpForComparator(*o, *c);
      if (!s.isOk()) return failAt(m_args[i].column, m_name + ": " + s.message());
    }
    *op = *o;
    comparator->emplace(std::move(c).value());
    return Status::ok();
  }

  Status failAt(size_t column, const std::string& what) const {
    return Status::invalidArgument("column " + std::to_string(column) + ": " + what);
  }

 private:
  std::string argName(size_t i) const { return "argument " + std::to_string(i + 1) + " of " + m_name; }
  Status wrongKind(size_t i, const char* expected) const {
    const FilterArg& a = m_args[i];
    std::string got = a.kind == FilterArg::Kind::kString ? "a quoted string" : "'" + a.text + "'";
    return failAt(a.column, argName(i) + " must be " + expected + ", got " + got);
  }

  std::string m_name;
  const Args& m_args;
  size_t m_closeColumn;
};

#define KS_TRY_ASSIGN(var, expr)     \
  auto var##_r = (expr);             \
  if (!var##_r) return var##_r.status(); \
  auto var = std::move(var##_r).value()
#define KS_TRY(expr)                     \
  do {                                   \
    Status ks_s = (expr);                \
    if (!ks_s.isOk()) return ks_s;       \
  } while (false)

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

Built onePrefix(const ArgReader& r, bool column) {
  KS_TRY(r.expectCount({1}, "1 argument ('prefix')"));
  KS_TRY_ASSIGN(prefix, r.bytes(0));
  if (column) return std::unique_ptr<Filter>(std::make_unique<ColumnPrefixFilter>(std::move(prefix)));
  return std::unique_ptr<Filter>(std::make_unique<PrefixFilter>(std::move(prefix)));
}

template <typename F>
Built compareFilter(const ArgReader& r) {
  KS_TRY(r.expectCount({2}, "2 arguments (op, 'comparator')"));
  CompareOp op{};
  std::optional<ByteComparator> comparator;
  KS_TRY(r.opAndComparator(0, true, &op, &comparator));
  return std::unique_ptr<Filter>(std::make_unique<F>(op, std::move(*comparator)));
}

template <typename F>
Built singleColumnValue(const ArgReader& r) {
  KS_TRY(r.expectCount({4, 6}, "4 or 6 arguments ('family', 'qualifier', op, 'comparator'"
                               "[, filterIfMissing, latestVersionOnly])"));
  KS_TRY_ASSIGN(family, r.bytes(0));
  KS_TRY_ASSIGN(qualifier, r.bytes(1));
  CompareOp op{};
  std::optional<ByteComparator> comparator;
  KS_TRY(r.opAndComparator(2, true, &op, &comparator));
  bool filterIfMissing = false;
  bool latestVersionOnly = true;
  if (r.size() == 6) {
    KS_TRY_ASSIGN(ifMissing, r.boolean(4));
    KS_TRY_ASSIGN(latestOnly, r.boolean(5));
    filterIfMissing = ifMissing;
    latestVersionOnly = latestOnly;
  }
  return std::unique_ptr<Filter>(std::make_unique<F>(std::move(family), std::move(qualifier), op,
                                                     std::move(*comparator), filterIfMissing, latestVersionOnly));
}

Built buildByName(std::string_view name, const ArgReader& r, const Args& args) {
  if (name == "PrefixFilter") return onePrefix(r, false);
  if (name == "ColumnPrefixFilter") return onePrefix(r, true);
  if (name == "MultipleColumnPrefixFilter") {
    std::set<Bytes> prefixes;
    for (size_t i = 0; i < r.size(); ++i) {
      KS_TRY_ASSIGN(prefix, r.bytes(i));
      if (!prefixes.insert(prefix).second) {
        return r.failAt(args[i].column, "MultipleColumnPrefixFilter: prefixes must be distinct; '" +
                                            toStringBinary(prefix) + "' is given twice");
      }
    }
    return std::unique_ptr<Filter>(std::make_unique<MultipleColumnPrefixFilter>(std::move(prefixes)));
  }
  if (name == "RowFilter") return compareFilter<RowFilter>(r);
  if (name == "FamilyFilter") return compareFilter<FamilyFilter>(r);
  if (name == "QualifierFilter") return compareFilter<QualifierFilter>(r);
  if (name == "ValueFilter") return compareFilter<ValueFilter>(r);
  if (name == "SingleColumnValueFilter") return singleColumnValue<SingleColumnValueFilter>(r);
  if (name == "SingleColumnValueExcludeFilter") return singleColumnValue<SingleColumnValueExcludeFilter>(r);
  if (name == "KeyOnlyFilter") {
    KS_TRY(r.expectCount({0, 1}, "0 or 1 argument ([lenAsVal])"));
    bool lenAsVal = false;
    if (r.size() == 1) {
      KS_TRY_ASSIGN(b, r.boolean(0));
      lenAsVal = b;
    }
    return std::unique_ptr<Filter>(std::make_unique<KeyOnlyFilter>(lenAsVal));
  }
  if (name == "FirstKeyOnlyFilter") {
    KS_TRY(r.expectCount({0}, "no arguments"));
    return std::unique_ptr<Filter>(std::make_unique<FirstKeyOnlyFilter>());
  }
  if (name == "PageFilter") {
    KS_TRY(r.expectCount({1}, "1 argument (pageSize)"));
    KS_TRY_ASSIGN(size, r.integer(0, 0, kInt64Max));
    return std::unique_ptr<Filter>(std::make_unique<PageFilter>(size));
  }
  if (name == "ColumnCountGetFilter") {
    KS_TRY(r.expectCount({1}, "1 argument (limit)"));
    KS_TRY_ASSIGN(limit, r.integer(0, 0, kInt32Max));
    return std::unique_ptr<Filter>(std::make_unique<ColumnCountGetFilter>(static_cast<int32_t>(limit)));
  }
  if (name == "ColumnPaginationFilter") {
    KS_TRY(r.expectCount({2}, "2 arguments (limit, offset) or (limit, 'columnOffset')"));
    KS_TRY_ASSIGN(limit, r.integer(0, 0, kInt32Max));
    if (args[1].kind == FilterArg::Kind::kString) {
      return std::unique_ptr<Filter>(
          std::make_unique<ColumnPaginationFilter>(static_cast<int32_t>(limit), args[1].text));
    }
    KS_TRY_ASSIGN(offset, r.integer(1, 0, kInt32Max));
    return std::unique_ptr<Filter>(
        std::make_unique<ColumnPaginationFilter>(static_cast<int32_t>(limit), static_cast<int32_t>(offset)));
  }
  if (name == "ColumnRangeFilter") {
    KS_TRY(r.expectCount({4}, "4 arguments ('minColumn', minInclusive, 'maxColumn', maxInclusive)"));
    KS_TRY_ASSIGN(minColumn, r.bytes(0));
    KS_TRY_ASSIGN(minInclusive, r.boolean(1));
    KS_TRY_ASSIGN(maxColumn, r.bytes(2));
    KS_TRY_ASSIGN(maxInclusive, r.boolean(3));
    std::optional<Bytes> lo, hi;  // HBase's parser reads an empty column as "unbounded"
    if (!minColumn.empty()) lo = std::move(minColumn);
    if (!maxColumn.empty()) hi = std::move(maxColumn);
    return std::unique_ptr<Filter>(std::make_unique<ColumnRangeFilter>(lo, minInclusive, hi, maxInclusive));
  }
  if (name == "InclusiveStopFilter") {
    KS_TRY(r.expectCount({1}, "1 argument ('stopRow')"));
    KS_TRY_ASSIGN(stop, r.bytes(0));
    return std::unique_ptr<Filter>(std::make_unique<InclusiveStopFilter>(std::move(stop)));
  }
  if (name == "TimestampsFilter") {
    std::vector<int64_t> timestamps;
    bool canHint = false;
    for (size_t i = 0; i < r.size(); ++i) {
      if (i + 1 == r.size() && args[i].kind == FilterArg::Kind::kBool) {  // Keyscope: trailing canHint
        canHint = args[i].boolean;
        break;
      }
      KS_TRY_ASSIGN(ts, r.integer(i, 0, kInt64Max));
      timestamps.push_back(ts);
    }
    return std::unique_ptr<Filter>(std::make_unique<TimestampsFilter>(timestamps, canHint));
  }
  if (name == "DependentColumnFilter") {
    KS_TRY(r.expectCount({2, 3, 5}, "2, 3 or 5 arguments ('family', 'qualifier'[, dropDependentColumn"
                                    "[, op, 'comparator']])"));
    KS_TRY_ASSIGN(family, r.bytes(0));
    KS_TRY_ASSIGN(qualifier, r.bytes(1));
    bool drop = false;
    if (r.size() >= 3) {
      KS_TRY_ASSIGN(d, r.boolean(2));
      drop = d;
    }
    std::optional<ColumnTest> test;
    if (r.size() == 5) {
      CompareOp op{};
      std::optional<ByteComparator> comparator;
      // HBase's DependentColumnFilter parser has no EQUAL/NOT_EQUAL rule.
      KS_TRY(r.opAndComparator(3, false, &op, &comparator));
      test = ColumnTest{op, std::move(*comparator)};
    }
    return std::unique_ptr<Filter>(
        std::make_unique<DependentColumnFilter>(std::move(family), std::move(qualifier), drop, std::move(test)));
  }
  return r.failAt(1, "unknown filter '" + std::string(name) + "'");
}

constexpr std::string_view kFilterNames[] = {
    "PrefixFilter",        "ColumnPrefixFilter",      "MultipleColumnPrefixFilter",
    "QualifierFilter",     "ValueFilter",             "RowFilter",
    "FamilyFilter",        "SingleColumnValueFilter", "SingleColumnValueExcludeFilter",
    "KeyOnlyFilter",       "FirstKeyOnlyFilter",      "PageFilter",
    "ColumnCountGetFilter", "ColumnPaginationFilter", "ColumnRangeFilter",
    "InclusiveStopFilter", "TimestampsFilter",        "DependentColumnFilter",
};

}  // namespace

bool isKnownFilterName(std::string_view name) {
  for (std::string_view n : kFilterNames) {
    if (n == name) return true;
  }
  return false;
}

Status checkOpForComparator(CompareOp op, const ByteComparator& comparator) {
  if (comparator.isMatchOnly() && op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
    return Status::invalidArgument(std::string("a ") + ByteComparator::kindName(comparator.kind()) +
                                   ": comparator can only be used with = and != (EQUAL, NOT_EQUAL)");
  }
  return Status::ok();
}

Result<std::unique_ptr<Filter>> buildFilter(std::string_view name, const std::vector<FilterArg>& args,
                                            size_t closeColumn) {
  ArgReader reader(name, args, closeColumn);
  return buildByName(name, reader, args);
}

}  // namespace keyscope::filter
