// Command builders: a parsed statement in, a typed command (or a positioned
// error) out. One function per command; grouped by file: DDL
// (build_ddl.cc), regions and servers (build_regions.cc), writes
// (build_writes.cc), reads (build_reads.cc).
#pragma once

#include <string_view>
#include <vector>

#include "keyscope/shell_command.h"
#include "shell/args.h"
#include "shell/source_text.h"
#include "shell/syntax.h"

namespace keyscope::shell {

using Builder = Result<Command> (*)(const SourceText& src, const RawStatement& statement);

// "put: wrong number of arguments (given 3, expected 4 or 5); usage: ..." at the
// command name, unless min <= given <= max.
Status checkArity(const SourceText& src, const RawStatement& statement, size_t min, size_t max,
                  std::string_view usage);
// The same for `given` arguments (the positional ones, when a map may follow).
Status checkCount(const SourceText& src, const RawStatement& statement, size_t given, size_t min, size_t max,
                  std::string_view usage);
// The statement's arguments without a trailing map, and that map (or null).
const Value* trailingMap(const RawStatement& statement);
size_t positionalCount(const RawStatement& statement);

Result<Command> buildCreate(const SourceText& src, const RawStatement& statement);
Result<Command> buildAlter(const SourceText& src, const RawStatement& statement);
Result<Command> buildList(const SourceText& src, const RawStatement& statement);
Result<Command> buildSetClock(const SourceText& src, const RawStatement& statement);
Result<Command> buildKeySchema(const SourceText& src, const RawStatement& statement);
// describe, exists, disable, ..., major_compact: the action comes from the name.
Result<Command> buildTableCommand(const SourceText& src, const RawStatement& statement, TableAction action);

Result<Command> buildSplit(const SourceText& src, const RawStatement& statement);
Result<Command> buildMergeRegion(const SourceText& src, const RawStatement& statement);
Result<Command> buildBalancer(const SourceText& src, const RawStatement& statement);
Result<Command> buildBalanceSwitch(const SourceText& src, const RawStatement& statement);
Result<Command> buildBalancerEnabled(const SourceText& src, const RawStatement& statement);
Result<Command> buildRegions(const SourceText& src, const RawStatement& statement);
Result<Command> buildServers(const SourceText& src, const RawStatement& statement);
Result<Command> buildSetServers(const SourceText& src, const RawStatement& statement);

Result<Command> buildPut(const SourceText& src, const RawStatement& statement);
Result<Command> buildDelete(const SourceText& src, const RawStatement& statement);
Result<Command> buildDeleteAll(const SourceText& src, const RawStatement& statement);
Result<Command> buildIncr(const SourceText& src, const RawStatement& statement);
Result<Command> buildGetCounter(const SourceText& src, const RawStatement& statement);

Result<Command> buildGet(const SourceText& src, const RawStatement& statement);
Result<Command> buildScan(const SourceText& src, const RawStatement& statement);
Result<Command> buildCount(const SourceText& src, const RawStatement& statement);

}  // namespace keyscope::shell
