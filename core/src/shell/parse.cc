// ShellParser: statements in, typed commands out (dispatch by command name).
#include <algorithm>

#include "keyscope/shell_command.h"
#include "shell/builders.h"
#include "shell/lexer.h"
#include "shell/source_text.h"
#include "shell/syntax.h"

namespace keyscope::shell {

namespace {

Result<Command> buildHelp(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 1, "help"); !s) return s;
  return Command(HelpCommand{});
}

Result<Command> buildExit(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 0, statement.name); !s) return s;
  return Command(ExitCommand{});
}

template <TableAction action>
Result<Command> buildTable(const SourceText& src, const RawStatement& statement) {
  return buildTableCommand(src, statement, action);
}

struct CommandEntry {
  std::string_view name;
  std::string_view canonical;  // aliases name their command
  Builder build;
};

const std::vector<CommandEntry>& commandTable() {
  static const std::vector<CommandEntry> kCommands = {
      {"create", "create", &buildCreate},
      {"alter", "alter", &buildAlter},
      {"describe", "describe", &buildTable<TableAction::kDescribe>},
      {"desc", "describe", &buildTable<TableAction::kDescribe>},
      {"list", "list", &buildList},
      {"exists", "exists", &buildTable<TableAction::kExists>},
      {"is_enabled", "is_enabled", &buildTable<TableAction::kIsEnabled>},
      {"is_disabled", "is_disabled", &buildTable<TableAction::kIsDisabled>},
      {"disable", "disable", &buildTable<TableAction::kDisable>},
      {"enable", "enable", &buildTable<TableAction::kEnable>},
      {"drop", "drop", &buildTable<TableAction::kDrop>},
      {"truncate", "truncate", &buildTable<TableAction::kTruncate>},
      {"flush", "flush", &buildTable<TableAction::kFlush>},
      {"compact", "compact", &buildTable<TableAction::kCompact>},
      {"major_compact", "major_compact", &buildTable<TableAction::kMajorCompact>},
      {"split", "split", &buildSplit},
      {"merge_region", "merge_region", &buildMergeRegion},
      {"balancer", "balancer", &buildBalancer},
      {"balance_switch", "balance_switch", &buildBalanceSwitch},
      {"balancer_enabled", "balancer_enabled", &buildBalancerEnabled},
      {"regions", "regions", &buildRegions},
      {"servers", "servers", &buildServers},
      {"set_servers", "set_servers", &buildSetServers},
      {"put", "put", &buildPut},
      {"delete", "delete", &buildDelete},
      {"deleteall", "deleteall", &buildDeleteAll},
      {"incr", "incr", &buildIncr},
      {"get_counter", "get_counter", &buildGetCounter},
      {"get", "get", &buildGet},
      {"scan", "scan", &buildScan},
      {"count", "count", &buildCount},
      {"set_clock", "set_clock", &buildSetClock},
      {"key_schema", "key_schema", &buildKeySchema},
      {"help", "help", &buildHelp},
      {"exit", "exit", &buildExit},
      {"quit", "exit", &buildExit},
  };
  return kCommands;
}

}  // namespace

const std::vector<std::string>& commandNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const CommandEntry& e : commandTable()) {
      if (e.name == e.canonical) names.emplace_back(e.name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }();
  return kNames;
}

struct ShellParser::Impl {
  Impl(std::string_view text, int firstLine) : source(text, firstLine), reader(source) {}
  SourceText source;
  StatementReader reader;
};

ShellParser::ShellParser(std::string_view source, int firstLine)
    : m_impl(std::make_unique<Impl>(source, firstLine)) {}

ShellParser::~ShellParser() = default;

std::optional<Statement> ShellParser::next() {
  std::optional<StatementReader::Item> item = m_impl->reader.next();
  if (!item) return std::nullopt;
  const SourceText& src = m_impl->source;
  Statement statement;
  statement.name = item->name;
  statement.line = src.lineOf(item->offset);
  statement.column = src.columnOf(item->offset);
  if (!item->statement) {
    statement.status = item->error;
  } else {
    const RawStatement& raw = *item->statement;
    const auto& table = commandTable();
    const auto entry = std::find_if(table.begin(), table.end(), [&](const CommandEntry& e) { return e.name == raw.name; });
    if (entry == table.end()) {
      std::vector<std::string_view> names;
      for (const CommandEntry& e : table) names.push_back(e.name);
      statement.status = src.errorAt(raw.nameOffset, "unknown command '" + raw.name + "'" + didYouMean(raw.name, names) +
                                                         " (help lists the commands)");
    } else {
      statement.name = std::string(entry->canonical);
      Result<Command> command = entry->build(src, raw);
      if (command) statement.command = std::move(command).value();
      else statement.status = command.status();
    }
  }
  return statement;
}

std::vector<Statement> parseShell(std::string_view source, int firstLine) {
  ShellParser parser(source, firstLine);
  std::vector<Statement> statements;
  while (std::optional<Statement> s = parser.next()) statements.push_back(std::move(*s));
  return statements;
}

bool needsMoreInput(std::string_view source) {
  Lexer lexer(source);
  int depth = 0;
  TokenKind last = TokenKind::kNewline;
  while (true) {
    Token t = lexer.next();
    if (t.kind == TokenKind::kEnd) break;
    if (t.kind == TokenKind::kError && t.unterminated) return true;
    switch (t.kind) {
      case TokenKind::kLParen: case TokenKind::kLBracket: case TokenKind::kLBrace: ++depth; break;
      case TokenKind::kRParen: case TokenKind::kRBracket: case TokenKind::kRBrace: --depth; break;
      default: break;
    }
    if (t.kind != TokenKind::kNewline) last = t.kind;
    else if (depth <= 0 && last != TokenKind::kComma && last != TokenKind::kArrow) last = TokenKind::kNewline;
  }
  if (lexer.continuationAtEnd()) return true;
  if (depth > 0) return true;
  return last == TokenKind::kComma || last == TokenKind::kArrow;
}

}  // namespace keyscope::shell
