// StorageView: the Storage tab. Where a table's bytes go, per family and
// region: the report (Workspace::storageReport) is computed on the job
// runner with progress and Cancel; the tab shows a scope of it (the whole
// table, a family or a region) as
//   - the coordinates-to-value overhead in a sentence,
//   - stacked bars of the parts, raw and stored, beside the same cells as
//     HBase KeyValues (StorageChart),
//   - the what-ifs (a one-letter family name, a binary row key) in both
//     formats, with why they differ,
//   - the numbers in a table (StorageTableModel),
// with Save image (PNG or PDF) and Export CSV.
//
// Thread rules: GUI thread only. The report is a value handed over by the
// job runner; scope changes only re-slice it.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "keyscope/options.h"
#include "keyscope/storage_report.h"
#include "keyscope/workspace.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace keyscope {

class StorageChart;
class StorageTableModel;

class StorageView : public QWidget {
  Q_OBJECT

 public:
  // Why two million: a report reads every block; at ~50 bytes a cell that is
  // ~100 MB of raw pages, a few seconds. Bigger tables are sampled (every
  // k-th block) and the view says so.
  static constexpr uint64_t kMaxCells = 2'000'000;

  // `runner` is not owned and must outlive the view.
  explicit StorageView(JobRunner* runner, QWidget* parent = nullptr);
  ~StorageView() override;

  // REQUIRES: `ws` stays open until the next setWorkspace() (nullptr detaches
  // and cancels the report under way).
  void setWorkspace(const Workspace* ws);
  // Computes the table's report now when the view is visible, else when it
  // is next shown (a report reads every block: not for a hidden tab).
  void showTable(const TableOptions& table);
  void clearTable();
  QString tableName() const { return m_table; }

  // Recomputes the report (cancels one under way).
  void refresh();
  void cancel();
  // "" and 0: the whole table.
  void setScope(const QString& family, int64_t regionId);

  bool isLoading() const { return m_loading; }
  const StorageReport* report() const { return m_report.get(); }
  StorageSlice currentSlice() const;
  QString overheadText() const;
  QStringList whatIfLines() const;
  QString statusText() const;
  StorageChart* chart() const { return m_chart; }
  StorageTableModel* model() const { return m_model; }

  Status saveImage(const QString& path);
  Status exportCsv(const QString& path) const;

 signals:
  void loadingChanged(bool loading);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildUi();
  void onReport(std::shared_ptr<const StorageReport> report, const QString& error);
  void fillScopes();
  void showScope();
  void setLoading(bool loading);
  void setStatus(const QString& text, bool error = false);
  void chooseImageFile();
  void chooseCsvFile();

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  QString m_table;
  std::shared_ptr<const StorageReport> m_report;
  bool m_loading = false;
  bool m_stale = false;  // a table waits for the view to be shown

  QComboBox* m_scope = nullptr;
  QPushButton* m_refresh = nullptr;
  QPushButton* m_cancel = nullptr;
  QProgressBar* m_progress = nullptr;
  QPushButton* m_saveImage = nullptr;
  QPushButton* m_exportCsv = nullptr;
  QLabel* m_overhead = nullptr;
  StorageChart* m_chart = nullptr;
  QLabel* m_whatIfs = nullptr;
  QTableView* m_tableView = nullptr;
  StorageTableModel* m_model = nullptr;
  QLabel* m_status = nullptr;
};

}  // namespace keyscope
