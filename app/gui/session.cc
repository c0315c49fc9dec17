// Session (see session.h). GUI thread only; open and demo jobs run on the
// runner and hand back a Workspace or a Status.
#include "session.h"

#include <QFile>
#include <QFileInfo>

#include <mutex>
#include <utility>

#include "keyscope/demo.h"

namespace keyscope {

namespace {

// Removes a workspace file and its SQLite companions (any thread).
void removeWorkspaceFiles(const QString& path) {
  for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
    QFile::remove(path + suffix);
  }
}

// Builds the demo into `building` and renames it to `path` (a worker thread).
Status buildDemoFile(const QString& path, const QString& building, JobControl& job) {
  removeWorkspaceFiles(building);  // a crashed build's leftovers
  Status status;
  {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(building.toStdString());
    if (!ws) return ws.status();
    int lines = 0;
    demo::BuildOptions options;
    options.progress = [&job, &lines](const std::string& line) {
      job.reportProgress({++lines, 0, QString::fromStdString(line)});
    };
    options.cancel = job.cancelToken();
    Result<demo::BuildSummary> built = demo::build(*ws.value(), options);
    status = built.status();
  }  // the workspace closes here, before the rename
  if (status.isOk() && !QFile::rename(building, path)) {
    status =
        Status::ioError("cannot rename " + building.toStdString() + " to " + path.toStdString());
  }
  if (!status.isOk()) removeWorkspaceFiles(building);
  return status;
}

}  // namespace

struct Session::BackgroundRelay {
  std::mutex mutex;
  Session* session = nullptr;  // under mutex

  // Any thread.
  void report(const Status& status) {
    std::lock_guard lock(mutex);
    if (session == nullptr) return;
    // Queued to the session's thread; dropped if the session is gone by then.
    QMetaObject::invokeMethod(
        session,
        [target = session, message = QString::fromStdString(status.message())] {
          emit target->backgroundFailed(message);
        },
        Qt::QueuedConnection);
  }
};

OpenOptions Session::openOptions(bool create) {
  OpenOptions options;
  options.createIfMissing = create;
  options.pageCacheBytes = uint64_t{32} << 20;
  return options;
}

Session::Session(QObject* parent)
    : QObject(parent),
      m_openChannel(m_jobs.newChannel()),
      m_relay(std::make_shared<BackgroundRelay>()) {
  m_relay->session = this;
}

Session::~Session() {
  {
    std::lock_guard lock(m_relay->mutex);
    m_relay->session = nullptr;
  }
  close();
}

void Session::open(const QString& path, bool create) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (!create && absolute == m_path) {
    // Already open. A second Workspace on the same file would replay its log
    // and keep a memstore of its own beside the first: never open one twice.
    cancelPending();
    emit opened(absolute);
    return;
  }
  if (create && QFileInfo::exists(absolute)) {
    emit openFailed(absolute, tr("%1 already exists").arg(absolute));
    return;
  }
  if (!create && !QFileInfo::exists(absolute)) {
    emit openFailed(absolute, tr("There is no file %1").arg(absolute));
    return;
  }
  setBusy(true);
  m_jobs.submit(
      m_openChannel, this,
      [absolute, create, relay = m_relay](JobControl&) {
        OpenOptions options = openOptions(create);
        options.onBackgroundError = [relay](const Status& status) { relay->report(status); };
        return Workspace::open(absolute.toStdString(), options);
      },
      [this, absolute](Result<std::unique_ptr<Workspace>> ws) {
        setBusy(false);
        if (!ws) {
          emit openFailed(absolute, QString::fromStdString(ws.status().message()));
          return;
        }
        adopt(absolute, std::move(ws).value());
      });
}

void Session::buildDemo(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  const QString building = absolute + QStringLiteral(".building");
  setBusy(true);
  m_jobs.submit(
      m_openChannel, this,
      [absolute, building](JobControl& job) { return buildDemoFile(absolute, building, job); },
      [this, absolute](Status status) {
        setBusy(false);
        if (!status.isOk()) {
          emit openFailed(absolute, QString::fromStdString(status.message()));
          return;
        }
        open(absolute);
      },
      [this](const JobProgress& progress) {
        emit demoProgress(progress.text, static_cast<int>(progress.done),
                          static_cast<int>(progress.total));
      });
}

void Session::cancelPending() {
  if (!m_busy) return;
  m_jobs.cancel(m_openChannel);
  setBusy(false);
}

void Session::adopt(const QString& path, std::unique_ptr<Workspace> workspace) {
  close();
  m_workspace = std::move(workspace);
  m_path = path;
  emit opened(path);
}

void Session::close() {
  if (!m_workspace) return;
  emit aboutToClose();
  // Every job that might read the workspace is done before it closes. Only
  // the open channel's job (a demo build into another file) does not read
  // it, but it is cancelled too: opening something else supersedes it.
  m_jobs.cancelAll();
  m_jobs.waitForDone();
  setBusy(false);
  m_workspace.reset();
  m_path.clear();
  emit closed();
}

void Session::setBusy(bool busy) {
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

}  // namespace keyscope
