// libFuzzer target: the filter language (parseFilter) and the filter JSON
// form (filterFromJson) on arbitrary text, and the filters they build run over
// a few fixed rows.
//
// Checks: parsing never crashes (ASan/UBSan) and an error of the language
// names a column within the text (or one past its end); a parsed filter's
// toString() parses again to the same text, and so does its JSON form
// (filterToJson, read back with filterFromJson); the original, the re-parsed
// and the JSON filter pass exactly the same cells of the fixed rows, forward
// and reversed; and honouring the filter's seek hints or not changes nothing
// (a reader may ignore a hint, as Keyscope's engine does when it points back).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/filter_json.h"
#include "filter_row_driver.h"
#include "keyscope/filter.h"

namespace {

using keyscope::Cell;
using keyscope::CellType;
using keyscope::Filter;

[[noreturn]] void fail(const std::string& what, std::string_view text) {
  std::fprintf(stderr, "%s\n  input: %s\n", what.c_str(), keyscope::toStringBinary(text).c_str());
  std::abort();
}

Cell put(std::string row, std::string family, std::string qualifier, int64_t ts, std::string value) {
  return Cell{std::move(row), std::move(family), std::move(qualifier), ts, CellType::kPut, std::move(value)};
}

// Rows in scan order (row, family, qualifier ascending, timestamp descending):
// values the comparators can match (text, an 8-byte long, empty), shared
// prefixes, an embedded zero, several versions and two families.
const std::vector<Cell>& fixedCells() {
  static const std::vector<Cell> cells = {
      put("r", "d", "a", 3, "v"),
      put("r", "d", "a", 2, "abc"),
      put("r", "d", "q1", 1, std::string("\0\0\0\0\0\0\0\x05", 8)),
      put("r", "e", "", 1, ""),
      put(std::string("r\0", 2), "d", "b", 5, "row1"),
      put("row1", "d", "a", 9, "xyz"),
      put("row1", "d", "b", 9, "1"),
      put("row1", "d", "b", 4, "0.5"),
      put("row1", "d", "q2", 7, "ABC"),
      put("row1", "e", "a", 6, "abc"),
      put("row2", "d", "a", 1, "\xff"),
      put("row2", "e", "z", 2, "zz"),
  };
  return cells;
}

// The cells a clone of `prototype` passes, rows in the order given, with the
// calls of keyscope/filter.h in HBase's order (a row's cells through the
// model scanner of tests/core/filter_row_driver.h).
std::string drive(const Filter& prototype, const std::vector<std::vector<Cell>>& rows, bool reversed,
                  bool honourHints) {
  std::unique_ptr<Filter> f = prototype.clone();
  f->setReversed(reversed);
  std::string out;
  for (const std::vector<Cell>& cells : rows) {
    if (f->filterAllRemaining()) {
      out += "[end]";
      break;
    }
    f->reset();
    if (f->filterRowKey(cells.front().row)) continue;
    const std::vector<Cell> included = keyscope::test::driveRow(*f, cells, 0, cells.size(), honourHints);
    for (const Cell& c : included) {
      out += keyscope::toStringBinary(c.row) + "/" + c.family + ":" + keyscope::toStringBinary(c.qualifier) + "@" +
             std::to_string(c.timestamp) + "=" + keyscope::toStringBinary(c.value) + " ";
    }
  }
  return out;
}

std::vector<std::vector<Cell>> rowsOf(const std::vector<Cell>& cells, bool reversed) {
  std::vector<std::vector<Cell>> rows;
  for (const Cell& c : cells) {
    if (rows.empty() || rows.back().front().row != c.row) rows.emplace_back();
    rows.back().push_back(c);
  }
  if (reversed) std::reverse(rows.begin(), rows.end());
  return rows;
}

// Everything the filter passes, forward and reversed, with hints honoured;
// the same with hints ignored must agree.
std::string behaviour(const Filter& filter, std::string_view text) {
  std::string all;
  for (bool reversed : {false, true}) {
    const auto rows = rowsOf(fixedCells(), reversed);
    const std::string withHints = drive(filter, rows, reversed, true);
    const std::string withoutHints = drive(filter, rows, reversed, false);
    if (withHints != withoutHints) {
      fail("ignoring seek hints changes what " + filter.toString() + " passes" + (reversed ? " (reversed)" : "") +
               "\n  with hints:    " + withHints + "\n  without hints: " + withoutHints,
           text);
    }
    all += withHints + "|";
  }
  return all;
}

// A filter that parsed: its text and its JSON form read back as the same filter.
void checkRoundTrips(const Filter& filter, std::string_view text) {
  const std::string canonical = filter.toString();
  auto again = keyscope::parseFilter(canonical);
  if (!again) fail("toString() does not parse: '" + canonical + "': " + again.status().toString(), text);
  if ((*again)->toString() != canonical)
    fail("toString() not stable: '" + canonical + "' -> '" + (*again)->toString() + "'", text);
  const std::string json = keyscope::filter::filterToJson(filter);
  auto fromJson = keyscope::filterFromJson(json);
  if (!fromJson) fail("filterToJson does not read back: " + json + ": " + fromJson.status().toString(), text);
  if ((*fromJson)->toString() != canonical)
    fail("the JSON form reads back as another filter: " + json + " -> '" + (*fromJson)->toString() + "'", text);
  const std::string expected = behaviour(filter, text);
  if (behaviour(**again, text) != expected) fail("the re-parsed filter behaves differently: " + canonical, text);
  if (behaviour(**fromJson, text) != expected) fail("the filter read from JSON behaves differently: " + json, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto parsed = keyscope::parseFilter(text);
  if (parsed) {
    checkRoundTrips(**parsed, text);
  } else {
    const std::string message = parsed.status().message();  // status() returns a copy
    if (message.rfind("column ", 0) != 0) fail("error without a column: " + message, text);
    const unsigned long column = std::strtoul(message.c_str() + 7, nullptr, 10);
    if (column < 1 || column > size + 1)
      fail("column " + std::to_string(column) + " outside a text of " + std::to_string(size) + " bytes: " + message,
           text);
  }

  // The same text as the JSON form: most inputs are not JSON and fail at once.
  auto fromJson = keyscope::filterFromJson(text);
  if (fromJson) {
    checkRoundTrips(**fromJson, text);
  } else if (fromJson.status().message().empty()) {
    fail("JSON error without a message", text);
  }
  return 0;
}
