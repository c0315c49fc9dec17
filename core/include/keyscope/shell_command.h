// The HBase shell language, parsed: each command as a typed value.
//
// The shell reads Ruby-style statements (docs/SHELL.md):
//
//   create 'metrics', {NAME => 'd', VERSIONS => 3}, SPLITS => ['g', 'p']
//   put 'metrics', "cpu\x00host1", 'd:load', '0.5', 1000
//   scan 'metrics', {ROWPREFIXFILTER => 'cpu', FILTER => "ValueFilter (=, 'binary:0.5')"}
//
// A ShellParser turns source text into Statements, one at a time. Parsing
// checks everything that can be checked without the workspace (argument
// counts and types, option names and ranges, filters, key schemas), so a
// command that parses only fails later for reasons the workspace gives (no
// such table, a limit of the engine). An error in one statement does not stop
// the next: the parser skips to the end of the failed statement.
//
// Errors are InvalidArgument and say where: "line 3, column 17: expected '=>'
// after 'VERSIONS'". Lines count from the parser's first line; columns count
// characters (UTF-8 code points) from 1.
//
// Pure values and a single-threaded parser; nothing here touches a workspace.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/options.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::shell {

// --- Table definitions --------------------------------------------------------

// The family options a create or alter map names; unset ones keep their value
// (alter) or HBase's default (create).
struct FamilyPatch {
  std::string name;
  std::optional<int32_t> maxVersions;       // VERSIONS
  std::optional<int32_t> minVersions;       // MIN_VERSIONS
  std::optional<int64_t> ttlSeconds;        // TTL ('FOREVER' = kTtlForever)
  std::optional<KeepDeletedCells> keepDeletedCells;
  std::optional<Compression> compression;
  std::optional<BloomType> bloomFilter;
  std::optional<uint32_t> blockSize;

  void applyTo(FamilyOptions* family) const;
};

// Table attributes (HBase's MEMSTORE_FLUSHSIZE, MAX_FILESIZE, SPLIT_POLICY;
// Keyscope's KEY_SCHEMA, DESCRIPTION, EXAMPLES).
struct TablePatch {
  std::optional<uint64_t> memstoreFlushSize;
  std::optional<uint64_t> maxFileSize;
  std::optional<SplitPolicy> splitPolicy;
  std::optional<std::string> keySchema;     // "" removes it
  std::optional<std::string> description;
  std::optional<std::vector<std::string>> exampleCommands;  // EXAMPLES => ['scan ...', ...]; [] removes them

  void applyTo(TableOptions* table) const;
};

// create 't', 'f1', {NAME => 'f2', VERSIONS => 3}, SPLITS => ['m']
struct CreateCommand {
  TableOptions table;             // families with their options applied
  std::vector<Bytes> splits;      // SPLITS, or computed from NUMREGIONS + SPLITALGO
};

// One step of an alter, applied in the order written.
struct AlterStep {
  enum class Kind : uint8_t { kSetFamily, kDeleteFamily, kTableAttributes };
  Kind kind = Kind::kSetFamily;
  FamilyPatch family;             // kSetFamily: added, or changed from its current options; kDeleteFamily: name
  TablePatch attributes;          // kTableAttributes
  int line = 0;                   // where the step is written, for errors found when it is applied
  int column = 0;
};

// alter 't', NAME => 'f', VERSIONS => 5; alter 't', 'delete' => 'f'; ...
struct AlterCommand {
  std::string table;
  std::vector<AlterStep> steps;
};

// Commands that name a table and nothing else.
enum class TableAction : uint8_t {
  kDescribe,
  kExists,
  kIsEnabled,
  kIsDisabled,
  kDisable,
  kEnable,
  kDrop,
  kTruncate,
  kFlush,
  kCompact,
  kMajorCompact,
};

struct TableCommand {
  TableAction action = TableAction::kDescribe;
  std::string table;
};

// list ['regex']: the regex must match the whole name (Java's Pattern.matches).
struct ListCommand {
  std::optional<std::string> pattern;
};

// --- Regions and servers ----------------------------------------------------

// Where a value is written, for errors found only when the command runs.
struct SourcePosition {
  int line = 0;
  int column = 0;
};

// split 'table'[, 'row'] | split 'REGION'[, 'row']. Keyscope's region names
// are their numeric ids; a target that names an existing table is the table.
// Without a row: every region of the table (or the one region) at its mid key.
struct SplitCommand {
  std::string target;               // as written ('12' for split 12)
  std::optional<int64_t> regionId;  // set when the target could be a region id
  std::optional<Bytes> splitRow;
  SourcePosition targetAt;
  SourcePosition rowAt;
};

// merge_region 'ID1', 'ID2'[, true]: two adjacent regions of one table, in
// either order. The force flag is accepted and changes nothing (HBase's lets
// non-adjacent regions merge; Keyscope's regions must stay contiguous).
struct MergeRegionCommand {
  int64_t first = 0;
  int64_t second = 0;
  bool force = false;
  SourcePosition firstAt;
  SourcePosition secondAt;
};

// balancer ['force']: runs the balancer when it is switched on.
struct BalancerCommand {
  bool force = false;  // accepted: HBase's overrides regions in transition, which Keyscope never has
};

// balance_switch true|false: answers the previous state, as HBase's does.
struct BalanceSwitchCommand {
  bool enable = true;
};

// balancer_enabled: whether the balancer is switched on.
struct BalancerEnabledCommand {};

// regions 'table'[, {HISTORY => true}]: the live regions with their server
// and load, or every region the table ever had (split lineage).
struct RegionsCommand {
  std::string table;
  bool history = false;
};

// servers: the simulated region servers, their regions and load.
struct ServersCommand {};

// set_servers n: how many simulated servers there are (1 ... 1000); the
// regions of servers taken away move to the others, then the balancer runs.
struct SetServersCommand {
  int32_t count = 0;
};

// --- Writes -----------------------------------------------------------------

// put 't', 'row', 'f:q', 'value'[, ts]
struct PutCommand {
  std::string table;
  Put put;                        // exactly one cell
};

// delete (one version) and deleteall (every version, a family, or the row).
struct DeleteCommand {
  std::string table;
  Delete del;                     // del.row is unused when rowPrefix is set
  std::optional<Bytes> rowPrefix; // deleteall 't', {ROWPREFIXFILTER => 'p'}: every row with the prefix
};

// incr 't', 'row', 'f:q'[, delta]
struct IncrCommand {
  std::string table;
  Increment increment;            // exactly one column
};

// get_counter 't', 'row', 'f:q'
struct GetCounterCommand {
  std::string table;
  Bytes row;
  std::string family;
  Bytes qualifier;
};

// --- Reads ------------------------------------------------------------------

// How a value is shown (HBase's FORMATTER and 'f:q:CONVERTER' column specs),
// named after org.apache.hadoop.hbase.util.Bytes' methods. A value whose
// length does not fit the formatter (toLong of 3 bytes) is shown with
// toStringBinary instead of failing the read.
enum class ValueFormatter : uint8_t {
  kToStringBinary,  // the default
  kToString,        // UTF-8 text (invalid sequences become U+FFFD)
  kToLong,          // 8-byte big-endian two's complement
  kToInt,           // 4 bytes
  kToShort,         // 2 bytes
  kToDouble,        // 8-byte IEEE 754
  kToFloat,         // 4-byte IEEE 754
  kToBoolean,       // 1 byte: 0 is false
  kToHex,           // lowercase hex
};

const char* valueFormatterName(ValueFormatter formatter);
// The value as the formatter shows it.
std::string formatValue(ValueFormatter formatter, BytesView value);

struct OutputFormat {
  ValueFormatter values = ValueFormatter::kToStringBinary;             // FORMATTER
  std::map<std::pair<std::string, Bytes>, ValueFormatter> columns;     // 'f:q:toLong'
  int64_t maxLength = -1;         // MAXLENGTH: text output cuts each cell's text here
  bool metrics = false;           // ALL_METRICS / METRICS: show the read report

  ValueFormatter formatterFor(std::string_view family, BytesView qualifier) const;
};

// get 't', 'row'[, 'f:q', ...][, {COLUMN => ..., VERSIONS => ..., ...}]
struct GetCommand {
  std::string table;
  GetOptions options;
  OutputFormat format;
};

// scan 't'[, {STARTROW => ..., LIMIT => ..., ...}]
struct ScanCommand {
  std::string table;
  ScanOptions options;
  OutputFormat format;
};

// count 't'[, {INTERVAL => n, FILTER => ..., ...}]
struct CountCommand {
  std::string table;
  ScanOptions options;
  int64_t interval = 1000;        // accepted for HBase scripts; the count is printed once
};

// --- Keyscope's own ----------------------------------------------------------

// set_clock ms | set_clock nil: the workspace clock, for TTL what-ifs.
struct SetClockCommand {
  std::optional<int64_t> nowMillis;  // nullopt: back to the system clock
};

// key_schema 't' (show) | key_schema 't', 'schema' (set; '' or nil removes).
struct KeySchemaCommand {
  std::string table;
  bool set = false;
  std::string schema;
};

struct HelpCommand {};
struct ExitCommand {};  // exit / quit: stops reading

using Command = std::variant<CreateCommand, AlterCommand, TableCommand, ListCommand, PutCommand, DeleteCommand,
                             IncrCommand, GetCounterCommand, GetCommand, ScanCommand, CountCommand, SetClockCommand,
                             KeySchemaCommand, SplitCommand, MergeRegionCommand, BalancerCommand,
                             BalanceSwitchCommand, BalancerEnabledCommand, RegionsCommand, ServersCommand,
                             SetServersCommand, HelpCommand, ExitCommand>;

// One statement of the source: the command it names, or why it is not one.
struct Statement {
  std::string name;               // canonical command name ("describe" for desc); as written if unknown; "" if none
  int line = 0;                   // where the statement starts
  int column = 0;
  std::optional<Command> command; // set when `status` is OK
  Status status;
};

// Parses source text one statement at a time. Holds a view of `source`: the
// text must outlive the parser. Not thread-safe.
class ShellParser {
 public:
  explicit ShellParser(std::string_view source, int firstLine = 1);
  ~ShellParser();
  ShellParser(const ShellParser&) = delete;
  ShellParser& operator=(const ShellParser&) = delete;

  // The next statement, or nullopt at the end of the source. Empty statements
  // (blank lines, comments, stray ';') are skipped.
  std::optional<Statement> next();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Every statement of `source`.
std::vector<Statement> parseShell(std::string_view source, int firstLine = 1);

// True when `source` stops inside a string or an open bracket, or right after
// ',' '=>' or a '\' line continuation: an interactive reader reads on.
bool needsMoreInput(std::string_view source);

// The commands the shell knows, sorted (aliases excluded).
const std::vector<std::string>& commandNames();

}  // namespace keyscope::shell
