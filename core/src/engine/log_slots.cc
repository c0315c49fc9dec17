#include "engine/log_slots.h"

#include <xxhash.h>

#include <algorithm>
#include <limits>

#include "engine/big_endian.h"
#include "engine/sqlite_util.h"

namespace keyscope::engine {

namespace {

void putFrameHeader(char* out, int64_t slotId, uint32_t offset, uint32_t length, int64_t seq) {
  storeBigEndian32(out, length);
  storeBigEndian64(out + 4, static_cast<uint64_t>(seq));
  storeBigEndian32(out + 12, logFrameChecksum(slotId, offset, length, seq));
}

}  // namespace

void buildLogFrames(std::string* out, int64_t slotId, uint32_t offset, int64_t seq, BytesView record) {
  out->clear();
  const auto length = static_cast<uint32_t>(record.size());
  out->resize(LogSlots::kFrameHeaderBytes);
  putFrameHeader(out->data(), slotId, offset, length, seq);
  out->append(record);
  const size_t end = out->size();
  out->resize(end + LogSlots::kFrameHeaderBytes);
  putFrameHeader(out->data() + end, slotId, offset + static_cast<uint32_t>(end), 0, 0);
}

LogSlotContents readLogSlot(int64_t slotId, BytesView data) {
  constexpr uint32_t kHeader = LogSlots::kFrameHeaderBytes;
  LogSlotContents slot;
  const auto capacity = static_cast<uint32_t>(std::min<size_t>(data.size(), std::numeric_limits<uint32_t>::max()));
  uint32_t offset = 0;
  while (true) {
    slot.end = offset;
    if (capacity - offset < kHeader) {
      slot.damage = "the slot ends without an end frame";
      return slot;
    }
    const char* header = data.data() + offset;
    const uint32_t length = loadBigEndian32(header);
    const auto seq = static_cast<int64_t>(loadBigEndian64(header + 4));
    if (loadBigEndian32(header + 12) != logFrameChecksum(slotId, offset, length, seq)) {
      slot.damage = "a record's frame fails its checksum";
      return slot;
    }
    if (length == 0 && seq == 0) return slot;  // the end frame
    const uint32_t room = capacity - offset - kHeader;  // for the record and an end frame
    if (length > room || room - length < kHeader) {
      slot.damage = "a record of " + std::to_string(length) + " bytes runs past the slot's end";
      return slot;
    }
    slot.frames.push_back({seq, offset + kHeader, length});
    offset += kHeader + length;
  }
}

uint32_t logFrameChecksum(int64_t slotId, uint32_t offset, uint32_t length, int64_t seq) {
  char fields[24];
  storeBigEndian64(fields, static_cast<uint64_t>(slotId));
  storeBigEndian32(fields + 8, offset);
  storeBigEndian32(fields + 12, length);
  storeBigEndian64(fields + 16, static_cast<uint64_t>(seq));
  return static_cast<uint32_t>(XXH3_64bits(fields, sizeof fields));
}

std::string LogSlots::where(const Slot& slot, uint32_t offset) const {
  return m_path + ": log slot " + std::to_string(slot.id) + ", byte " + std::to_string(offset);
}

Status LogSlots::load(int64_t truncatedThrough) {
  m_slots.clear();
  m_live.clear();
  m_damage.clear();
  m_head = SIZE_MAX;
  m_truncatedThrough = truncatedThrough;
  m_maxSeq = 0;
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT slot, data FROM wal_slots ORDER BY slot"); !s) return s;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    Slot slot;
    slot.id = st.columnInt(0);
    const BytesView data = st.columnBlob(1);
    slot.capacity = static_cast<uint32_t>(std::min<size_t>(data.size(), std::numeric_limits<uint32_t>::max()));
    const size_t index = m_slots.size();
    const LogSlotContents contents = readLogSlot(slot.id, data);
    for (const LogSlotContents::Frame& frame : contents.frames) {
      if (frame.seq > truncatedThrough) m_live.push_back({frame.seq, index, frame.offset, frame.length});
      slot.maxSeq = std::max(slot.maxSeq, frame.seq);
      m_maxSeq = std::max(m_maxSeq, frame.seq);
    }
    slot.end = contents.end;
    if (!contents.damage.empty()) {
      m_damage.push_back({slot.id, contents.end, where(slot, contents.end) + ": " + contents.damage});
      slot.maxSeq = std::numeric_limits<int64_t>::max();  // never reused as it is
    }
    m_slots.push_back(slot);
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading the log's slots");
  std::sort(m_live.begin(), m_live.end(), [](const Live& a, const Live& b) { return a.seq < b.seq; });
  // Writing goes on after the newest record.
  if (!m_live.empty()) m_head = m_live.back().slot;
  m_loaded = true;
  return Status::ok();
}

uint64_t LogSlots::capacityBytes() const {
  uint64_t total = 0;
  for (const Slot& slot : m_slots) total += slot.capacity;
  return total;
}

Status LogSlots::forEachLive(const std::function<Status(int64_t, BytesView)>& visit) {
  sqlite3_blob* blob = nullptr;
  std::string record;
  Status status;
  for (const Live& live : m_live) {
    const Slot& slot = m_slots[live.slot];
    const int rc = blob == nullptr ? sqlite3_blob_open(m_db, "main", "wal_slots", "data", slot.id, 0, &blob)
                                   : sqlite3_blob_reopen(blob, slot.id);
    record.resize(live.length);
    if (rc != SQLITE_OK ||
        sqlite3_blob_read(blob, record.data(), static_cast<int>(live.length), static_cast<int>(live.offset)) !=
            SQLITE_OK) {
      status = Status::ioError(where(slot, live.offset) + ": reading log record " + std::to_string(live.seq) +
                               ": " + sqlite3_errmsg(m_db));
      break;
    }
    if (status = visit(live.seq, record); !status) break;
  }
  sqlite3_blob_close(blob);
  return status;
}

Result<size_t> LogSlots::slotFor(uint32_t bytes, uint32_t* offset) {
  if (m_head != SIZE_MAX) {
    const Slot& head = m_slots[m_head];
    // The end frame is overwritten by the new frames, which end in one.
    if (head.capacity - head.end >= bytes) {
      *offset = head.end;
      return m_head;
    }
  }
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < m_slots.size(); ++i) {
    const Slot& slot = m_slots[i];
    if (isFree(slot) && slot.capacity >= bytes && (best == SIZE_MAX || slot.capacity < m_slots[best].capacity))
      best = i;
  }
  *offset = 0;
  if (best != SIZE_MAX) return best;

  Slot slot;
  slot.id = m_slots.empty() ? 1 : m_slots.back().id + 1;
  slot.capacity = (bytes + kCapacityRounding - 1) / kCapacityRounding * kCapacityRounding;
  Statement insert;
  if (Status s = insert.prepare(m_db, "INSERT INTO wal_slots(slot, data) VALUES(?, zeroblob(?))"); !s) return s;
  insert.bindInt(1, slot.id);
  insert.bindInt(2, slot.capacity);
  if (Status s = insert.run("adding a slot to the log"); !s) return s;
  m_slots.push_back(slot);
  m_undo.push_back([this] { m_slots.pop_back(); });
  return m_slots.size() - 1;
}

Status LogSlots::write(const Slot& slot, uint32_t offset, BytesView bytes, const char* what) {
  sqlite3_blob* blob = nullptr;
  int rc = sqlite3_blob_open(m_db, "main", "wal_slots", "data", slot.id, 1, &blob);
  if (rc == SQLITE_OK)
    rc = sqlite3_blob_write(blob, bytes.data(), static_cast<int>(bytes.size()), static_cast<int>(offset));
  Status status = rc == SQLITE_OK ? Status::ok() : sqliteError(m_db, rc, what);
  sqlite3_blob_close(blob);
  return status;
}

Status LogSlots::append(int64_t seq, BytesView record) {
  if (record.size() > std::numeric_limits<uint32_t>::max() - 3 * kFrameHeaderBytes - kCapacityRounding)
    return Status::invalidArgument("a log record of " + std::to_string(record.size()) + " bytes is too large");
  const auto bytes = static_cast<uint32_t>(record.size() + 2 * kFrameHeaderBytes);
  uint32_t offset = 0;
  Result<size_t> index = slotFor(bytes, &offset);
  if (!index) return index.status();
  Slot& slot = m_slots[*index];
  buildLogFrames(&m_frame, slot.id, offset, seq, record);
  if (Status s = write(slot, offset, m_frame, "appending to the log"); !s) return s;

  m_undo.push_back([this, index = *index, before = slot, head = m_head, maxSeq = m_maxSeq] {
    m_slots[index] = before;
    m_head = head;
    m_maxSeq = maxSeq;
    m_live.pop_back();
  });
  slot.end = offset + kFrameHeaderBytes + static_cast<uint32_t>(record.size());
  // A slot used again starts over: its earlier records are all flushed.
  slot.maxSeq = offset == 0 ? seq : std::max(slot.maxSeq, seq);
  m_head = *index;
  m_maxSeq = std::max(m_maxSeq, seq);
  m_live.push_back({seq, *index, offset + kFrameHeaderBytes, static_cast<uint32_t>(record.size())});
  return Status::ok();
}

Status LogSlots::truncateThrough(int64_t seq) {
  if (seq <= m_truncatedThrough) return Status::ok();
  std::vector<Live> gone;
  while (!m_live.empty() && m_live.front().seq <= seq) {
    gone.push_back(m_live.front());
    m_live.pop_front();
  }
  m_undo.push_back([this, gone = std::move(gone), before = m_truncatedThrough] {
    m_live.insert(m_live.begin(), gone.begin(), gone.end());
    m_truncatedThrough = before;
  });
  m_truncatedThrough = seq;
  if (seq >= m_maxSeq && capacityBytes() > kKeptWhenEmpty) return deleteAll();
  return Status::ok();
}

Status LogSlots::deleteAll() {
  if (Status s = execSql(m_db, "DELETE FROM wal_slots", "giving the log's space back"); !s) return s;
  m_undo.push_back([this, slots = m_slots, head = m_head] {
    m_slots = slots;
    m_head = head;
  });
  m_slots.clear();
  m_head = SIZE_MAX;
  return Status::ok();
}

Status LogSlots::drop(int64_t seq) {
  const auto it = std::find_if(m_live.begin(), m_live.end(), [seq](const Live& l) { return l.seq == seq; });
  if (it == m_live.end()) return Status::ok();
  const Slot& slot = m_slots[it->slot];
  char header[kFrameHeaderBytes];
  const uint32_t frame = it->offset - kFrameHeaderBytes;
  putFrameHeader(header, slot.id, frame, it->length, 0);
  if (Status s = write(slot, frame, BytesView(header, sizeof header), "dropping a log record"); !s) return s;
  const Live before = *it;
  m_live.erase(it);
  m_undo.push_back([this, before] {
    const auto at = std::lower_bound(m_live.begin(), m_live.end(), before.seq,
                                     [](const Live& l, int64_t s) { return l.seq < s; });
    m_live.insert(at, before);
  });
  return Status::ok();
}

Status LogSlots::cut(int64_t slotId, uint32_t offset) {
  const auto slot = std::find_if(m_slots.begin(), m_slots.end(), [slotId](const Slot& s) { return s.id == slotId; });
  if (slot == m_slots.end()) return Status::ok();
  if (slot->capacity < kFrameHeaderBytes || offset > slot->capacity - kFrameHeaderBytes) {
    // No room for an end frame: the slot goes (its readable records with it,
    // which a slot this short cannot hold).
    Statement erase;
    if (Status s = erase.prepare(m_db, "DELETE FROM wal_slots WHERE slot = ?"); !s) return s;
    erase.bindInt(1, slotId);
    if (Status s = erase.run("deleting a damaged log slot"); !s) return s;
    m_loaded = false;
    return Status::ok();
  }
  char end[kFrameHeaderBytes];
  putFrameHeader(end, slotId, offset, 0, 0);
  if (Status s = write(*slot, offset, BytesView(end, sizeof end), "ending a damaged log slot"); !s) return s;
  m_loaded = false;  // read again when next used
  return Status::ok();
}

void LogSlots::rolledBack() {
  for (auto it = m_undo.rbegin(); it != m_undo.rend(); ++it) (*it)();
  m_undo.clear();
}

}  // namespace keyscope::engine
