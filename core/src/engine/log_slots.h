// LogSlots: where the write-ahead log's records are stored (workspace format
// 8): BLOB rows of the wal_slots table, each an area of fixed capacity that
// holds records one after another and is overwritten in place once every
// record in it is flushed.
//
// Why: a record stored as a row of its own (the wal table, formats up to 7)
// costs SQLite an allocation of its overflow pages when it is written and a
// walk of them to free them when its cells are flushed, all under the
// workspace's one write transaction at a time. A slot's pages are allocated
// once and rewritten where they are (sqlite3_blob_write): a record costs the
// pages it covers and nothing else, and truncating the log is a number.
//
// A slot is a sequence of frames, then an end frame:
//   frame:  length u32 | seq u64 | header checksum u32 | record (length bytes)
//   end:    0 u32      | 0 u64   | header checksum u32
// all big-endian. The header checksum covers the slot's id, the frame's
// offset, length and seq, so a frame copied or moved to another place fails
// it. What follows the end frame is left over from the slot's earlier use
// and never read. A frame whose seq is at or below the log's truncation
// point (Catalog's "log_truncated_through" setting, saved in the flush's own
// transaction) holds cells that are in store files: its slot is free once
// all of its frames are. seq 0 marks a record dropped by a repair.
//
// A record goes after the last one written when it fits there, else into
// the smallest free slot it fits, else into a new slot of its size rounded
// up to the workspace's 8 KiB pages (so a new slot costs the pages its first
// record needs anyway, and a full disk refuses no record that it would have
// taken as a row of its own). When the whole log is truncated (every record
// flushed) and the slots hold more than kKeptWhenEmpty, they are deleted,
// so a workspace keeps no log space a large load once needed.
//
// Transactions: append, truncateThrough and drop change the table inside
// the caller's transaction and this object at once; the caller ends every
// transaction with committed() or rolledBack(), which undoes the in-memory
// changes made since its start.
//
// Threads: the Catalog's (one at a time, under the workspace's database
// mutex).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::engine {

class LogSlots {
 public:
  static constexpr uint32_t kFrameHeaderBytes = 16;
  static constexpr uint32_t kCapacityRounding = 8 << 10;
  static constexpr uint64_t kKeptWhenEmpty = 1 << 20;

  // path: the workspace's, for messages.
  LogSlots(sqlite3* db, std::string path) : m_db(db), m_path(std::move(path)) {}

  // Where a slot's frames cannot be read: the records before `offset` are
  // read, those from it on are not.
  struct Damage {
    int64_t slot = 0;
    uint32_t offset = 0;
    std::string message;  // names the workspace, the slot and the byte
  };

  // Reads every slot's frames (once, before anything else). A slot whose
  // frames cannot be read is read up to there and listed in damage().
  Status load(int64_t truncatedThrough);
  bool loaded() const { return m_loaded; }
  const std::vector<Damage>& damage() const { return m_damage; }

  // The highest seq of any frame read or written, dead ones included.
  int64_t maxSeq() const { return m_maxSeq; }
  // The bytes of all slots together.
  uint64_t capacityBytes() const;
  int64_t truncatedThrough() const { return m_truncatedThrough; }

  // The records above the truncation point, in seq order (each read from
  // its slot as it is visited); stops at the first error.
  Status forEachLive(const std::function<Status(int64_t seq, BytesView record)>& visit);

  // REQUIRES: seq above every seq appended before; a transaction open.
  Status append(int64_t seq, BytesView record);
  // Every record at or below seq is flushed. REQUIRES: a transaction open.
  Status truncateThrough(int64_t seq);
  // Marks the record numbered seq dropped (keyscope-cli check --repair);
  // not found is not an error. REQUIRES: a transaction open.
  Status drop(int64_t seq);
  // Ends the slot at `offset`, where damage() says its frames cannot be read
  // (keyscope-cli check --repair): the records from there on are lost.
  // REQUIRES: a transaction open.
  Status cut(int64_t slotId, uint32_t offset);

  void committed() { m_undo.clear(); }
  void rolledBack();

 private:
  struct Slot {
    int64_t id = 0;
    uint32_t capacity = 0;
    uint32_t end = 0;     // offset of the end frame
    int64_t maxSeq = 0;   // of the frames before `end`; 0: none
  };
  struct Live {
    int64_t seq = 0;
    size_t slot = 0;  // index into m_slots
    uint32_t offset = 0;  // of the record, past its frame header
    uint32_t length = 0;
  };

  bool isFree(const Slot& slot) const { return slot.maxSeq <= m_truncatedThrough; }
  // A slot for `bytes` more (frames included): the head, a free one, or a new
  // one; sets *offset to where they go.
  Result<size_t> slotFor(uint32_t bytes, uint32_t* offset);
  Status write(const Slot& slot, uint32_t offset, BytesView bytes, const char* what);
  Status deleteAll();
  std::string where(const Slot& slot, uint32_t offset) const;

  sqlite3* m_db;
  std::string m_path;
  bool m_loaded = false;
  std::vector<Slot> m_slots;
  std::deque<Live> m_live;  // in seq order
  std::vector<Damage> m_damage;
  size_t m_head = SIZE_MAX;  // the slot written last
  int64_t m_truncatedThrough = 0;
  int64_t m_maxSeq = 0;
  std::string m_frame;  // reused buffer
  std::vector<std::function<void()>> m_undo;  // since the transaction began
};

// The header checksum of a frame (log_slots.h). Exposed for tests that
// build or damage slots by hand.
uint32_t logFrameChecksum(int64_t slotId, uint32_t offset, uint32_t length, int64_t seq);

// One slot's stored bytes, read: its frames up to the end frame, or up to
// where they cannot be read. Pure; what LogSlots::load does to each slot.
struct LogSlotContents {
  struct Frame {
    int64_t seq = 0;
    uint32_t offset = 0;  // of the record, past its frame header
    uint32_t length = 0;
  };
  std::vector<Frame> frames;
  uint32_t end = 0;     // where the end frame is, or where reading stopped
  std::string damage;   // empty: read to a valid end frame; else what is wrong at `end`
};
LogSlotContents readLogSlot(int64_t slotId, BytesView data);

// A record's frame and the end frame after it, as append writes them at
// `offset` of slot `slotId` (replacing *out).
void buildLogFrames(std::string* out, int64_t slotId, uint32_t offset, int64_t seq, BytesView record);

}  // namespace keyscope::engine
