// libFuzzer target: the shell language parser (parseShell, needsMoreInput)
// on arbitrary text: the lexer's literals and escapes, the statement syntax and
// every command's builder.
//
// Checks: no crash or unbounded recursion (ASan/UBSan); every statement starts
// inside the text, and every error is an InvalidArgument that names a line
// and column inside the text; a text that parses without error and needs no
// more input keeps its statements when another line follows; a command that
// carries bytes (put, delete, incr, get_counter, get, the table commands,
// key_schema, set_clock), printed back as a statement with every byte
// escaped, parses to the same command; the filter of a get, scan or count
// prints (Filter::toString) to a filter that parses to the same text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/filter.h"
#include "keyscope/shell_command.h"

namespace {

namespace shell = keyscope::shell;

[[noreturn]] void fail(const std::string& what, std::string_view text) {
  std::fprintf(stderr, "%s\n  input: %s\n", what.c_str(), keyscope::toStringBinary(text.substr(0, 4000)).c_str());
  std::abort();
}

// Lines of the text, and the characters (UTF-8 lead bytes) on each.
std::vector<size_t> charactersPerLine(std::string_view text) {
  std::vector<size_t> lines(1, 0);
  for (char c : text) {
    if (c == '\n') lines.push_back(0);
    else if ((static_cast<uint8_t>(c) & 0xC0) != 0x80) ++lines.back();
  }
  return lines;
}

// A Ruby double-quoted literal of exactly these bytes: printable ASCII as is,
// everything else (and " \ #) as \xHH.
std::string literal(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : bytes) {
    const auto b = static_cast<uint8_t>(c);
    if (b >= 0x20 && b < 0x7f && c != '"' && c != '\\' && c != '#') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out + "\"";
}

std::string column(std::string_view family, std::string_view qualifier) {
  return literal(std::string(family) + ":" + std::string(qualifier));
}

// The command as a statement, for the commands whose every field prints; nullopt otherwise.
std::optional<std::string> print(const std::string& name, const shell::Command& command) {
  if (const auto* put = std::get_if<shell::PutCommand>(&command)) {
    const keyscope::PutCell& cell = put->put.cells.at(0);
    std::string out = "put " + literal(put->table) + ", " + literal(put->put.row) + ", " +
                      column(cell.family, cell.qualifier) + ", " + literal(cell.value);
    if (cell.timestamp != keyscope::kLatestTimestamp) out += ", " + std::to_string(cell.timestamp);
    return out;
  }
  if (const auto* del = std::get_if<shell::DeleteCommand>(&command)) {
    if (del->rowPrefix || del->del.specs.size() != 1 || del->del.specs[0].scope != keyscope::DeleteScope::kColumnVersion)
      return std::nullopt;
    const keyscope::DeleteSpec& spec = del->del.specs[0];
    std::string out = "delete " + literal(del->table) + ", " + literal(del->del.row) + ", " +
                      column(spec.family, spec.qualifier);
    if (del->del.timestamp != keyscope::kLatestTimestamp) out += ", " + std::to_string(del->del.timestamp);
    return out;
  }
  if (const auto* incr = std::get_if<shell::IncrCommand>(&command)) {
    const keyscope::IncrementColumn& c = incr->increment.columns.at(0);
    return "incr " + literal(incr->table) + ", " + literal(incr->increment.row) + ", " + column(c.family, c.qualifier) +
           ", " + std::to_string(c.delta);
  }
  if (const auto* counter = std::get_if<shell::GetCounterCommand>(&command)) {
    return "get_counter " + literal(counter->table) + ", " + literal(counter->row) + ", " +
           column(counter->family, counter->qualifier);
  }
  if (const auto* get = std::get_if<shell::GetCommand>(&command)) {
    if (!get->options.columns.empty() || get->options.filter != nullptr) return std::nullopt;
    return "get " + literal(get->table) + ", " + literal(get->options.row);
  }
  if (const auto* table = std::get_if<shell::TableCommand>(&command)) return name + " " + literal(table->table);
  if (const auto* schema = std::get_if<shell::KeySchemaCommand>(&command)) {
    return "key_schema " + literal(schema->table) + (schema->set ? ", " + literal(schema->schema) : "");
  }
  if (const auto* clock = std::get_if<shell::SetClockCommand>(&command)) {
    return "set_clock " + (clock->nowMillis ? std::to_string(*clock->nowMillis) : std::string("nil"));
  }
  return std::nullopt;
}

bool sameCommand(const shell::Command& a, const shell::Command& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<shell::PutCommand>(&a)) {
    const auto& y = std::get<shell::PutCommand>(b);
    const auto &cx = x->put.cells.at(0), &cy = y.put.cells.at(0);
    return x->table == y.table && x->put.row == y.put.row && y.put.cells.size() == 1 && cx.family == cy.family &&
           cx.qualifier == cy.qualifier && cx.value == cy.value && cx.timestamp == cy.timestamp;
  }
  if (const auto* x = std::get_if<shell::DeleteCommand>(&a)) {
    const auto& y = std::get<shell::DeleteCommand>(b);
    return x->table == y.table && x->del.row == y.del.row && x->del.timestamp == y.del.timestamp &&
           y.del.specs.size() == 1 && !y.rowPrefix && x->del.specs[0].scope == y.del.specs[0].scope &&
           x->del.specs[0].family == y.del.specs[0].family && x->del.specs[0].qualifier == y.del.specs[0].qualifier &&
           x->del.specs[0].timestamp == y.del.specs[0].timestamp;
  }
  if (const auto* x = std::get_if<shell::IncrCommand>(&a)) {
    const auto& y = std::get<shell::IncrCommand>(b);
    const auto &cx = x->increment.columns.at(0), &cy = y.increment.columns.at(0);
    return x->table == y.table && x->increment.row == y.increment.row && y.increment.columns.size() == 1 &&
           cx.family == cy.family && cx.qualifier == cy.qualifier && cx.delta == cy.delta;
  }
  if (const auto* x = std::get_if<shell::GetCounterCommand>(&a)) {
    const auto& y = std::get<shell::GetCounterCommand>(b);
    return x->table == y.table && x->row == y.row && x->family == y.family && x->qualifier == y.qualifier;
  }
  if (const auto* x = std::get_if<shell::GetCommand>(&a)) {
    const auto& y = std::get<shell::GetCommand>(b);
    return x->table == y.table && x->options.row == y.options.row;
  }
  if (const auto* x = std::get_if<shell::TableCommand>(&a)) {
    const auto& y = std::get<shell::TableCommand>(b);
    return x->action == y.action && x->table == y.table;
  }
  if (const auto* x = std::get_if<shell::KeySchemaCommand>(&a)) {
    const auto& y = std::get<shell::KeySchemaCommand>(b);
    return x->table == y.table && x->set == y.set && x->schema == y.schema;
  }
  if (const auto* x = std::get_if<shell::SetClockCommand>(&a)) {
    return x->nowMillis == std::get<shell::SetClockCommand>(b).nowMillis;
  }
  return false;
}

const keyscope::Filter* filterOf(const shell::Command& command) {
  if (const auto* get = std::get_if<shell::GetCommand>(&command)) return get->options.filter.get();
  if (const auto* scan = std::get_if<shell::ScanCommand>(&command)) return scan->options.filter.get();
  if (const auto* count = std::get_if<shell::CountCommand>(&command)) return count->options.filter.get();
  return nullptr;
}

void checkStatement(const shell::Statement& s, const std::vector<size_t>& lines, std::string_view text) {
  if (s.line < 1 || static_cast<size_t>(s.line) > lines.size() || s.column < 1 ||
      static_cast<size_t>(s.column) > lines[static_cast<size_t>(s.line) - 1] + 1)
    fail("statement at line " + std::to_string(s.line) + ", column " + std::to_string(s.column) + " outside the text",
         text);
  if (!s.status.isOk()) {
    if (s.command) fail("a failed statement with a command", text);
    const std::string message = s.status.message();
    if (s.status.code() != keyscope::Status::Code::kInvalidArgument || message.rfind("line ", 0) != 0)
      fail("error without a position: " + s.status.toString(), text);
    char* end = nullptr;
    const unsigned long line = std::strtoul(message.c_str() + 5, &end, 10);
    if (std::string_view(end).rfind(", column ", 0) != 0) fail("error without a column: " + message, text);
    const unsigned long col = std::strtoul(end + 9, nullptr, 10);
    if (line < 1 || line > lines.size() || col < 1 || col > lines[line - 1] + 1)
      fail("error position outside the text: " + message, text);
    return;
  }
  if (!s.command) fail("statement '" + s.name + "' is OK without a command", text);
  if (const keyscope::Filter* filter = filterOf(*s.command)) {
    const std::string canonical = filter->toString();
    auto again = keyscope::parseFilter(canonical);
    if (!again || (*again)->toString() != canonical) fail("the filter prints to text that does not read back: " + canonical, text);
  }
  if (std::optional<std::string> printed = print(s.name, *s.command)) {
    const std::vector<shell::Statement> again = shell::parseShell(*printed);
    if (again.size() != 1 || !again[0].command)
      fail("printed statement does not parse: " + *printed + (again.empty() ? "" : ": " + again[0].status.toString()),
           text);
    if (!sameCommand(*s.command, *again[0].command)) fail("printed statement parses to another command: " + *printed, text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<size_t> lines = charactersPerLine(text);
  const std::vector<shell::Statement> statements = shell::parseShell(text);
  bool allOk = true;
  for (const shell::Statement& s : statements) {
    checkStatement(s, lines, text);
    allOk = allOk && s.status.isOk();
  }
  // A complete text: one more line is one more statement, the others unchanged.
  if (allOk && !shell::needsMoreInput(text)) {
    const std::string longer = std::string(text) + "\nhelp\n";
    const std::vector<shell::Statement> more = shell::parseShell(longer);
    bool same = more.size() == statements.size() + 1 && more.back().name == "help" && more.back().status.isOk();
    for (size_t i = 0; same && i < statements.size(); ++i) {
      same = more[i].name == statements[i].name && more[i].line == statements[i].line &&
             more[i].column == statements[i].column && more[i].status.isOk();
    }
    if (!same) fail("a line after a complete text changes its statements", text);
  }
  return 0;
}
