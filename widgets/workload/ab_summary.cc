// The A/B difference summary (see ab_summary.h). Pure functions.
#include "workload/ab_summary.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "keyscope/key_codec.h"
#include "keyscope/csv.h"

namespace keyscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("AbSummary", text); }

QString percent(double share) { return QStringLiteral("%1%").arg(qRound(share * 100)); }

ComponentValue timeValue(const KeyComponent& component, int64_t millis) {
  if (component.type == ComponentType::kUInt64) return static_cast<uint64_t>(std::max<int64_t>(millis, 0));
  return millis;
}

// The key range [lo, hi) of `prefix` followed by the time range's ends.
std::optional<std::pair<Bytes, Bytes>> timeRange(const KeyComponent& time, const Bytes& prefix,
                                                 const TimeWindow& range) {
  Result<Bytes> from = encodeComponent(time, timeValue(time, range.fromMillis));
  Result<Bytes> to = encodeComponent(time, timeValue(time, range.toMillis));
  if (!from || !to) return std::nullopt;
  Bytes lo = prefix + from.value();
  Bytes hi = prefix + to.value();
  if (hi < lo) std::swap(lo, hi);  // a descending timestamp
  return std::pair(std::move(lo), std::move(hi));
}

void addTouched(const std::vector<RegionLoad>& regions, const std::pair<Bytes, Bytes>& range,
                std::set<int64_t>* touched) {
  for (const RegionLoad& region : regions) {
    const bool endsAfterLo = region.endRow.empty() || region.endRow > range.first;
    const bool startsBeforeHi = region.startRow < range.second || region.startRow == range.first;
    if (endsAfterLo && startsBeforeHi) touched->insert(region.regionId);
  }
}

}  // namespace

bool RunFigures::hotspot() const { return servers > 1 && hottestServerShare > 1.5 / servers; }

std::optional<size_t> timeComponent(const KeySchema& schema) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const KeyComponent& c = schema[i];
    if (c.type == ComponentType::kReverseTimestamp) return i;
    if ((c.type == ComponentType::kInt64 || c.type == ComponentType::kUInt64) &&
        (c.name == "ts" || c.name == "time" || c.name == "timestamp" || c.name == "t"))
      return i;
  }
  return std::nullopt;
}

ScanFanOut typicalScanFanOut(const std::optional<KeySchema>& schema, const std::vector<RegionLoad>& regions,
                             const TimeWindow& range) {
  ScanFanOut out;
  std::set<int64_t> touched;
  const std::optional<size_t> time = schema ? timeComponent(*schema) : std::nullopt;
  if (time && *time == 0) {
    if (auto keys = timeRange((*schema)[0], Bytes(), range)) {
      addTouched(regions, *keys, &touched);
      out.scans = 1;
      out.regions = static_cast<uint32_t>(touched.size());
      out.how = tr("1 range of %1").arg(QString::fromStdString((*schema)[0].name));
      return out;
    }
  }
  if (time && *time == 1 && (*schema)[0].type == ComponentType::kSalt) {
    const KeyComponent& salt = (*schema)[0];
    bool encoded = true;
    for (uint32_t bucket = 0; bucket < salt.buckets && encoded; ++bucket) {
      Result<Bytes> prefix = encodeComponent(salt, static_cast<uint64_t>(bucket));
      std::optional<std::pair<Bytes, Bytes>> keys =
          prefix ? timeRange((*schema)[1], prefix.value(), range) : std::nullopt;
      if (!keys) {
        encoded = false;
        break;
      }
      addTouched(regions, *keys, &touched);
    }
    if (encoded) {
      out.scans = salt.buckets;
      out.regions = static_cast<uint32_t>(touched.size());
      out.how = tr("%1 ranges: one per salt bucket").arg(salt.buckets);
      return out;
    }
  }
  out.wholeTable = true;
  out.scans = 1;
  out.regions = static_cast<uint32_t>(regions.size());
  out.how = tr("the whole table: no time-ordered key prefix");
  return out;
}

double hottestServerShare(const WorkloadSummary& summary) {
  double weighted = 0;
  double total = 0;
  for (const IntervalLoad& interval : summary.intervals) {
    const double load = static_cast<double>(summary.metric == LoadMetric::kReads ? interval.reads : interval.writes);
    if (interval.hottestServer < 0 || load <= 0) continue;
    weighted += interval.hottestServerShare * load;
    total += load;
  }
  if (total > 0) return weighted / total;
  uint64_t sum = 0;
  uint64_t top = 0;
  for (const ServerTotals& server : summary.servers) {
    const uint64_t load = summary.metric == LoadMetric::kReads ? server.reads : server.writes;
    sum += load;
    top = std::max(top, load);
  }
  return sum > 0 ? static_cast<double>(top) / static_cast<double>(sum) : 0;
}

RunFigures runFigures(const QString& label, const WorkloadSummary& summary, const std::vector<RegionLoad>& regions,
                      const std::optional<KeySchema>& schema) {
  RunFigures f;
  f.label = label;
  f.design = QString::fromStdString(summary.design);
  f.hottestServerShare = hottestServerShare(summary);
  f.servers = static_cast<uint32_t>(summary.servers.size());
  f.splits = summary.splits;
  f.regionsBefore = summary.regionsBefore;
  f.regionsAfter = summary.regionsAfter;
  TimeWindow lastSeconds;
  lastSeconds.toMillis = summary.endMillis + 1;
  lastSeconds.fromMillis = std::max(summary.startMillis, lastSeconds.toMillis - kTypicalReadMillis);
  f.fanOut = typicalScanFanOut(schema, regions, lastSeconds);
  f.verdict = QString::fromStdString(summary.verdict);
  f.cancelled = summary.cancelled;
  return f;
}

QString differenceHeadline(const RunFigures& a, const RunFigures& b) {
  auto name = [](const RunFigures& f) { return QStringLiteral("%1 (%2)").arg(f.label.left(1), f.design); };
  auto scans = [](const RunFigures& f) {
    return f.fanOut.scans == 1 ? tr("1 scan") : tr("%1 scans").arg(f.fanOut.scans);
  };
  if (a.hotspot() != b.hotspot()) {
    const RunFigures& bad = a.hotspot() ? a : b;
    const RunFigures& good = a.hotspot() ? b : a;
    QString text = tr("%1 sends %2 of its writes to one of %3 servers: that server sets the speed of the whole "
                      "cluster, however many servers you add. %4 spreads them (%5 on the busiest, about 1/%3 each).")
                       .arg(name(bad), percent(bad.hottestServerShare))
                       .arg(bad.servers)
                       .arg(name(good), percent(good.hottestServerShare));
    if (good.fanOut.scans > bad.fanOut.scans)
      text += QLatin1Char(' ') + tr("Its price: reading a time range takes %1 instead of %2.")
                                     .arg(scans(good), scans(bad));
    return text;
  }
  if (a.hotspot())
    return tr("Both designs send most writes to one server: %1 takes %2, %3 takes %4 on its busiest server.")
        .arg(name(a), percent(a.hottestServerShare), name(b), percent(b.hottestServerShare));
  return tr("Both designs spread their writes: %1 puts %2 on its busiest server, %3 %4.")
      .arg(name(a), percent(a.hottestServerShare), name(b), percent(b.hottestServerShare));
}

QString differenceSummaryHtml(const RunFigures& a, const RunFigures& b, const QString& goodColour,
                              const QString& badColour) {
  // A figure cell, coloured when the two differ: lower is better for every row.
  auto cell = [&](const QString& text, double mine, double theirs) {
    if (mine == theirs) return QStringLiteral("<td align='center'>%1</td>").arg(text.toHtmlEscaped());
    return QStringLiteral("<td align='center'><b><font color='%1'>%2</font></b></td>")
        .arg(mine > theirs ? badColour : goodColour, text.toHtmlEscaped());
  };
  auto row = [&](const QString& what, const QString& ta, double va, const QString& tb, double vb) {
    return QStringLiteral("<tr><td>%1</td>%2%3</tr>").arg(what.toHtmlEscaped(), cell(ta, va, vb), cell(tb, vb, va));
  };
  auto read = [](const RunFigures& f) {
    if (f.fanOut.wholeTable) return tr("every region (%1)").arg(f.fanOut.regions);
    return tr("%1 %2, %3 %4")
        .arg(f.fanOut.scans)
        .arg(f.fanOut.scans == 1 ? tr("scan") : tr("scans"))
        .arg(f.fanOut.regions)
        .arg(f.fanOut.regions == 1 ? tr("region") : tr("regions"));
  };
  auto regionsText = [](const RunFigures& f) {
    return f.regionsBefore == f.regionsAfter ? QString::number(f.regionsAfter)
                                             : QStringLiteral("%1 → %2").arg(f.regionsBefore).arg(f.regionsAfter);
  };
  QString html = QStringLiteral("<p style='font-size:large'><b>%1</b></p>").arg(differenceHeadline(a, b).toHtmlEscaped());
  html += QStringLiteral("<table cellspacing='0' cellpadding='4' style='font-size:large'>");
  html += QStringLiteral("<tr><th></th><th>%1</th><th>%2</th></tr>").arg(a.label.toHtmlEscaped(), b.label.toHtmlEscaped());
  html += row(tr("Writes on the busiest server"), percent(a.hottestServerShare), a.hottestServerShare,
              percent(b.hottestServerShare), b.hottestServerShare);
  html += row(tr("Splits during the run"), QString::number(a.splits), a.splits, QString::number(b.splits), b.splits);
  html += QStringLiteral("<tr><td>%1</td><td align='center'>%2</td><td align='center'>%3</td></tr>")
              .arg(tr("Regions").toHtmlEscaped(), regionsText(a), regionsText(b));
  html += row(tr("Reading the last %1 s").arg(kTypicalReadMillis / 1000), read(a), a.fanOut.scans, read(b),
              b.fanOut.scans);
  html += QStringLiteral("</table>");
  html += QStringLiteral("<p>%1: %2<br>%3: %4</p>")
              .arg(a.label.toHtmlEscaped(), a.verdict.toHtmlEscaped(), b.label.toHtmlEscaped(), b.verdict.toHtmlEscaped());
  return html;
}

std::string differenceSummaryCsv(const RunFigures& a, const RunFigures& b) {
  std::ostringstream text;
  CsvWriter csv(text, CsvDialect{});
  auto record = [&](const std::string& what, const std::string& va, const std::string& vb) {
    (void)csv.writeRecord({what, va, vb});
  };
  record("figure", a.label.toStdString(), b.label.toStdString());
  record("design", a.design.toStdString(), b.design.toStdString());
  record("busiest_server_share_of_writes", std::to_string(a.hottestServerShare), std::to_string(b.hottestServerShare));
  record("servers", std::to_string(a.servers), std::to_string(b.servers));
  record("splits", std::to_string(a.splits), std::to_string(b.splits));
  record("regions_before", std::to_string(a.regionsBefore), std::to_string(b.regionsBefore));
  record("regions_after", std::to_string(a.regionsAfter), std::to_string(b.regionsAfter));
  record("typical_read_scans", std::to_string(a.fanOut.scans), std::to_string(b.fanOut.scans));
  record("typical_read_regions", std::to_string(a.fanOut.regions), std::to_string(b.fanOut.regions));
  record("verdict", a.verdict.toStdString(), b.verdict.toStdString());
  return text.str();
}

}  // namespace keyscope
