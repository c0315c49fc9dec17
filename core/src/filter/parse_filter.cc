// parseFilter: HBase's filter language (ParseFilter), by recursive descent.
//
//   expression := orExpr
//   orExpr     := andExpr { "OR" andExpr }
//   andExpr    := unary { "AND" unary }
//   unary      := ("SKIP" | "WHILE") unary | "(" orExpr ")" | filter
//   filter     := Name "(" [ argument { "," argument } ] ")"
//   argument   := 'quoted bytes' ('' is a quote) | integer | true | false
//               | < | <= | = | != | >= | >
//
// Columns in errors are 1-based byte offsets. Depth (parentheses plus SKIP /
// WHILE) and length are capped, so any input is handled with bounded recursion.
#include <charconv>
#include <string>
#include <vector>

#include "filter/filter_factory.h"
#include "filter/filter_list.h"
#include "filter/wrapper_filters.h"
#include "keyscope/filter.h"

namespace keyscope {

namespace {

using filter::FilterArg;

// 64 levels is far beyond any hand-written filter and keeps the recursion
// (a few frames per level) trivially inside any stack.
constexpr int kMaxDepth = 64;
// The shell and batch API take filters inline; 64 KiB is generous for those and
// bounds the work per parse.
constexpr size_t kMaxLength = 64 * 1024;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool isNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// What a printable excerpt of the input at `pos` looks like in an error.
std::string describeAt(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "the end of the filter";
  size_t end = pos;
  if (isNameChar(text[pos])) {
    while (end < text.size() && isNameChar(text[end]) && end - pos < 40) ++end;
  } else {
    end = pos + 1;
  }
  return "'" + toStringBinary(text.substr(pos, end - pos)) + "'";
}

class Parser {
 public:
  explicit Parser(std::string_view text) : m_text(text) {}

  Result<std::unique_ptr<Filter>> parseAll() {
    auto f = parseOr(0);
    if (!f) return f;
    skipSpace();
    if (m_pos < m_text.size()) {
      return fail(m_pos, "expected AND, OR or the end of the filter, got " + describeAt(m_text, m_pos));
    }
    return f;
  }

 private:
  Status fail(size_t pos, const std::string& what) const {
    return Status::invalidArgument("column " + std::to_string(pos + 1) + ": " + what);
  }

  void skipSpace() {
    while (m_pos < m_text.size() && isSpace(m_text[m_pos])) ++m_pos;
  }

  // The keyword at the current position (after spaces), without consuming it.
  bool atKeyword(std::string_view keyword) {
    skipSpace();
    if (m_text.compare(m_pos, keyword.size(), keyword) != 0) return false;
    size_t end = m_pos + keyword.size();
    return end == m_text.size() || !isNameChar(m_text[end]);
  }

  Result<std::unique_ptr<Filter>> parseOr(int depth) {
    return parseChain(depth, "OR", filter::FilterList::Operator::kMustPassOne);
  }

  // A chain of `keyword`-joined operands; a single operand is returned as is,
  // several become one flat list, as HBase's parser builds them.
  Result<std::unique_ptr<Filter>> parseChain(int depth, std::string_view keyword,
                                             filter::FilterList::Operator op) {
    const bool isOr = op == filter::FilterList::Operator::kMustPassOne;
    std::vector<std::unique_ptr<Filter>> operands;
    while (true) {
      auto operand = isOr ? parseChain(depth, "AND", filter::FilterList::Operator::kMustPassAll) : parseUnary(depth);
      if (!operand) return operand;
      operands.push_back(std::move(operand).value());
      if (!atKeyword(keyword)) break;
      m_pos += keyword.size();
    }
    if (operands.size() == 1) return std::move(operands.front());
    return std::unique_ptr<Filter>(std::make_unique<filter::FilterList>(op, std::move(operands)));
  }

  Result<std::unique_ptr<Filter>> parseUnary(int depth) {
    skipSpace();
    const size_t start = m_pos;
    const bool skip = atKeyword("SKIP");
    if (skip || atKeyword("WHILE")) {
      if (depth + 1 > kMaxDepth) return fail(start, "filter nested deeper than " + std::to_string(kMaxDepth) + " levels");
      m_pos += skip ? 4 : 5;
      auto inner = parseUnary(depth + 1);
      if (!inner) return inner;
      if (skip) return std::unique_ptr<Filter>(std::make_unique<filter::SkipFilter>(std::move(inner).value()));
      return std::unique_ptr<Filter>(std::make_unique<filter::WhileMatchFilter>(std::move(inner).value()));
    }
    if (m_pos < m_text.size() && m_text[m_pos] == '(') {
      if (depth + 1 > kMaxDepth) return fail(start, "filter nested deeper than " + std::to_string(kMaxDepth) + " levels");
      ++m_pos;
      auto inner = parseOr(depth + 1);
      if (!inner) return inner;
      skipSpace();
      if (m_pos >= m_text.size() || m_text[m_pos] != ')') {
        return fail(m_pos, "expected ')' to close the '(' at column " + std::to_string(start + 1) +
                               " (or AND, OR), got " + describeAt(m_text, m_pos));
      }
      ++m_pos;
      return inner;
    }
    if (m_pos < m_text.size() && isNameStart(m_text[m_pos])) return parseFilterCall();
    return fail(m_pos, "expected a filter name, '(', SKIP or WHILE, got " + describeAt(m_text, m_pos));
  }

  Result<std::unique_ptr<Filter>> parseFilterCall() {
    const size_t nameStart = m_pos;
    while (m_pos < m_text.size() && isNameChar(m_text[m_pos])) ++m_pos;
    const std::string name(m_text.substr(nameStart, m_pos - nameStart));
    if (name == "AND" || name == "OR") return fail(nameStart, "expected a filter before " + name);
    if (!filter::isKnownFilterName(name)) return fail(nameStart, "unknown filter '" + name + "'");
    skipSpace();
    if (m_pos >= m_text.size() || m_text[m_pos] != '(') {
      return fail(m_pos, "expected '(' after " + name + ", got " + describeAt(m_text, m_pos));
    }
    ++m_pos;
    std::vector<FilterArg> args;
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == ')') {
      ++m_pos;
      return filter::buildFilter(name, args, m_pos);  // m_pos: the 1-based column of ')'
    }
    while (true) {
      skipSpace();
      auto arg = parseArgument(name, args.size());
      if (!arg) return arg.status();
      args.push_back(std::move(arg).value());
      skipSpace();
      if (m_pos < m_text.size() && m_text[m_pos] == ',') {
        ++m_pos;
        continue;
      }
      if (m_pos < m_text.size() && m_text[m_pos] == ')') {
        ++m_pos;
        return filter::buildFilter(name, args, m_pos);  // m_pos: the 1-based column of ')'
      }
      return fail(m_pos, "expected ',' or ')' after argument " + std::to_string(args.size()) + " of " + name +
                             ", got " + describeAt(m_text, m_pos));
    }
  }

  Result<FilterArg> parseArgument(const std::string& name, size_t index) {
    FilterArg arg;
    arg.column = m_pos + 1;
    const std::string what = "argument " + std::to_string(index + 1) + " of " + name;
    if (m_pos >= m_text.size()) return fail(m_pos, "expected " + what + ", got the end of the filter");
    if (m_text[m_pos] == '\'') {
      const size_t open = m_pos++;
      arg.kind = FilterArg::Kind::kString;
      while (true) {
        if (m_pos >= m_text.size()) {
          return fail(open, "unterminated quoted string: no closing ' before the end of the filter");
        }
        char c = m_text[m_pos++];
        if (c == '\'') {
          if (m_pos < m_text.size() && m_text[m_pos] == '\'') {
            arg.text += '\'';
            ++m_pos;
            continue;
          }
          break;
        }
        arg.text += c;
      }
      return arg;
    }
    const size_t start = m_pos;
    while (m_pos < m_text.size() && !isSpace(m_text[m_pos]) && m_text[m_pos] != ',' && m_text[m_pos] != ')') ++m_pos;
    arg.text = std::string(m_text.substr(start, m_pos - start));
    if (arg.text.empty()) return fail(start, "expected " + what + ", got " + describeAt(m_text, start));
    if (equalsIgnoreCase(arg.text, "true") || equalsIgnoreCase(arg.text, "false")) {
      arg.kind = FilterArg::Kind::kBool;
      arg.boolean = equalsIgnoreCase(arg.text, "true");
      return arg;
    }
    if (auto op = compareOpFromString(arg.text); op && *op != CompareOp::kNoOp && arg.text.size() <= 2) {
      arg.kind = FilterArg::Kind::kOp;
      arg.op = *op;
      return arg;
    }
    const bool numeric = arg.text.find_first_not_of("-0123456789") == std::string::npos;
    if (numeric) {
      int64_t v = 0;
      const char* end = arg.text.data() + arg.text.size();
      auto [ptr, ec] = std::from_chars(arg.text.data(), end, v);
      if (ec == std::errc::result_out_of_range) {
        return fail(start, what + ": " + arg.text + " does not fit a 64-bit integer");
      }
      if (ec == std::errc() && ptr == end) {
        arg.kind = FilterArg::Kind::kInteger;
        arg.integer = v;
        return arg;
      }
    }
    return fail(start, "expected " + what + " to be a quoted string, an integer, true, false or a comparison "
                       "operator, got '" + toStringBinary(arg.text) + "'");
  }

  std::string_view m_text;
  size_t m_pos = 0;
};

}  // namespace

Result<std::shared_ptr<const Filter>> parseFilter(std::string_view text) {
  if (text.size() > kMaxLength) {
    return Status::invalidArgument("column " + std::to_string(kMaxLength + 1) + ": filter text is " +
                                   std::to_string(text.size()) + " bytes; the limit is " +
                                   std::to_string(kMaxLength));
  }
  Parser parser(text);
  auto f = parser.parseAll();
  if (!f) return f.status();
  return std::shared_ptr<const Filter>(std::move(f).value());
}

}  // namespace keyscope
