#include "engine/catalog_checksum.h"

#include <xxhash.h>

#include "engine/store_file_format.h"

namespace keyscope::engine {

namespace fmt = format;

RowChecksum::RowChecksum(std::string_view table) {
  fmt::putVarint64(&m_encoded, table.size());
  m_encoded.append(table);
}

RowChecksum& RowChecksum::add(int64_t value) {
  m_encoded.push_back('i');
  fmt::putBigEndian64(&m_encoded, static_cast<uint64_t>(value));
  return *this;
}

RowChecksum& RowChecksum::add(std::string_view bytes) {
  m_encoded.push_back('b');
  fmt::putVarint64(&m_encoded, bytes.size());
  m_encoded.append(bytes);
  return *this;
}

RowChecksum& RowChecksum::addNull() {
  m_encoded.push_back('n');
  return *this;
}

int64_t RowChecksum::value() const { return static_cast<int64_t>(XXH3_64bits(m_encoded.data(), m_encoded.size())); }

int64_t tableRowChecksum(int64_t tableId, std::string_view name, std::string_view optionsJson) {
  return RowChecksum("tables").add(tableId).add(name).add(optionsJson).value();
}

int64_t regionRowChecksum(const RegionRecord& r) {
  return RowChecksum("regions")
      .add(r.id)
      .add(r.tableId)
      .add(r.startRow)
      .add(r.endRow)
      .add(r.flushedSeq)
      .add(int64_t{r.server})
      .value();
}

int64_t regionHistoryRowChecksum(const RegionHistoryRecord& h) {
  RowChecksum sum("region_history");
  sum.add(h.regionId).add(h.tableId).add(h.startRow).add(h.endRow).add(h.createdMillis);
  if (h.retiredMillis) {
    sum.add(*h.retiredMillis);
  } else {
    sum.addNull();
  }
  sum.add(static_cast<int64_t>(h.parents.size()));
  for (const int64_t parent : h.parents) sum.add(parent);
  return sum.add(static_cast<int64_t>(h.origin)).add(h.splitRow).value();
}

int64_t storeFileRowChecksum(int64_t fileId, int64_t regionId, std::string_view family, int64_t maxSeq) {
  return RowChecksum("store_files").add(fileId).add(regionId).add(family).add(maxSeq).value();
}

int64_t droppedFamilyRowChecksum(int64_t tableId, std::string_view family, int64_t seq) {
  return RowChecksum("dropped_families").add(tableId).add(family).add(seq).value();
}

int64_t settingRowChecksum(std::string_view key, std::string_view value) {
  return RowChecksum("settings").add(key).add(value).value();
}

}  // namespace keyscope::engine
