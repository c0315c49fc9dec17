// readReportText (see read_report_text.h).
#include "console/read_report_text.h"

#include <QLocale>
#include <QStringList>

namespace keyscope {

namespace {

QString count(uint64_t n, const char* one, const char* many) {
  return n == 1 ? QStringLiteral("1 %1").arg(QLatin1String(one))
                : QStringLiteral("%L1 %2").arg(n).arg(QLatin1String(many));
}

QString bytes(uint64_t n) {
  return QLocale().formattedDataSize(static_cast<qint64>(n), 1, QLocale::DataSizeTraditionalFormat);
}

QString percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return {};
  return QStringLiteral(" (%1%)").arg(100.0 * static_cast<double>(part) / static_cast<double>(whole), 0, 'f', 0);
}

}  // namespace

QString readReportText(const ReadReport& r) {
  QStringList lines;
  lines << QStringLiteral("Regions visited: %L1").arg(r.regionsVisited);
  const uint64_t skipped = uint64_t{r.storeFilesSkippedByKeyRange} + r.storeFilesSkippedByTimeRange +
                           r.storeFilesSkippedByBloom;
  const uint64_t read = r.storeFilesConsidered >= skipped ? r.storeFilesConsidered - skipped : 0;
  QString files = QStringLiteral("Store files: %L1 considered, %L2 read, %L3 skipped")
                      .arg(r.storeFilesConsidered)
                      .arg(read)
                      .arg(skipped);
  if (skipped > 0) {
    QStringList why;
    if (r.storeFilesSkippedByKeyRange) why << QStringLiteral("%L1 outside the key range").arg(r.storeFilesSkippedByKeyRange);
    if (r.storeFilesSkippedByTimeRange) why << QStringLiteral("%L1 outside the time range").arg(r.storeFilesSkippedByTimeRange);
    if (r.storeFilesSkippedByBloom) why << QStringLiteral("%L1 by the bloom filter").arg(r.storeFilesSkippedByBloom);
    files += QStringLiteral(" (%1)").arg(why.join(QStringLiteral(", ")));
  }
  lines << files;
  lines << QStringLiteral("Memstores read: %L1").arg(r.memstoresRead);
  lines << QStringLiteral("Pages: %1, %L2 from the page cache%3")
               .arg(count(r.pagesRead, "read", "read"))
               .arg(r.pageCacheHits)
               .arg(percent(r.pageCacheHits, r.pagesRead));
  lines << QStringLiteral("Bytes: %1 fetched from storage (compressed), %2 decompressed")
               .arg(bytes(r.bytesReadFromStorage), bytes(r.bytesDecompressed));
  lines << QStringLiteral("Cells: %L1 examined, %L2 returned%3")
               .arg(r.cellsExamined)
               .arg(r.cellsReturned)
               .arg(percent(r.cellsReturned, r.cellsExamined));
  lines << QStringLiteral("Rows returned: %L1").arg(r.rowsReturned);
  lines << QStringLiteral("Time: %1 ms").arg(static_cast<double>(r.elapsedMicros) / 1000.0, 0, 'f', 1);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace keyscope
