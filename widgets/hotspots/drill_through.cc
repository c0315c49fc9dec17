// Drill-through (see drill_through.h). Pure functions.
#include "hotspots/drill_through.h"

#include <algorithm>
#include <string>

namespace keyscope {

namespace {

Status invalid(const QString& message) { return Status::invalidArgument(message.toStdString()); }

QString singleQuoted(const QString& text) {
  QString out = text;
  out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
  out.replace(QLatin1Char('\''), QStringLiteral("\\'"));
  return QLatin1Char('\'') + out + QLatin1Char('\'');
}

}  // namespace

QString shellBytesLiteral(BytesView bytes) {
  QString out = QStringLiteral("\"");
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '"' || byte == '\\' || byte == '#') {
      out += QLatin1Char('\\');
      out += QLatin1Char(c);
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += QLatin1Char(c);
    } else {
      out += QStringLiteral("\\x%1").arg(byte, 2, 16, QLatin1Char('0'));
    }
  }
  return out + QLatin1Char('"');
}

QString scanShellLine(const QString& table, const ScanOptions& scan) {
  QStringList options;
  if (!scan.startRow.empty()) options << QStringLiteral("STARTROW => %1").arg(shellBytesLiteral(scan.startRow));
  if (!scan.stopRow.empty()) options << QStringLiteral("STOPROW => %1").arg(shellBytesLiteral(scan.stopRow));
  if (!scan.timeRange.isAllTime())
    options << QStringLiteral("TIMERANGE => [%1, %2]").arg(scan.timeRange.min).arg(scan.timeRange.max);
  QString line = QStringLiteral("scan %1").arg(singleQuoted(table));
  if (!options.isEmpty()) line += QStringLiteral(", {%1}").arg(options.join(QStringLiteral(", ")));
  return line;
}

Result<DrillThrough> drillThrough(const QString& table, const HeatGrid& grid, const GridArea& area) {
  if (area.firstBucket > area.lastBucket || area.lastBucket >= grid.buckets.size() ||
      area.firstColumn > area.lastColumn || area.lastColumn >= grid.columns)
    return invalid(QStringLiteral("the area (key buckets %1-%2, time columns %3-%4) is outside the grid "
                                  "(%5 buckets, %6 columns)")
                       .arg(area.firstBucket)
                       .arg(area.lastBucket)
                       .arg(area.firstColumn)
                       .arg(area.lastColumn)
                       .arg(grid.buckets.size())
                       .arg(grid.columns));
  for (size_t b = area.firstBucket; b <= area.lastBucket; ++b) {
    if (!grid.buckets[b].keyRange)
      return invalid(QStringLiteral("the key bucket '%1' gathers rows from many key ranges (a folded salt or "
                                    "a component after the first), which no single scan reads; unfold the "
                                    "salt or put the key axis on key ranges to open its rows")
                         .arg(QString::fromStdString(grid.buckets[b].label)));
  }
  const HeatGridBucket& first = grid.buckets[area.firstBucket];
  const HeatGridBucket& last = grid.buckets[area.lastBucket];
  DrillThrough out;
  out.table = table;
  out.scan.startRow = first.startRow;
  out.scan.stopRow = last.endRow;
  out.scan.timeRange.min = grid.window.fromMillis + static_cast<int64_t>(area.firstColumn) * grid.columnMillis;
  out.scan.timeRange.max = std::min(grid.window.toMillis,
                                    grid.window.fromMillis + static_cast<int64_t>(area.lastColumn + 1) * grid.columnMillis);
  out.shellLine = scanShellLine(table, out.scan);
  const QString from = QString::fromStdString(first.label);
  const QString to = area.lastBucket + 1 < grid.buckets.size()
                         ? QString::fromStdString(grid.buckets[area.lastBucket + 1].label)
                         : QStringLiteral("the end of the table");
  out.description = area.firstBucket == area.lastBucket && area.firstColumn == area.lastColumn
                        ? QStringLiteral("rows from %1 up to %2, one time column").arg(from, to)
                        : QStringLiteral("rows from %1 up to %2, %3 time columns")
                              .arg(from, to)
                              .arg(area.lastColumn - area.firstColumn + 1);
  return out;
}

}  // namespace keyscope
