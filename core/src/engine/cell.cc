#include "keyscope/cell.h"
#include "keyscope/read_report.h"

namespace keyscope {

const char* cellTypeName(CellType type) {
  switch (type) {
    case CellType::kPut: return "Put";
    case CellType::kDelete: return "Delete";
    case CellType::kDeleteFamilyVersion: return "DeleteFamilyVersion";
    case CellType::kDeleteColumn: return "DeleteColumn";
    case CellType::kDeleteFamily: return "DeleteFamily";
  }
  return "Unknown";
}

bool isDeleteType(CellType type) { return type != CellType::kPut; }

bool isFamilyDeleteType(CellType type) {
  return type == CellType::kDeleteFamily || type == CellType::kDeleteFamilyVersion;
}

void ReadReport::add(const ReadReport& other) {
  regionsVisited += other.regionsVisited;
  storeFilesConsidered += other.storeFilesConsidered;
  storeFilesSkippedByKeyRange += other.storeFilesSkippedByKeyRange;
  storeFilesSkippedByTimeRange += other.storeFilesSkippedByTimeRange;
  storeFilesSkippedByBloom += other.storeFilesSkippedByBloom;
  memstoresRead += other.memstoresRead;
  pagesRead += other.pagesRead;
  pageCacheHits += other.pageCacheHits;
  bytesReadFromStorage += other.bytesReadFromStorage;
  bytesDecompressed += other.bytesDecompressed;
  cellsExamined += other.cellsExamined;
  cellsReturned += other.cellsReturned;
  rowsReturned += other.rowsReturned;
  elapsedMicros += other.elapsedMicros;
}

}  // namespace keyscope
