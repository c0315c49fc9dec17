// The shell's statement syntax: a command name and Ruby-style arguments.
//
//   statement := NAME [ "(" args ")" | args ] ( NEWLINE | ";" | END )
//   args      := arg { "," arg }            -- a newline may follow any ','
//   arg       := value | value "=>" value   -- KEY => value pairs at the end of
//                                              the arguments form one map (Ruby)
//   value     := STRING {STRING} | INTEGER | true | false | nil | CONSTANT
//              | "[" [value {"," value} [","]] "]"
//              | "{" [value "=>" value {"," value "=>" value} [","]] "}"
//              | Bytes.toBytes(value) | Bytes.toBytesBinary(value)
//              | value ".to_s" | value ".to_java_bytes"
//
// Newlines inside brackets are spaces. CONSTANTs are the HBase shell's
// (NAME, VERSIONS, ... each the string of its own name) and LATEST_TIMESTAMP.
// Nesting is capped at 64 levels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/status.h"
#include "shell/lexer.h"
#include "shell/source_text.h"

namespace keyscope::shell {

struct MapEntry;

struct Value {
  enum class Kind : uint8_t { kNil, kBool, kInteger, kString, kArray, kMap };
  Kind kind = Kind::kNil;
  bool boolean = false;
  int64_t integer = 0;
  Bytes bytes;                         // kString
  std::vector<size_t> literalStarts;   // kString written as literals: where each starts
  bool fromBytesHelper = false;        // kString made by Bytes.toBytes (a Java byte[])
  std::string constant;                // written as a bare constant (NAME, LATEST_TIMESTAMP)
  std::vector<Value> items;            // kArray
  std::vector<MapEntry> entries;       // kMap, in the order written
  size_t offset = 0;                   // source span
  size_t end = 0;

  bool isString() const { return kind == Kind::kString; }
  bool isMap() const { return kind == Kind::kMap; }
  // "a string", "an integer", "an array", ...: for "expected X, got Y" messages.
  const char* kindName() const;
};

struct MapEntry {
  Value key;
  Value value;
};

struct RawStatement {
  std::string name;
  size_t nameOffset = 0;
  size_t nameEnd = 0;
  std::vector<Value> args;
};

// Reads statements one at a time from `source`. Not thread-safe.
class StatementReader {
 public:
  explicit StatementReader(const SourceText& source);

  struct Item {
    std::string name;                 // the command name as written ("" when none)
    size_t offset = 0;                // where the statement starts
    std::optional<RawStatement> statement;
    Status error;                     // set when statement is nullopt
  };
  // nullopt at the end of the source.
  std::optional<Item> next();

 private:
  void advance();
  const Token& peek();
  void skipNewlines();
  void recover();
  Status fail(size_t offset, const std::string& what) const { return m_source.errorAt(offset, what); }
  Status unexpected(const std::string& expected) const;
  Status parseArgs(TokenKind closing, std::vector<Value>* args);
  Status parseValue(int depth, Value* out);
  Status parsePrimary(int depth, Value* out);
  Status parseArray(int depth, Value* out);
  Status parseMap(int depth, Value* out);
  Status parseName(int depth, Value* out);

  const SourceText& m_source;
  Lexer m_lexer;
  Token m_tok;
  std::optional<Token> m_peek;
  int m_depth = 0;  // brackets open in the current statement (for recovery)
};

// " (did you mean VERSIONS?)" when `word` is close to one of `candidates`, else "".
std::string didYouMean(std::string_view word, const std::vector<std::string_view>& candidates);

// The HBase shell's constants the parser knows (sorted).
const std::vector<std::string_view>& knownConstants();

}  // namespace keyscope::shell
