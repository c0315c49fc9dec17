// The four comparators of the filter language (see comparator.h).
#include "filter/comparator.h"

#include <algorithm>
#include <cstring>

namespace keyscope::filter {

namespace {

// A regex is compiled by libstdc++'s recursive-descent compiler, one stack frame
// group per term and per nesting level; these caps keep that recursion far from
// the stack limit whatever the input (the parser is fuzzed).
constexpr size_t kMaxRegexLength = 4096;
constexpr int kMaxRegexNesting = 64;
// libstdc++ reads a repetition count or a back-reference's number into a
// long without checking for overflow (undefined behaviour, and a count that
// wraps matches the wrong strings; found by fuzz_filter_parse), so both are
// checked here first. It unrolls {n,m} into copies of the atom, so no useful
// count is large: above 1000 is refused here, and an automaton that still
// grows past libstdc++'s 100,000 states is its error.
constexpr unsigned long kMaxRegexRepeat = 1000;

char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The repetition {n}, {n,} or {n,m} that starts at pattern[at] == '{': an
// error when a count is above kMaxRegexRepeat, else "" (also when it is no
// repetition: std::regex judges that).
std::string checkRepetition(std::string_view pattern, size_t at) {
  size_t i = at + 1;
  for (int count = 0; count < 2; ++count) {
    const size_t start = i;
    while (i < pattern.size() && isDigit(pattern[i])) ++i;
    const std::string_view digits = pattern.substr(start, i - start);
    std::string_view significant = digits;
    while (significant.size() > 1 && significant.front() == '0') significant.remove_prefix(1);
    if (significant.size() > 4 || (!significant.empty() && std::stoul(std::string(significant)) > kMaxRegexRepeat)) {
      return "repetition count " + std::string(digits.substr(0, 24)) + (digits.size() > 24 ? "..." : "") +
             " at byte " + std::to_string(start + 1) + " is above the limit of " + std::to_string(kMaxRegexRepeat);
    }
    if (i >= pattern.size() || pattern[i] != ',') break;
    ++i;
  }
  return "";
}

// Java's Pattern.DOTALL (HBase's default flag) lets '.' match line terminators;
// ECMAScript's '.' does not. Rewrites each unescaped '.' outside a bracket
// expression to [\s\S]. Also measures the group nesting depth, and sets
// *problem (when still empty) for what must not reach std::regex: a
// back-reference, or a repetition count above the limit.
std::string withDotAll(std::string_view pattern, int* maxNesting, std::string* problem) {
  std::string out;
  out.reserve(pattern.size() + 16);
  bool inBracket = false;
  int nesting = 0;
  *maxNesting = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      if (!inBracket && pattern[i + 1] >= '1' && pattern[i + 1] <= '9' && problem->empty()) {
        *problem = "back-reference at byte " + std::to_string(i + 1) +
                   " is not supported (matching stays polynomial without them)";
      }
      out += c;
      out += pattern[++i];
      continue;
    }
    if (inBracket) {
      if (c == ']') inBracket = false;
      out += c;
      continue;
    }
    if (c == '[') {
      inBracket = true;
      out += c;
      // A ']' right after '[' or '[^' is still ECMAScript's end of an empty class,
      // so nothing special is needed here.
      continue;
    }
    if (c == '{' && problem->empty()) *problem = checkRepetition(pattern, i);
    if (c == '(') *maxNesting = std::max(*maxNesting, ++nesting);
    if (c == ')' && nesting > 0) --nesting;
    if (c == '.') {
      out += "[\\s\\S]";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

int compareBytes(BytesView a, BytesView b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

const char* ByteComparator::kindName(Kind kind) {
  switch (kind) {
    case Kind::kBinary: return "binary";
    case Kind::kBinaryPrefix: return "binaryprefix";
    case Kind::kRegexString: return "regexstring";
    case Kind::kSubstring: return "substring";
  }
  return "binary";
}

std::optional<ByteComparator::Kind> ByteComparator::kindFromName(std::string_view name) {
  for (Kind k : {Kind::kBinary, Kind::kBinaryPrefix, Kind::kRegexString, Kind::kSubstring}) {
    if (name == kindName(k)) return k;
  }
  return std::nullopt;
}

Result<ByteComparator> ByteComparator::make(Kind kind, Bytes value) {
  ByteComparator c(kind, std::move(value));
  if (kind == Kind::kSubstring) {
    c.m_lowered = c.m_value;
    std::transform(c.m_lowered.begin(), c.m_lowered.end(), c.m_lowered.begin(), asciiLower);
  } else if (kind == Kind::kRegexString) {
    if (c.m_value.size() > kMaxRegexLength) {
      return Status::invalidArgument("regular expression is " + std::to_string(c.m_value.size()) +
                                     " bytes; the limit is " + std::to_string(kMaxRegexLength));
    }
    int nesting = 0;
    std::string problem;
    std::string pattern = withDotAll(c.m_value, &nesting, &problem);
    if (!problem.empty()) return Status::invalidArgument("regular expression: " + problem);
    if (nesting > kMaxRegexNesting) {
      return Status::invalidArgument("regular expression nests groups " + std::to_string(nesting) +
                                     " deep; the limit is " + std::to_string(kMaxRegexNesting));
    }
    auto flags = std::regex::ECMAScript;
#if defined(__GLIBCXX__)
    // libstdc++'s breadth-first matcher: time polynomial in the input and no
    // recursion per input byte (its default depth-first matcher can overflow the
    // stack on long values). It rejects back-references.
    flags |= std::regex_constants::__polynomial;
#endif
    try {
      c.m_regex = std::make_shared<const std::regex>(pattern, flags);
    } catch (const std::regex_error& e) {
      return Status::invalidArgument(std::string("bad regular expression '") + c.m_value + "': " + e.what());
    } catch (const std::exception& e) {
      return Status::invalidArgument(std::string("bad regular expression '") + c.m_value + "': " + e.what());
    }
  }
  return c;
}

Result<ByteComparator> ByteComparator::parse(BytesView spec) {
  size_t colon = spec.find(':');
  if (colon == BytesView::npos) {
    return Status::invalidArgument("comparator '" + toStringBinary(spec) +
                                   "' lacks a type: expected binary:, binaryprefix:, regexstring: or substring:");
  }
  auto kind = kindFromName(spec.substr(0, colon));
  if (!kind) {
    return Status::invalidArgument("unknown comparator type '" + toStringBinary(spec.substr(0, colon)) +
                                   "': expected binary, binaryprefix, regexstring or substring");
  }
  return make(*kind, Bytes(spec.substr(colon + 1)));
}

int ByteComparator::compareTo(BytesView bytes) const {
  switch (m_kind) {
    case Kind::kBinary: return compareBytes(m_value, bytes);
    case Kind::kBinaryPrefix:
      // BinaryPrefixComparator: the cell's bytes cut to the comparator's length.
      return compareBytes(m_value, bytes.substr(0, std::min(bytes.size(), m_value.size())));
    case Kind::kRegexString:
      try {
        return std::regex_search(bytes.begin(), bytes.end(), *m_regex) ? 0 : 1;
      } catch (const std::exception&) {
        return 1;  // regex_error(error_complexity / error_stack): counted as no match
      }
    case Kind::kSubstring: {
      // SubstringComparator lower-cases the cell's text and looks for the
      // lower-cased substring.
      auto it = std::search(bytes.begin(), bytes.end(), m_lowered.begin(), m_lowered.end(),
                            [](char a, char b) { return asciiLower(a) == b; });
      return (it != bytes.end() || m_lowered.empty()) ? 0 : 1;
    }
  }
  return 1;
}

}  // namespace keyscope::filter
