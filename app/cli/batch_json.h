// The batch API's JSON vocabulary (docs/BATCH-API.md): byte arguments, family
// options, read options and mutations in; cells, rows and reports out.
// Every reader returns InvalidArgument naming the field at fault.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/byte_format.h"
#include "keyscope/options.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

using json = nlohmann::ordered_json;  // answers keep their fields in the documented order

enum class ByteRendering { kStringBinary, kHex };

// InvalidArgument naming the first field of `object` that `known` does not
// list ("'cells[0].value': unknown field (known: f, q, ts, v)"); OK when it
// lists them all. A misspelt option would otherwise be ignored, and the
// operation run without it. `where` prefixes the field's name ("" at the top
// level of an operation).
Status checkKnownFields(const json& object, const std::vector<std::string_view>& known, const std::string& where);

// The fields of the read options every get and scan takes (docs/BATCH-API.md).
inline const std::vector<std::string_view> kReadOptionFields = {
    "columns", "families", "max_versions", "time_range", "timestamp", "max_results_per_family",
    "row_offset_per_family", "cache_blocks", "now", "filter"};

// The fields of a put or delete inside a mutate or check_and_mutate. A
// "table" there must name the operation's own table (a put or delete copied
// in whole may carry it); BatchSession checks that.
inline const std::vector<std::string_view> kPutFields = {"op", "table", "row", "cells"};
inline const std::vector<std::string_view> kDeleteFields = {"op", "table", "row", "ts", "specs"};

// op[field] as an integer in [min, max]; `fallback` when it is absent or null.
Result<int64_t> intField(const json& op, const std::string& field, int64_t fallback, int64_t min, int64_t max);
// op[field] as true or false; `fallback` when it is absent or null.
Result<bool> boolField(const json& op, const std::string& field, bool fallback);

// A JSON string (its UTF-8 bytes), {"hex":"00ff"}, {"long":N} (8-byte
// big-endian) or {"int":N} (4-byte big-endian).
Result<Bytes> bytesFromJson(const json& value, const std::string& field);
json bytesToJson(BytesView bytes, ByteRendering rendering);
ByteFormat byteFormatOf(ByteRendering rendering);

Result<TableOptions> tableFromJson(const json& op);
json tableToJson(const TableOptions& table);
Result<Mutation> putFromJson(const json& op);
Result<Mutation> deleteFromJson(const json& op);
Result<Mutation> mutationFromJson(const json& op);  // by its "op": put or delete
Result<WriteOptions> writeOptionsFromJson(const json& op);
Result<GetOptions> getFromJson(const json& op);
Result<ScanOptions> scanFromJson(const json& op);

json cellToJson(const Cell& cell, ByteRendering rendering);
json rowToJson(BytesView row, const std::vector<Cell>& cells, ByteRendering rendering);
json reportToJson(const ReadReport& report);

}  // namespace keyscope::cli
