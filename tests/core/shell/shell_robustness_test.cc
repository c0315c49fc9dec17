// Bad input never crashes the shell: random token soups and random bytes
// parse to statements or positioned errors, and whatever parses runs against a
// workspace without harm. Fixed seeds, so a failure reproduces.
#include <algorithm>
#include <random>

#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

const std::vector<std::string>& pieces() {
  static const std::vector<std::string> kPieces = {
      "put", "scan", "get", "create", "alter", "deleteall", "delete", "incr", "count", "list", "desc", "drop",
      "disable", "truncate", "key_schema", "set_clock", "'t'", "'d'", "'d:q'", "'r'", "'", "\"", "\\", "\\x",
      "\\u{", "\\u12", "#{", "{", "}", "[", "]", "(", ")", ",", "=>", "=", ":", "::", ";", "\n", " ", "  ", "#",
      "NAME", "VERSIONS", "FILTER", "\"PrefixFilter ('a') AND (\"", "\"ValueFilter (=, 'binary:x')\"", "-", "0x",
      "0b2", "08", "99999999999999999999", "1.5", "7", "0", "-1", "Bytes.toBytes(", "Bytes", ".", "nil", "true",
      "\xff", "\xc3", "\xc3\xa9", "LATEST_TIMESTAMP", ".to_s", "COLUMNS", "'d:q:toLong'", "TIMERANGE", "[1, 2]",
      "SPLITS", "STARTROW", "REVERSED", "RAW", "LIMIT", "ROWPREFIXFILTER", "METHOD", "'delete'", "KEY_SCHEMA",
      "'a:i64 | b:utf8'", "'a:nope'", "TTL", "'FOREVER'", "MIN_VERSIONS", "\r", "\t", "\x00",
      "split", "merge_region", "balancer", "balance_switch", "servers", "set_servers", "regions", "HISTORY",
      "MAX_FILESIZE", "SPLIT_POLICY", "'12'",
  };
  return kPieces;
}

std::string soup(std::mt19937_64& rng, size_t maxPieces) {
  std::string text;
  const size_t n = rng() % maxPieces;
  for (size_t i = 0; i < n; ++i) text += pieces()[rng() % pieces().size()];
  return text;
}

void expectOnlyPositionedErrors(std::string_view text) {
  (void)needsMoreInput(text);
  for (const Statement& s : parseShell(text, 7)) {
    if (!s.status) {
      EXPECT_EQ(s.status.message().rfind("line ", 0), 0u) << "error without a position for: " << text << "\n"
                                                           << s.status.message();
    } else {
      EXPECT_TRUE(s.command.has_value());
    }
    EXPECT_GE(s.line, 7);
  }
}

TEST(ShellRobustness, RandomTokenSoupsParseOrFailWithAPosition) {
  std::mt19937_64 rng(0x5eed5);
  for (int i = 0; i < 4000; ++i) expectOnlyPositionedErrors(soup(rng, 24));
}

TEST(ShellRobustness, RandomBytesParseOrFailWithAPosition) {
  std::mt19937_64 rng(0xb17e5);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() & 0xff);
    expectOnlyPositionedErrors(text);
  }
}

// A random command that is mostly well formed: a command name, then values
// and option maps drawn from what the commands take.
std::string randomCommand(std::mt19937_64& rng) {
  static const std::vector<std::string> kCommands = {
      "put", "get", "scan", "count", "delete", "deleteall", "incr", "get_counter", "create", "alter", "describe",
      "exists", "disable", "enable", "drop", "truncate", "flush", "compact", "major_compact", "regions", "list",
      "key_schema", "is_enabled", "split", "merge_region", "balancer", "balance_switch", "balancer_enabled",
      "servers", "set_servers"};
  static const std::vector<std::string> kValues = {
      "'t'", "'t'", "'t'", "'u'", "'r'", "'r2'", "\"\\x00\\xff\"", "''", "'d'", "'d:q'", "'d:q2'", "'e'",
      "'d:q:toLong'", "'v'", "Bytes.toBytes(5)", "1", "100", "0", "LATEST_TIMESTAMP", "nil", "true", "['d:q', 'd']",
      "'user:utf8 | n:i64'", "'delete'"};
  static const std::vector<std::string> kKeys = {
      "VERSIONS", "NAME", "TTL", "COLUMNS", "COLUMN", "STARTROW", "STOPROW", "ROWPREFIXFILTER", "LIMIT", "REVERSED",
      "RAW", "FILTER", "TIMERANGE", "TIMESTAMP", "MIN_VERSIONS", "KEEP_DELETED_CELLS", "METHOD", "SPLITS",
      "FORMATTER", "BATCH", "MAXLENGTH", "INTERVAL", "COMPRESSION", "BLOOMFILTER", "MEMSTORE_FLUSHSIZE",
      "MAX_FILESIZE", "SPLIT_POLICY", "HISTORY"};
  static const std::vector<std::string> kOptionValues = {
      "1", "3", "0", "-1", "'d'", "'r'", "true", "false", "[0, 10]", "[5, 1]", "'ZSTD'", "'ROWCOL'", "'TTL'",
      "\"PrefixFilter ('r')\"", "\"KeyOnlyFilter () AND FirstKeyOnlyFilter ()\"", "\"ValueFilter (\"",
      "'toLong'", "['m', 'a']", "'delete'", "'d:q'", "['d:q:toInt']", "65536", "'constant'"};
  std::string text = kCommands[rng() % kCommands.size()];
  const size_t args = rng() % 5;
  for (size_t i = 0; i < args; ++i) {
    const bool table = i == 0 && rng() % 5 != 0;  // mostly the table the test keeps
    text += (i == 0 ? " " : ", ") + (table ? std::string("'t'") : kValues[rng() % kValues.size()]);
  }
  if (rng() % 2) {
    text += args == 0 ? " {" : ", {";
    const size_t keys = rng() % 4;
    for (size_t i = 0; i < keys; ++i)
      text += (i == 0 ? "" : ", ") + kKeys[rng() % kKeys.size()] + " => " + kOptionValues[rng() % kOptionValues.size()];
    text += "}";
  }
  return text;
}

TEST(ShellRobustness, RandomCommandsRunWithoutHarm) {
  test::ShellFixture sh(ShellFormat::kJsonl);
  sh.run("create 't', {NAME => 'd', VERSIONS => 3}, 'e'");
  std::mt19937_64 rng(0xc0ffee);
  size_t ran = 0;
  for (int i = 0; i < 3000 && !sh.shell().exitRequested(); ++i) {
    // Keep the table there and enabled, so most commands have something to act on.
    sh.run(sh.ws().tableExists("t") ? "enable 't'" : "create 't', {NAME => 'd', VERSIONS => 3}, 'e'");
    const std::string text = randomCommand(rng);
    const size_t failuresBefore = sh.failures();
    const std::string out = sh.run(text);
    if (sh.failures() == failuresBefore) ++ran;
    // One JSON object per command, errors included.
    ASSERT_FALSE(out.empty()) << text;
    EXPECT_EQ(out.front(), '{') << text << "\n" << out;
    EXPECT_EQ(out.substr(out.size() - 2), "}\n") << text << "\n" << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << text << "\n" << out;
    if (sh.failures() > failuresBefore) {
      EXPECT_NE(out.find("\"error\":\"line "), std::string::npos) << text << "\n" << out;
    }
  }
  EXPECT_GT(ran, 200u);  // the generator makes a good share of commands that run (219 with this seed)
}

}  // namespace
}  // namespace keyscope::shell
