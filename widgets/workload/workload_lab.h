// WorkloadLab: the "Workload lab" tab. Choose a key design and a run
// (WorkloadForm), then either
//   - Run: one design into a table of the open workspace (created with the
//     design's key schema), watched live in one RunPanel; afterwards the data
//     browser, hotspots and regions tabs show it (workspaceChanged);
//   - A/B (default: monotonic vs salted): the same run - clients, mix,
//     rate, seed, operations - against two designs at once, each into its
//     own scratch workspace (next to the open one as NAME.ab/A-DESIGN.ksw and
//     B-DESIGN.ksw, or in a temporary directory), on two jobs side by side:
//     two identical simulated clusters whose time axes line up. The two
//     panels share their heatmap colour scale, server chart and region bar
//     scales; when both end, a difference summary in plain words (the
//     busiest server's share, splits, regions, a typical read's scans) and
//     each run's verdict, and "Open A's workspace" / "Open B's".
// Pause/Resume and Stop act on every run under way; a refresh every
// kLiveIntervalMs while running (snapshots computed on the job runner).
// Save charts (PNG or PDF) and Export CSV write every chart and its numbers.
//
// Thread rules: GUI thread only. Runs and snapshots run on the JobRunner; a
// run's workspace is the open one (until setWorkspace(nullptr), which stops
// the run) or a scratch workspace the lab owns with its jobs (shared_ptr),
// closed when the last of them lets go.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "keyscope/workspace.h"
#include "workload/ab_summary.h"
#include "workload/workload_jobs.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTimer;

namespace keyscope {

class RunPanel;
class WorkloadForm;

class WorkloadLab : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kLiveIntervalMs = 700;

  // `runner` is not owned and must outlive the lab.
  explicit WorkloadLab(JobRunner* runner, QWidget* parent = nullptr);
  ~WorkloadLab() override;  // stops the runs

  // REQUIRES: `ws` stays open until the next setWorkspace(); nullptr stops
  // a single run into it. `path` places the A/B scratch workspaces.
  void setWorkspace(Workspace* ws, const QString& path);

  // Runs the form's run into the open workspace. False (with lastError())
  // when no workspace is open, a run is under way or the form is wrong.
  bool startSingle();
  // Runs the form's run against presets `a` and `b` side by side. False
  // (lastError()) when a run is under way or the choices are wrong.
  bool startAb(const QString& a, const QString& b);
  void pause();
  void resume();
  void stop();
  // "Open A's workspace" (0) or B's (1) after an A/B run: lets go of the
  // file, then emits openWorkspaceRequested.
  void openScratchWorkspace(size_t index);

  // A run, or its last snapshot, is under way.
  bool isRunning() const { return m_mode != Mode::kIdle; }
  bool isPaused() const { return m_paused; }
  QString lastError() const { return m_lastError; }

  WorkloadForm* form() const { return m_form; }
  RunPanel* panel(int index) const { return m_panels[static_cast<size_t>(index)]; }
  // After an A/B run: its figures and the summary shown.
  std::optional<std::array<RunFigures, 2>> abFigures() const { return m_figures; }
  QString summaryText() const;
  // The A/B scratch workspaces of the last A/B run (empty before one).
  QStringList scratchPaths() const { return m_scratchPaths; }
  // The table the last single run wrote.
  QString lastTable() const { return m_lastTable; }

  // Writes every chart as BASE-A-heatmap.png, ... (PNG or PDF by `path`'s
  // suffix; BASE is `path` without it), or the numbers as BASE-A-*.csv and
  // BASE-summary.csv.
  Status saveCharts(const QString& path);
  Status exportCsv(const QString& path) const;

 signals:
  // A single run wrote `table` into the open workspace.
  void workspaceChanged(const QString& table);
  // "Open A's workspace": open this file as the window's workspace.
  void openWorkspaceRequested(const QString& path);
  void runningChanged(bool running);

 private:
  enum class Mode { kIdle, kSingle, kAb };
  struct Run {
    Workspace* ws = nullptr;                // what the jobs read and write
    std::shared_ptr<Workspace> owned;       // a scratch workspace (A/B)
    std::shared_ptr<RunControl> control;
    JobRunner::ChannelId runChannel = 0;
    JobRunner::ChannelId snapshotChannel = 0;
    QString table;
    QString label;
    bool finished = false;
    bool snapshotBusy = false;
    bool finalSnapshot = false;             // the snapshot after the end is in
    std::optional<WorkloadRunOutcome> outcome;
  };

  void buildUi();
  // A new run in slot `index` (its channels kept).
  void resetRun(size_t index, Workspace* ws, std::shared_ptr<Workspace> owned);
  void launch(size_t index, WorkloadOptions options);
  void setOptionsShown(bool shown);
  void onLiveTick();
  void requestSnapshot(size_t index);
  void onRunDone(size_t index, WorkloadRunOutcome outcome);
  void maybeFinish();
  void syncScales();
  void setMode(Mode mode);
  void updateButtons();
  void fail(const QString& message);
  void releaseScratch();
  void chooseImageFile();
  void chooseCsvFile();
  // Jobs of this lab whose work has not returned (they may hold a scratch workspace).
  int jobsInFlight() const { return m_inFlight->load(); }

  JobRunner* m_runner;
  JobRunner::ChannelId m_setupChannel;
  std::shared_ptr<std::atomic<int>> m_inFlight = std::make_shared<std::atomic<int>>(0);
  Workspace* m_ws = nullptr;
  QString m_path;
  Mode m_mode = Mode::kIdle;
  bool m_paused = false;
  std::array<Run, 2> m_runs;
  double m_plannedSeconds = 0;
  std::optional<std::array<RunFigures, 2>> m_figures;
  QStringList m_scratchPaths;
  QString m_lastTable;
  QString m_lastError;

  WorkloadForm* m_form = nullptr;
  QComboBox* m_presetA = nullptr;
  QComboBox* m_presetB = nullptr;
  QPushButton* m_runAb = nullptr;
  QPushButton* m_run = nullptr;
  QPushButton* m_pause = nullptr;
  QPushButton* m_stop = nullptr;
  QPushButton* m_saveCharts = nullptr;
  QPushButton* m_exportCsv = nullptr;
  // The run's options, hidden while a run shows (the charts want the room on
  // a laptop screen beside the workspace dock) and back with "Options".
  QWidget* m_options = nullptr;
  QPushButton* m_optionsToggle = nullptr;
  QPushButton* m_openA = nullptr;
  QPushButton* m_openB = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_message = nullptr;
  std::array<RunPanel*, 2> m_panels{};
  QTimer* m_liveTimer = nullptr;
};

}  // namespace keyscope
