// CellHistoryView: the versions of one cell (row, family:qualifier), or of
// every column of a row's family, on a timeline (HistoryPlot) beside a table
// of them (HistoryModel). Controls for a get's TIMERANGE [min, max),
// TIMESTAMP and VERSIONS (VERSIONS defaults to the family's) say which
// versions that get would return and why the others are not; the real get
// runs too and its versions are marked.
//
// Every read (a RAW read of the family, the get) and the layout run on the
// job runner (fetchHistory); a newer request drops an older one's result.
// "As of" (setAsOf) judges TTLs against a chosen time, as the data browser's
// "View as of" does.
//
// Thread rules: GUI thread only; nothing here blocks on the engine.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "browser/value_format.h"
#include "history/history_fetch.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace keyscope {

class HistoryModel;
class HistoryPlot;

class CellHistoryView : public QWidget {
  Q_OBJECT

 public:
  // `runner` is not owned and must outlive the view.
  explicit CellHistoryView(JobRunner* runner, QWidget* parent = nullptr);
  ~CellHistoryView() override;

  // The workspace read from. nullptr detaches: the read under way is
  // cancelled and the view empties. REQUIRES: `ws` stays open until the
  // next setWorkspace() and until the runner has finished this view's jobs.
  void setWorkspace(const Workspace* ws);

  // Shows the history of row's family:qualifier (nullopt: every column of
  // the family), values in `format`, with the get's options reset to the
  // family's defaults.
  void showCell(const std::string& table, const Bytes& row, const std::string& family,
                const std::optional<Bytes>& qualifier, ValueFormat format = ValueFormat::kEscaped);
  // TTLs judged at `nowMillis`; nullopt: the engine's clock. Reloads.
  void setAsOf(std::optional<int64_t> nowMillis);
  std::optional<int64_t> asOf() const { return m_asOf; }

  // Reads the get's options from the controls and reloads. False, with the
  // reason shown, when a field does not parse.
  bool applyGetOptions();
  // Sets the controls (empty text: no bound) and applies them.
  bool setGetOptions(const QString& min, const QString& max, const QString& timestamp,
                     int versions);

  bool isLoading() const { return m_loading; }
  QString statusText() const;
  QString errorText() const { return m_error; }
  // The history shown; nullptr before the first read.
  const HistoryResult* result() const { return m_result.get(); }
  HistoryModel* model() const { return m_model; }
  HistoryPlot* plot() const { return m_plot; }

 signals:
  void loadingChanged(bool loading);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void buildUi();
  void reload();
  void showResult(Result<HistoryResult> result);
  void updateStatus();
  void setLoading(bool loading);

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  std::optional<HistoryRequest> m_request;
  std::optional<int64_t> m_asOf;
  std::shared_ptr<HistoryResult> m_result;
  bool m_loading = false;
  QString m_error;

  QLabel* m_title = nullptr;
  QLineEdit* m_minEdit = nullptr;
  QLineEdit* m_maxEdit = nullptr;
  QLineEdit* m_timestampEdit = nullptr;
  QSpinBox* m_versions = nullptr;
  QPushButton* m_apply = nullptr;
  QComboBox* m_format = nullptr;
  QLabel* m_status = nullptr;
  HistoryPlot* m_plot = nullptr;
  HistoryModel* m_model = nullptr;
  QTableView* m_table = nullptr;
};

// Reads a timestamp typed in a history control: an integer (milliseconds,
// or any logical value) or a UTC date-time "2024-03-01 10:00[:00[.000]]".
// Empty text: nullopt. InvalidArgument names `field` and what was wrong.
Result<std::optional<int64_t>> parseHistoryTimestamp(const QString& text, const QString& field);

}  // namespace keyscope
