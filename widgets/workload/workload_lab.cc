// WorkloadLab (see workload_lab.h). GUI thread only.
#include "workload/workload_lab.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include <chrono>
#include <thread>

#include "key_lab/lab_colors.h"
#include "workload/run_panel.h"
#include "workload/workload_form.h"

namespace keyscope {

namespace {

// What a job of the lab holds: a scratch workspace (or none) and its place
// in the lab's count of jobs in flight. Released when the job's closure is
// destroyed, workspace first, so a count of 0 means no job holds one open.
struct JobHold {
  std::shared_ptr<Workspace> workspace;
  std::shared_ptr<std::atomic<int>> inFlight;
  JobHold(std::shared_ptr<Workspace> ws, std::shared_ptr<std::atomic<int>> count)
      : workspace(std::move(ws)), inFlight(std::move(count)) {
    ++*inFlight;
  }
  ~JobHold() {
    workspace.reset();
    --*inFlight;
  }
  JobHold(const JobHold&) = delete;
  JobHold& operator=(const JobHold&) = delete;
};

struct ScratchPair {
  std::shared_ptr<Workspace> a;
  std::shared_ptr<Workspace> b;
  QString error;
};

const char* const kLabels[2] = {"A", "B"};

}  // namespace

WorkloadLab::WorkloadLab(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_setupChannel(runner->newChannel()) {
  for (Run& run : m_runs) {
    run.runChannel = runner->newChannel(JobPriority::kBackground);
    run.snapshotChannel = runner->newChannel();
  }
  buildUi();
  m_liveTimer = new QTimer(this);
  m_liveTimer->setInterval(kLiveIntervalMs);
  connect(m_liveTimer, &QTimer::timeout, this, &WorkloadLab::onLiveTick);
  updateButtons();
}

WorkloadLab::~WorkloadLab() {
  for (Run& run : m_runs) {
    if (run.control) run.control->stop.cancel();
    m_runner->cancel(run.runChannel);
    m_runner->cancel(run.snapshotChannel);
  }
  m_runner->cancel(m_setupChannel);
}

void WorkloadLab::buildUi() {
  m_form = new WorkloadForm(m_runner, this);

  m_presetA = new QComboBox(this);
  m_presetB = new QComboBox(this);
  for (const WorkloadPreset& preset : workloadPresets()) {
    for (QComboBox* box : {m_presetA, m_presetB}) {
      box->addItem(QString::fromStdString(preset.name));
      box->setItemData(box->count() - 1, QString::fromStdString(preset.description), Qt::ToolTipRole);
    }
  }
  m_presetA->setCurrentText(QStringLiteral("monotonic"));
  m_presetB->setCurrentText(QStringLiteral("salted"));
  m_runAb = new QPushButton(this);
  m_runAb->setToolTip(tr("Run the form's workload against both designs at once, each on its own simulated cluster"));
  QFont big = m_runAb->font();
  big.setBold(true);
  big.setPointSizeF(big.pointSizeF() * 1.15);
  m_runAb->setFont(big);
  m_runAb->setMinimumHeight(m_runAb->sizeHint().height() + 10);
  auto updateAbText = [this] {
    m_runAb->setText(tr("A/B: %1 vs %2").arg(m_presetA->currentText(), m_presetB->currentText()));
  };
  updateAbText();
  connect(m_presetA, &QComboBox::currentIndexChanged, this, updateAbText);
  connect(m_presetB, &QComboBox::currentIndexChanged, this, updateAbText);
  connect(m_runAb, &QPushButton::clicked, this,
          [this] { startAb(m_presetA->currentText(), m_presetB->currentText()); });

  m_run = new QPushButton(tr("Run"), this);
  m_run->setToolTip(tr("Run the form's design into a table of the open workspace"));
  m_pause = new QPushButton(tr("Pause"), this);
  m_stop = new QPushButton(tr("Stop"), this);
  m_saveCharts = new QPushButton(tr("Save Charts…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);
  m_openA = new QPushButton(tr("Open A's Workspace"), this);
  m_openB = new QPushButton(tr("Open B's"), this);
  connect(m_run, &QPushButton::clicked, this, [this] { startSingle(); });
  connect(m_pause, &QPushButton::clicked, this, [this] { m_paused ? resume() : pause(); });
  connect(m_stop, &QPushButton::clicked, this, &WorkloadLab::stop);
  connect(m_saveCharts, &QPushButton::clicked, this, &WorkloadLab::chooseImageFile);
  connect(m_exportCsv, &QPushButton::clicked, this, &WorkloadLab::chooseCsvFile);
  connect(m_openA, &QPushButton::clicked, this, [this] { openScratchWorkspace(0); });
  connect(m_openB, &QPushButton::clicked, this, [this] { openScratchWorkspace(1); });

  auto* abBox = new QGroupBox(tr("A/B: two designs side by side"), this);
  auto* abLayout = new QVBoxLayout(abBox);
  auto* pick = new QHBoxLayout;
  pick->addWidget(new QLabel(tr("A"), abBox));
  pick->addWidget(m_presetA, 1);
  pick->addWidget(new QLabel(tr("B"), abBox));
  pick->addWidget(m_presetB, 1);
  abLayout->addLayout(pick);
  abLayout->addWidget(m_runAb);
  auto* open = new QHBoxLayout;
  open->addWidget(m_openA);
  open->addWidget(m_openB);
  abLayout->addLayout(open);

  auto* controls = new QHBoxLayout;
  controls->addWidget(m_run);
  controls->addWidget(m_pause);
  controls->addWidget(m_stop);
  auto* files = new QHBoxLayout;
  files->addWidget(m_saveCharts);
  files->addWidget(m_exportCsv);
  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->addWidget(abBox);
  leftLayout->addWidget(m_form);
  leftLayout->addLayout(controls);
  leftLayout->addLayout(files);
  leftLayout->addWidget(m_message);
  leftLayout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  m_options = scroll;
  scroll->setWidget(left);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(220);

  m_summary = new QLabel(this);
  m_summary->setTextFormat(Qt::RichText);
  m_summary->setWordWrap(true);
  m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum);
  m_summary->setFrameShape(QFrame::StyledPanel);
  m_summary->setMargin(6);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_summary->setText(tr("<p style='font-size:large'><b>Press “A/B: monotonic vs salted”</b> to run the same "
                        "writes against a time-ordered key and a salted one, each on its own simulated cluster "
                        "of 4 servers, and see which design piles its load on one server.</p>"));

  auto* panels = new QSplitter(Qt::Vertical, this);
  panels->setChildrenCollapsible(false);
  for (size_t i = 0; i < m_panels.size(); ++i) {
    m_panels[i] = new RunPanel(panels);
    panels->addWidget(m_panels[i]);
  }
  m_panels[1]->hide();
  m_optionsToggle = new QPushButton(tr("Options"), this);
  m_optionsToggle->setCheckable(true);
  m_optionsToggle->setChecked(true);
  m_optionsToggle->setToolTip(tr("Show or hide the run's options"));
  connect(m_optionsToggle, &QPushButton::toggled, this, &WorkloadLab::setOptionsShown);
  auto* summaryRow = new QHBoxLayout;
  summaryRow->addWidget(m_summary, 1);
  summaryRow->addWidget(m_optionsToggle, 0, Qt::AlignTop);
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addLayout(summaryRow);
  rightLayout->addWidget(panels, 1);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setChildrenCollapsible(false);
  split->addWidget(scroll);
  split->addWidget(right);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  split->setSizes({300, 900});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(split);
}

void WorkloadLab::setWorkspace(Workspace* ws, const QString& path) {
  if (m_mode == Mode::kSingle) {
    // The run writes into the workspace that is closing: stop it now (the
    // session waits for the job before it closes the engine).
    Run& run = m_runs[0];
    if (run.control) run.control->stop.cancel();
    m_runner->cancel(run.runChannel);
    m_runner->cancel(run.snapshotChannel);
    m_runner->cancel(m_setupChannel);
    resetRun(0, nullptr, nullptr);
    m_panels[0]->setStatusText(tr("Stopped: the workspace closed."));
    setMode(Mode::kIdle);
  }
  m_ws = ws;
  m_path = path;
  updateButtons();
}

void WorkloadLab::fail(const QString& message) {
  m_lastError = message;
  m_message->setText(message);
  m_message->setStyleSheet(QStringLiteral("color: %1").arg(errorForeground(isDarkPalette(palette())).name()));
}

bool WorkloadLab::startSingle() {
  if (isRunning()) {
    fail(tr("A run is under way: stop it first."));
    return false;
  }
  if (m_ws == nullptr) {
    fail(tr("Open a workspace first: a single run writes a table into it (File > Open)."));
    return false;
  }
  Result<WorkloadOptions> options = m_form->options();
  if (!options) {
    fail(QString::fromStdString(options.status().message()));
    return false;
  }
  const QString wanted = m_form->tableName();
  if (wanted.isEmpty()) {
    fail(tr("Table: give the run a table name."));
    return false;
  }
  m_message->clear();
  m_lastError.clear();
  m_figures.reset();
  m_panels[1]->hide();
  m_panels[0]->clear();
  setMode(Mode::kSingle);
  Workspace* ws = m_ws;
  m_runner->submit(
      m_setupChannel, this,
      [ws, wanted, hold = std::make_shared<JobHold>(nullptr, m_inFlight)](JobControl&) {
        // A free name: the run creates its table (with the design's key schema).
        std::string name = wanted.toStdString();
        for (int n = 2; ws->tableExists(name); ++n) name = wanted.toStdString() + "_" + std::to_string(n);
        return QString::fromStdString(name);
      },
      [this, o = std::move(options).value()](QString table) mutable {
        resetRun(0, m_ws, nullptr);
        m_runs[0].table = table;
        m_runs[0].label = table;
        o.table = table.toStdString();
        m_summary->setText(tr("<p style='font-size:large'><b>Running %1 into table %2.</b> When it ends, the "
                              "Data, Hotspots and Regions tabs show the table.</p>")
                               .arg(QString::fromLatin1(keyDesignName(o.keys.design)), table.toHtmlEscaped()));
        launch(0, std::move(o));
      });
  return true;
}

bool WorkloadLab::startAb(const QString& a, const QString& b) {
  if (isRunning()) {
    fail(tr("A run is under way: stop it first."));
    return false;
  }
  Result<WorkloadOptions> base = m_form->options();
  if (!base) {
    fail(QString::fromStdString(base.status().message()));
    return false;
  }
  std::array<WorkloadOptions, 2> options;
  const QString names[2] = {a, b};
  for (size_t i = 0; i < 2; ++i) {
    WorkloadOptions preset;
    if (Status status = applyWorkloadPreset(names[i].toStdString(), &preset); !status) {
      fail(tr("%1: %2").arg(QString::fromLatin1(kLabels[i]), QString::fromStdString(status.message())));
      return false;
    }
    // The same run for both: only the key design and its pre-split differ.
    options[i] = base.value();
    options[i].keys = preset.keys;
    options[i].newTable.preSplitRegions = preset.newTable.preSplitRegions;
    options[i].table = "workload";
    options[i].startMillis = kDefaultStartMillis;
  }
  QString dir;
  if (!m_path.isEmpty()) {
    const QFileInfo info(m_path);
    dir = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral(".ab");
  } else {
    dir = QDir::temp().filePath(QStringLiteral("keyscope-workload-ab"));
  }
  QStringList paths;
  for (size_t i = 0; i < 2; ++i)
    paths << QDir(dir).filePath(QStringLiteral("%1-%2.ksw").arg(QString::fromLatin1(kLabels[i]), names[i]));
  if (paths[0] == paths[1]) paths[1] = QDir(dir).filePath(QStringLiteral("B-%1-2.ksw").arg(names[1]));

  releaseScratch();
  m_message->clear();
  m_lastError.clear();
  m_figures.reset();
  m_scratchPaths = paths;
  for (RunPanel* panel : m_panels) panel->clear();
  m_panels[1]->show();
  setMode(Mode::kAb);
  const QLocale locale;
  m_summary->setText(
      tr("<p style='font-size:large'><b>A/B: %1 (A) vs %2 (B)</b> — the same %3 operations by %4 clients, "
         "each design on its own cluster of identical simulated servers. Watch where the load goes; the "
         "difference in plain words appears here when both runs end.</p>")
          .arg(a.toHtmlEscaped(), b.toHtmlEscaped(),
               locale.toString(static_cast<qulonglong>(options[0].operations.value_or(kDefaultOperations))))
          .arg(options[0].clients));
  m_runner->submit(
      m_setupChannel, this,
      [paths, dir, count = m_inFlight](JobControl& control) {
        ScratchPair out;
        // A previous A/B's jobs may still let go of its files: wait for them.
        for (int i = 0; i < 200 && count->load() > 0 && !control.isCancelled(); ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!QDir().mkpath(dir)) {
          out.error = QStringLiteral("cannot create %1").arg(dir);
          return out;
        }
        std::shared_ptr<Workspace> opened[2];
        for (int i = 0; i < 2; ++i) {
          // A fresh cluster every time, so that a run repeats exactly.
          if (QFile::exists(paths[i]) && !QFile::remove(paths[i])) {
            out.error = QStringLiteral("cannot replace %1").arg(paths[i]);
            return out;
          }
          Result<std::unique_ptr<Workspace>> ws = Workspace::open(paths[i].toStdString());
          if (!ws) {
            out.error = QStringLiteral("%1: %2").arg(paths[i], QString::fromStdString(ws.status().message()));
            return out;
          }
          opened[i] = std::shared_ptr<Workspace>(std::move(ws).value());
        }
        out.a = std::move(opened[0]);
        out.b = std::move(opened[1]);
        return out;
      },
      [this, options, names = QStringList{a, b}](ScratchPair pair) mutable {
        if (!pair.error.isEmpty()) {
          fail(pair.error);
          setMode(Mode::kIdle);
          return;
        }
        std::shared_ptr<Workspace> opened[2] = {std::move(pair.a), std::move(pair.b)};
        for (size_t i = 0; i < 2; ++i) {
          resetRun(i, opened[i].get(), opened[i]);
          m_runs[i].table = QStringLiteral("workload");
          m_runs[i].label = QStringLiteral("%1: %2").arg(QString::fromLatin1(kLabels[i]), names[static_cast<qsizetype>(i)]);
          launch(i, options[i]);
        }
      });
  return true;
}

void WorkloadLab::setOptionsShown(bool shown) {
  m_options->setVisible(shown);
  m_optionsToggle->setChecked(shown);
}

void WorkloadLab::launch(size_t index, WorkloadOptions options) {
  setOptionsShown(false);  // the run's charts take the room
  Run& run = m_runs[index];
  run.control = std::make_shared<RunControl>();
  run.control->speed = m_form->speed();
  if (m_paused) run.control->pause.pause();
  const double rate = options.rate.value_or(kNominalRate);
  double seconds = static_cast<double>(options.operations.value_or(kDefaultOperations)) / rate;
  if (options.durationMillis && (!options.operations || static_cast<double>(*options.durationMillis) / 1000.0 < seconds))
    seconds = static_cast<double>(*options.durationMillis) / 1000.0;
  m_plannedSeconds = seconds;
  Result<std::string> schema = keyDesignSchema(options.keys);
  m_panels[index]->setTitle(run.label, schema ? QString::fromStdString(schema.value()) : QString());
  m_panels[index]->setStatusText(tr("Starting…"));
  Workspace* ws = run.ws;
  m_runner->submit(
      run.runChannel, this,
      [ws, options = std::move(options), control = run.control,
       hold = std::make_shared<JobHold>(run.owned, m_inFlight)](JobControl&) {
        return runPacedWorkload(*ws, options, control);
      },
      [this, index](WorkloadRunOutcome outcome) { onRunDone(index, std::move(outcome)); });
  m_liveTimer->start();
}

void WorkloadLab::resetRun(size_t index, Workspace* ws, std::shared_ptr<Workspace> owned) {
  Run fresh;
  fresh.ws = ws;
  fresh.owned = std::move(owned);
  fresh.runChannel = m_runs[index].runChannel;
  fresh.snapshotChannel = m_runs[index].snapshotChannel;
  m_runs[index] = std::move(fresh);
}

void WorkloadLab::onLiveTick() {
  for (size_t i = 0; i < m_runs.size(); ++i) {
    Run& run = m_runs[i];
    if (!run.control || run.finalSnapshot) continue;
    if (!run.finished) m_panels[i]->setProgress(*run.control);
    if (run.control->started.load() && !run.snapshotBusy && !run.finished) requestSnapshot(i);
  }
}

void WorkloadLab::requestSnapshot(size_t index) {
  Run& run = m_runs[index];
  run.snapshotBusy = true;
  const bool final = run.finished;
  Workspace* ws = run.ws;
  m_runner->submit(
      run.snapshotChannel, this,
      [ws, table = run.table, start = run.control->startMillis.load(),
       now = run.control->startMillis.load() + run.control->simulatedMillis.load(),
       hold = std::make_shared<JobHold>(run.owned, m_inFlight)](JobControl& control) {
        return computeWorkloadSnapshot(*ws, table, start, now, control.cancelToken());
      },
      [this, index, final](WorkloadSnapshot snapshot) {
        Run& r = m_runs[index];
        r.snapshotBusy = false;
        m_panels[index]->setSnapshot(std::move(snapshot));
        syncScales();
        if (final) {
          r.finalSnapshot = true;
          maybeFinish();
        } else if (r.finished) {
          requestSnapshot(index);  // the run ended while this one was computed
        }
      });
}

void WorkloadLab::onRunDone(size_t index, WorkloadRunOutcome outcome) {
  Run& run = m_runs[index];
  run.finished = true;
  const WorkloadSummary& s = outcome.summary;
  const QLocale locale;
  QString text;
  if (!outcome.status && outcome.status.code() != Status::Code::kCancelled) {
    text = tr("Failed: %1").arg(QString::fromStdString(outcome.status.message()));
    fail(tr("%1: %2").arg(run.label, QString::fromStdString(outcome.status.message())));
  } else {
    text = tr("%1%2 operations · %3 s simulated in %4 s · regions %5 → %6 · %7 splits")
               .arg(s.cancelled ? tr("Stopped after ") : QString(),
                    locale.toString(static_cast<qulonglong>(s.operations)),
                    locale.toString(static_cast<double>(s.endMillis - s.startMillis) / 1000.0, 'f', 1),
                    locale.toString(s.wallSeconds, 'f', 1))
               .arg(s.regionsBefore)
               .arg(s.regionsAfter)
               .arg(s.splits);
  }
  m_panels[index]->setProgress(*run.control);
  m_panels[index]->setStatusText(text);
  run.outcome = std::move(outcome);
  if (!run.snapshotBusy) requestSnapshot(index);
}

void WorkloadLab::maybeFinish() {
  const size_t count = m_mode == Mode::kAb ? 2 : 1;
  for (size_t i = 0; i < count; ++i)
    if (!m_runs[i].finalSnapshot) return;
  if (m_mode == Mode::kAb) {
    std::array<RunFigures, 2> figures;
    bool complete = true;
    for (size_t i = 0; i < 2; ++i) {
      const Run& run = m_runs[i];
      if (!run.outcome || (!run.outcome->status && run.outcome->status.code() != Status::Code::kCancelled)) {
        complete = false;
        continue;
      }
      const WorkloadSnapshot& snapshot = m_panels[i]->snapshot();
      figures[i] = runFigures(run.label, run.outcome->summary, snapshot.regions, snapshot.schema);
    }
    if (complete) {
      m_figures = figures;
      const bool dark = isDarkPalette(palette());
      QString html = differenceSummaryHtml(figures[0], figures[1], goodTextColor(dark).name(),
                                           badTextColor(dark).name());
      if (figures[0].cancelled || figures[1].cancelled)
        html += tr("<p><i>Stopped before the end: the figures cover the operations run.</i></p>");
      m_summary->setText(html);
    } else {
      m_summary->setText(tr("<p style='font-size:large'><b>The A/B run failed:</b> %1</p>").arg(m_lastError.toHtmlEscaped()));
    }
  } else if (m_runs[0].outcome) {
    m_lastTable = m_runs[0].table;
    const WorkloadSummary& s = m_runs[0].outcome->summary;
    m_summary->setText(tr("<p style='font-size:large'><b>%1</b> — table %2: %3</p>")
                           .arg(QString::fromStdString(s.design), m_lastTable.toHtmlEscaped(),
                                QString::fromStdString(s.verdict).toHtmlEscaped()));
    emit workspaceChanged(m_lastTable);
  }
  setMode(Mode::kIdle);
}

void WorkloadLab::syncScales() {
  const size_t count = m_mode == Mode::kAb ? 2 : 1;
  for (size_t i = 0; i < count; ++i) {
    const int64_t start = m_runs[i].control ? m_runs[i].control->startMillis.load() : 0;
    m_panels[i]->setTimeSpan(start, m_plannedSeconds);
  }
  if (m_mode != Mode::kAb && !m_figures) {
    m_panels[0]->setScales(std::nullopt, std::nullopt, std::nullopt);
    return;
  }
  if (!m_panels[0]->hasSnapshot() || !m_panels[1]->hasSnapshot()) return;
  const double heat = std::max(m_panels[0]->heatMaximum(), m_panels[1]->heatMaximum());
  const double servers = std::max(m_panels[0]->serverMaximum(), m_panels[1]->serverMaximum());
  const double regions = std::max(m_panels[0]->regionMaximum(), m_panels[1]->regionMaximum());
  for (RunPanel* panel : m_panels) panel->setScales(heat, servers, regions);
}

void WorkloadLab::setMode(Mode mode) {
  const bool wasRunning = isRunning();
  m_mode = mode;
  if (mode == Mode::kIdle) {
    m_liveTimer->stop();
    m_paused = false;
  }
  updateButtons();
  if (wasRunning != isRunning()) emit runningChanged(isRunning());
}

void WorkloadLab::updateButtons() {
  const bool running = isRunning();
  m_run->setEnabled(!running && m_ws != nullptr);
  m_runAb->setEnabled(!running);
  m_pause->setEnabled(running);
  m_pause->setText(m_paused ? tr("Resume") : tr("Pause"));
  m_stop->setEnabled(running);
  const bool shown = m_panels[0]->hasSnapshot();
  m_saveCharts->setEnabled(!running && shown);
  m_exportCsv->setEnabled(!running && shown);
  const bool abDone = !running && m_figures.has_value() && m_scratchPaths.size() == 2;
  m_openA->setEnabled(abDone);
  m_openB->setEnabled(abDone);
}

void WorkloadLab::pause() {
  if (!isRunning()) return;
  m_paused = true;
  for (Run& run : m_runs)
    if (run.control) run.control->pause.pause();
  updateButtons();
  onLiveTick();
}

void WorkloadLab::resume() {
  m_paused = false;
  for (Run& run : m_runs)
    if (run.control) run.control->pause.resume();
  updateButtons();
}

void WorkloadLab::stop() {
  for (Run& run : m_runs) {
    if (!run.control) continue;
    run.control->stop.cancel();
    run.control->pause.resume();
  }
  m_paused = false;
  updateButtons();
}

QString WorkloadLab::summaryText() const {
  QTextDocument document;
  document.setHtml(m_summary->text());
  return document.toPlainText();
}

void WorkloadLab::releaseScratch() {
  for (Run& run : m_runs) {
    if (!run.owned) continue;
    run.ws = nullptr;
    run.owned.reset();
  }
}

void WorkloadLab::openScratchWorkspace(size_t index) {
  if (isRunning() || index >= static_cast<size_t>(m_scratchPaths.size())) return;
  const QString path = m_scratchPaths[static_cast<int>(index)];
  // The file must be closed here before the window opens it: drop the lab's
  // handles and wait (off the GUI thread) for any job still holding one.
  releaseScratch();
  m_runner->submit(
      m_setupChannel, this,
      [count = m_inFlight](JobControl& control) {
        for (int i = 0; i < 500 && count->load() > 0 && !control.isCancelled(); ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return count->load() == 0;
      },
      [this, path](bool closed) {
        if (!closed) {
          fail(tr("%1 is still in use; try again in a moment.").arg(path));
          return;
        }
        emit openWorkspaceRequested(path);
      });
}

Status WorkloadLab::saveCharts(const QString& path) {
  const QFileInfo info(path);
  const QString suffix = info.suffix().isEmpty() ? QStringLiteral("png") : info.suffix().toLower();
  if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf"))
    return Status::invalidArgument("save charts: '" + path.toStdString() + "' is neither .png nor .pdf");
  const QString base = info.absolutePath() + QLatin1Char('/') + info.completeBaseName();
  const size_t count = m_panels[1]->isVisible() || m_figures ? 2 : 1;
  for (size_t i = 0; i < count; ++i) {
    Status status = m_panels[i]->saveImages(count == 1 ? base : base + QLatin1Char('-') + QLatin1String(kLabels[i]),
                                            suffix);
    if (!status) return status;
  }
  return Status::ok();
}

Status WorkloadLab::exportCsv(const QString& path) const {
  const QFileInfo info(path);
  const QString base = info.absolutePath() + QLatin1Char('/') + info.completeBaseName();
  const size_t count = m_figures ? 2 : 1;
  for (size_t i = 0; i < count; ++i) {
    Status status =
        m_panels[i]->exportCsv(count == 1 ? base : base + QLatin1Char('-') + QLatin1String(kLabels[i]));
    if (!status) return status;
  }
  if (m_figures) {
    QFile file(base + QStringLiteral("-summary.csv"));
    const std::string text = differenceSummaryCsv((*m_figures)[0], (*m_figures)[1]);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()))
      return Status::ioError("cannot write " + file.fileName().toStdString());
  }
  return Status::ok();
}

void WorkloadLab::chooseImageFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Charts"), QStringLiteral("workload.png"),
                                                    tr("PNG images (*.png);;PDF documents (*.pdf)"));
  if (path.isEmpty()) return;
  const Status status = saveCharts(path);
  if (status) {
    m_message->setStyleSheet({});
    m_message->setText(tr("Saved the charts as %1-*").arg(QFileInfo(path).completeBaseName()));
  } else {
    fail(QString::fromStdString(status.message()));
  }
}

void WorkloadLab::chooseCsvFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the Charts' Numbers"),
                                                    QStringLiteral("workload.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  const Status status = exportCsv(path);
  if (status) {
    m_message->setStyleSheet({});
    m_message->setText(tr("Exported %1-*.csv").arg(QFileInfo(path).completeBaseName()));
  } else {
    fail(QString::fromStdString(status.message()));
  }
}

}  // namespace keyscope
