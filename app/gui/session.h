// Session: the workspace the window shows, and the job runner every view
// reads it through. It owns both, so it alone decides when the engine may
// close: close() (and opening another workspace, and the destructor) first
// tells the views (aboutToClose, so they drop their pointer and cancel),
// then cancels every job and waits for the runner to drain, and only then
// destroys the Workspace. A view's job therefore never outlives the engine
// it reads.
//
// Opening and building the demo run on the runner too (a workspace's log
// replay, the demo's two minutes of writes): the window stays responsive
// and shows progress. The opened Workspace is handed over whole when ready
// (a move of ownership from the worker to the session, nothing shared).
//
// Thread rules: GUI thread only, apart from the jobs it submits.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

#include "async/job_runner.h"
#include "keyscope/workspace.h"

namespace keyscope {

class Session : public QObject {
  Q_OBJECT

 public:
  explicit Session(QObject* parent = nullptr);
  ~Session() override;  // close()

  JobRunner* jobs() { return &m_jobs; }
  // How the GUI opens a workspace. Its engine page cache is 32 MiB, half
  // the engine's default: with SQLite's own caches, the data browser's
  // loaded rows and Qt, that keeps the window under 300 MB resident however
  // large the table (bench/gui measures it).
  static OpenOptions openOptions(bool create);

  // The open workspace; nullptr when none. Valid until aboutToClose.
  Workspace* workspace() const { return m_workspace.get(); }
  // The open workspace's absolute path; empty when none.
  QString path() const { return m_path; }
  // An open or a demo build is under way.
  bool isBusy() const { return m_busy; }

  // Opens the workspace file off the GUI thread; `create`: make a new one
  // (File > New; an existing file is refused). The workspace open now stays
  // open until the new one is ready; then it is closed and `opened` is
  // emitted, or on failure `openFailed` (and the old one stays). Opening
  // the file already open emits `opened` again and opens nothing.
  void open(const QString& path, bool create = false);
  // Builds Keyscope's demo workspace (keyscope/demo.h) at `path` off the GUI
  // thread, then opens it. It is built under a temporary name and renamed
  // when complete, so a cancelled or failed build leaves no file behind.
  void buildDemo(const QString& path);
  // Stops an open or a demo build under way (openFailed follows for a build:
  // "cancelled").
  void cancelPending();
  // Closes the workspace (see the top of this file).
  void close();

 signals:
  // The workspace is about to close: drop every pointer to it now.
  void aboutToClose();
  void closed();
  void opened(const QString& path);
  void openFailed(const QString& path, const QString& message);
  void busyChanged(bool busy);
  // Unattended work on the open workspace failed (a background flush on a
  // full disk, say): nothing is lost, the engine retries, and writes fail
  // with their own error once it cannot go on. Once per failing region and
  // kind of work until it succeeds again (OpenOptions::onBackgroundError).
  void backgroundFailed(const QString& message);
  // A line of the demo build's progress ("web_visits: 5,987 visits ...");
  // `done` of `total` steps.
  void demoProgress(const QString& line, int done, int total);

 private:
  // Hands the engine thread's reports to the GUI thread; detached by the
  // destructor, so a late report finds no session rather than a dead one.
  struct BackgroundRelay;

  void adopt(const QString& path, std::unique_ptr<Workspace> workspace);
  void setBusy(bool busy);

  JobRunner m_jobs;
  JobRunner::ChannelId m_openChannel;
  std::shared_ptr<BackgroundRelay> m_relay;
  std::unique_ptr<Workspace> m_workspace;
  QString m_path;
  bool m_busy = false;
};

}  // namespace keyscope
