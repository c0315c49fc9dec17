// libFuzzer target: a log slot's stored bytes - readLogSlot and
// buildLogFrames (engine/log_slots.h), what every open reads.
//
// Input: byte 0 picks the mode:
//   even  the rest is a slot's bytes as stored (slot id 1)
//   odd   byte 1 picks the slot's capacity; the rest describes records (a
//         byte of length, then that many bytes), which the harness writes
//         one after another as append does until the input ends or one
//         does not fit; then it flips one bit of a frame header, the frame
//         and the bit named by the two bytes after the record that did not
//         fit (0 and 0 when the input has ended: the first frame's first bit)
//
// Checks: no crash or out-of-bounds read (ASan/UBSan); the frames read lie
// inside the slot, one after another from its start, and reading stops at
// `end`, inside the slot; a slot read to its end frame has one there; the
// frames the harness wrote read back exactly, and a flipped bit in a frame
// header is damage at that frame, never a frame of other bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/big_endian.h"
#include "engine/log_slots.h"
#include "fuzz_input.h"

namespace {

namespace engine = keyscope::engine;

using keyscope::fuzz::fail;
using keyscope::fuzz::Input;

constexpr uint32_t kHeader = engine::LogSlots::kFrameHeaderBytes;
constexpr int64_t kSlotId = 1;

void checkShape(const std::string& slot, const engine::LogSlotContents& read) {
  uint32_t at = 0;
  for (const auto& frame : read.frames) {
    if (frame.offset != at + kHeader) fail("a frame does not follow the one before");
    if (frame.offset + static_cast<uint64_t>(frame.length) + kHeader > slot.size()) fail("a frame runs past the slot");
    at = frame.offset + frame.length;
  }
  if (read.end != at) fail("reading stopped elsewhere than after the last frame");
  if (read.damage.empty()) {
    if (read.end + static_cast<uint64_t>(kHeader) > slot.size()) fail("the end frame lies past the slot");
    if (engine::loadBigEndian32(slot.data() + read.end) != 0 || engine::loadBigEndian64(slot.data() + read.end + 4) != 0)
      fail("a slot read to its end has no end frame there");
  }
}

// Records as append writes them, one after another, into a slot of
// `capacity` bytes (as many as fit); returns the slot and the records.
std::string writeRecords(Input& in, uint32_t capacity, std::vector<std::string>* records) {
  std::string slot(capacity, '\0');
  std::string frames;
  uint32_t offset = 0;
  engine::buildLogFrames(&frames, kSlotId, offset, 0, {});  // an empty slot: its end frame alone
  frames.resize(kHeader);
  slot.replace(0, kHeader, frames);
  for (int64_t seq = 1; !in.empty(); ++seq) {
    std::string record = in.bytes(in.byte());
    if (offset + record.size() + 2 * kHeader > capacity) break;
    engine::buildLogFrames(&frames, kSlotId, offset, seq, record);
    slot.replace(offset, frames.size(), frames);
    offset += kHeader + static_cast<uint32_t>(record.size());
    records->push_back(std::move(record));
  }
  return slot;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  if (size > 0 && (data[0] & 1) == 0) {
    in.byte();
    const std::string slot = in.bytes(size);
    checkShape(slot, engine::readLogSlot(kSlotId, slot));
    return 0;
  }
  in.byte();
  const uint32_t capacity = kHeader + 64u * (1u + in.byte());  // up to about 16 KiB
  std::vector<std::string> records;
  std::string slot = writeRecords(in, capacity, &records);
  const engine::LogSlotContents read = engine::readLogSlot(kSlotId, slot);
  checkShape(slot, read);
  if (!read.damage.empty()) fail("a slot as written is damaged: " + read.damage);
  if (read.frames.size() != records.size()) fail("a record written was not read back");
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& frame = read.frames[i];
    if (frame.seq != static_cast<int64_t>(i + 1) || slot.compare(frame.offset, frame.length, records[i]) != 0)
      fail("a record read back differs from the one written");
  }
  // One bit flipped in a frame header (the end frame's included): the read
  // stops there as damage, with the frames before it intact.
  const size_t frameCount = read.frames.size() + 1;
  const size_t frame = in.byte() % frameCount;
  const uint32_t headerAt = frame < read.frames.size() ? read.frames[frame].offset - kHeader : read.end;
  const uint8_t bit = in.byte();
  slot[headerAt + (bit >> 3) % kHeader] ^= static_cast<char>(1 << (bit & 7));
  const engine::LogSlotContents damaged = engine::readLogSlot(kSlotId, slot);
  checkShape(slot, damaged);
  if (damaged.damage.empty() || damaged.end != headerAt || damaged.frames.size() != frame)
    fail("a flipped bit in a frame header was not damage at that frame");
  return 0;
}
