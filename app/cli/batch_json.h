// The batch API's JSON vocabulary (docs/BATCH-API.md): byte arguments, family
// options, read options and mutations in; cells, rows and reports out.
// Every reader returns InvalidArgument naming the field at fault.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "keyscope/byte_format.h"
#include "keyscope/options.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

using json = nlohmann::ordered_json;  // answers keep their fields in the documented order

enum class ByteRendering { kStringBinary, kHex };

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
