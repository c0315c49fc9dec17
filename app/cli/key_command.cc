// `keyscope-cli key encode|decode|explain`: the key schema tools.
#include <fstream>
#include <iostream>
#include <optional>

#include "cli_io.h"
#include "keyscope/key_advisor.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"
#include "keyscope/key_schema.h"

namespace keyscope::cli {

namespace {

constexpr const char* kKeyUsage =
    "usage: keyscope-cli key encode SCHEMA [JSON_ARRAY]\n"
    "       keyscope-cli key decode SCHEMA [HEX]\n"
    "       keyscope-cli key explain SCHEMA [--samples FILE]   (FILE: hex keys, one per line; - for stdin)\n";

int badInput(Streams io, const std::string& message) {
  io.err << "keyscope-cli: " << message << "\n";
  return kExitBadInput;
}

std::string trimmed(const std::string& line) {
  size_t b = line.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = line.find_last_not_of(" \t\r\n");
  return line.substr(b, e - b + 1);
}

// Runs `handle` on every non-blank line of standard input. A line it fails
// (returns an error text for) is reported as "line N: ..." and makes the
// status kExitBadInput; the other lines still run.
template <typename Handler>
int eachInputLine(Streams io, Handler handle) {
  int status = kExitOk;
  std::string line;
  for (size_t lineNo = 1; std::getline(io.in, line); ++lineNo) {
    std::string text = trimmed(line);
    if (text.empty()) continue;
    if (std::optional<std::string> error = handle(text)) {
      io.err << "keyscope-cli: line " << lineNo << ": " << *error << "\n";
      status = kExitBadInput;
    }
  }
  return status;
}

// Encodes one tuple; the error text says what and where.
Result<Bytes> encodeOne(const KeySchema& schema, const std::string& json) {
  auto tuple = tupleFromJson(schema, json);
  if (!tuple) return tuple.status();
  return encodeKey(schema, *tuple);
}

int encode(const KeySchema& schema, const Args& rest, Streams io) {
  if (rest.size() > 1) return badInput(io, "key encode takes one JSON array (or none, to read stdin)");
  if (rest.size() == 1) {
    auto key = encodeOne(schema, rest[0]);
    if (!key) return badInput(io, key.status().message());
    io.out << toHex(*key) << "\n";
    return kExitOk;
  }
  return eachInputLine(io, [&](const std::string& text) -> std::optional<std::string> {
    auto key = encodeOne(schema, text);
    if (!key) {
      io.out << "\n";  // keeps output lines aligned with input lines
      return key.status().message();
    }
    io.out << toHex(*key) << "\n";
    return std::nullopt;
  });
}

// Decodes one hex key: prints what decodes; returns the error text, if any.
std::optional<std::string> decodeOne(const KeySchema& schema, const std::string& hex, std::ostream& out) {
  size_t at = 0;
  auto key = fromHex(hex, &at);
  if (!key) {
    out << "[]\n";
    return "not hex: bad digit or odd digit count at character " + std::to_string(at + 1);
  }
  DecodedKey decoded = decodeKey(schema, *key);
  out << tupleToJson(schema, decoded.values) << "\n";
  if (decoded.error) return decoded.error->toString(schema);
  return std::nullopt;
}

int decode(const KeySchema& schema, const Args& rest, Streams io) {
  if (rest.size() > 1) return badInput(io, "key decode takes one hex key (or none, to read stdin)");
  if (rest.size() == 1) {
    if (auto error = decodeOne(schema, rest[0], io.out)) return badInput(io, *error);
    return kExitOk;
  }
  return eachInputLine(io, [&](const std::string& text) { return decodeOne(schema, text, io.out); });
}

int explain(const KeySchema& schema, const Args& rest, Streams io) {
  std::vector<Bytes> samples;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != "--samples" || i + 1 >= rest.size())
      return badInput(io, "key explain: unexpected argument '" + rest[i] + "' (expected --samples FILE)");
    const std::string& path = rest[++i];
    std::ifstream file;
    std::istream* in = &io.in;
    if (path != "-") {
      file.open(path);
      if (!file) return badInput(io, "cannot read samples file '" + path + "'");
      in = &file;
    }
    std::string line;
    for (size_t lineNo = 1; std::getline(*in, line); ++lineNo) {
      std::string text = trimmed(line);
      if (text.empty()) continue;
      size_t at = 0;
      auto key = fromHex(text, &at);
      if (!key)
        return badInput(io, path + ": line " + std::to_string(lineNo) + ": not a hex key (character " +
                                std::to_string(at + 1) + ")");
      samples.push_back(std::move(*key));
    }
  }
  io.out << explainKeySchema(schema, samples);
  return kExitOk;
}

}  // namespace

int runKeyCommand(const Args& args, Streams io) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? io.err : io.out) << kKeyUsage;
    return args.empty() ? kExitBadInput : kExitOk;
  }
  const std::string& verb = args[0];
  if (verb != "encode" && verb != "decode" && verb != "explain")
    return badInput(io, "unknown key command '" + verb + "' (encode, decode or explain)");
  if (args.size() < 2) return badInput(io, "key " + verb + " needs a SCHEMA (for example 'user:utf8 | ts:i64')");
  auto schema = KeySchema::parse(args[1]);
  if (!schema) return badInput(io, "schema: " + schema.status().message());
  Args rest(args.begin() + 2, args.end());
  if (verb == "encode") return encode(*schema, rest, io);
  if (verb == "decode") return decode(*schema, rest, io);
  return explain(*schema, rest, io);
}

}  // namespace keyscope::cli
