// libFuzzer target: log records - decodeLogRecord and LogRecordBuilder
// (engine/wal_record.h).
//
// Input: byte 0 picks the mode:
//   even  the rest is a record's body (its version byte first) as is; the
//         harness appends the checksum the version gives it for sequence
//         number kSeq, so the entry parsing is reached, not only the checksum
//   odd   the rest describes entries (see readEntries), which the builder
//         writes as one record
//
// Checks: no crash or out-of-bounds read (ASan/UBSan); a failure is a
// Corruption naming the record; whatever decodes, written again by the
// builder, decodes to the same entries; a record the builder wrote decodes
// to exactly its entries, fails under any other sequence number, and fails
// with any one byte changed.
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/internal_key.h"
#include "engine/wal_record.h"
#include "keyscope/bytes.h"
#include "keyscope/cell.h"
#include "fuzz_input.h"

namespace {

namespace engine = keyscope::engine;

constexpr int64_t kSeq = 5;

using keyscope::fuzz::fail;
using keyscope::fuzz::Input;

// The body with the checksum its version byte calls for (wal_record.h).
std::string sealed(std::string body, int64_t seq) {
  const uint64_t sum = !body.empty() && body[0] == 1
                           ? XXH3_64bits(body.data(), body.size())
                           : XXH3_64bits_withSeed(body.data(), body.size(), static_cast<uint64_t>(seq));
  for (int shift = 56; shift >= 0; shift -= 8) body.push_back(static_cast<char>((sum >> shift) & 0xff));
  return body;
}

const char* const kFamilies[] = {"d", "family", ""};
const keyscope::CellType kTypes[] = {keyscope::CellType::kPut, keyscope::CellType::kDelete,
                                     keyscope::CellType::kDeleteColumn, keyscope::CellType::kDeleteFamily};

// Per entry, a first byte: bits 0-1 the region, bits 2-7 modulo 3 the
// family, bit 4 whether the row extends the one before (keeping as many of
// its bytes as the next byte says), bits 5-7 the timestamp (in thousands)
// and bits 5-6 the type. Then the row's new bytes and the value, each led
// by a length byte (the value's also gives the one-byte qualifier). Keys are
// internal keys, as the engine only logs such keys.
std::vector<engine::LogEntry> readEntries(Input& in) {
  std::vector<engine::LogEntry> entries;
  std::string row;
  while (!in.empty() && entries.size() < 64) {
    const uint8_t pick = in.byte();
    if ((pick & 0x10) != 0) {
      row.resize(std::min<size_t>(row.size(), in.byte()));
    } else {
      row.clear();
    }
    row += in.bytes(in.byte() % 24);
    const uint8_t valueLength = in.byte();
    engine::LogEntry entry;
    entry.regionId = pick & 3;
    entry.family = kFamilies[(pick >> 2) % 3];
    entry.key = engine::internalKey(row, std::string(1, static_cast<char>(valueLength & 7)), (pick >> 5) * 1000,
                                    kTypes[(pick >> 5) & 3]);
    entry.value = keyscope::Bytes(in.bytes(valueLength % 40));
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string build(const std::vector<engine::LogEntry>& entries, int64_t seq) {
  engine::LogRecordBuilder builder(entries.size());
  for (const engine::LogEntry& e : entries) builder.add(e.regionId, e.family, e.key, e.value);
  return std::move(builder).finish(seq);
}

void expectSame(const std::vector<engine::LogEntry>& a, const std::vector<engine::LogEntry>& b, const char* what) {
  if (a.size() != b.size()) fail(std::string(what) + ": entry count differs");
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].regionId != b[i].regionId || a[i].family != b[i].family || a[i].key != b[i].key ||
        a[i].value != b[i].value)
      fail(std::string(what) + ": entry " + std::to_string(i) + " differs");
  }
}

keyscope::Result<std::vector<engine::LogEntry>> decode(int64_t seq, const std::string& record) {
  keyscope::Result<std::vector<engine::LogEntry>> entries = engine::decodeLogRecord(seq, record);
  if (!entries) {
    const std::string prefix = "log record " + std::to_string(seq) + ": ";
    if (entries.status().code() != keyscope::Status::Code::kCorruption ||
        entries.status().message().compare(0, prefix.size(), prefix) != 0)
      fail("a failure that is not a Corruption naming the record: " + entries.status().toString());
  }
  return entries;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  Input in(data + 1, size - 1);
  if ((data[0] & 1) == 0) {
    const std::string record = sealed(in.bytes(size - 1), kSeq);
    const auto entries = decode(kSeq, record);
    if (!entries) return 0;
    const auto again = decode(kSeq, build(*entries, kSeq));
    if (!again) fail("entries that decoded do not decode once written again: " + again.status().toString());
    expectSame(*entries, *again, "written again");
    return 0;
  }
  const std::vector<engine::LogEntry> entries = readEntries(in);
  const std::string record = build(entries, kSeq);
  const auto read = decode(kSeq, record);
  if (!read) fail("a record the builder wrote does not decode: " + read.status().toString());
  expectSame(entries, *read, "read back");
  if (decode(kSeq + 1, record)) fail("a record decodes under another sequence number");
  std::string damaged = record;
  const size_t at = (static_cast<size_t>(data[0]) * 31 + size) % damaged.size();
  damaged[at] = static_cast<char>(damaged[at] ^ (1 << (data[0] >> 5)));
  if (decode(kSeq, damaged)) fail("a record with byte " + std::to_string(at) + " changed decodes");
  return 0;
}
