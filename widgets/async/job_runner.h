// JobRunner: the one place where Keyscope's GUI goes asynchronous. Core is
// synchronous; a view hands the runner a piece of work (a function that calls
// core and returns a value), the work runs on the runner's thread pool, and
// its value comes back to the view on the GUI thread.
//
// Channels and generations. Work is submitted on a channel: a sequence of
// requests of which only the newest counts (a table's next page, the tree's
// refresh). Each job gets a generation id; submitting on a channel cancels
// the channel's previous job (through its CancelToken) and makes its result
// stale. A stale or cancelled job's value is dropped, never delivered, so a
// view never sees a page of the table it showed before the user clicked
// another one (KDAB hotspot's JobTracker, DB Browser for SQLite's tokens).
//
// Delivery. The value, and any progress, is posted (queued) to the runner's
// thread and handed to the callbacks only while the context object given at
// submit still exists (a QPointer) and the job is still its channel's
// newest. Callbacks therefore never run on a worker thread and never after
// their context is gone. A streaming job (submitStreaming) also hands over
// partial values while it runs (a scan's rows, batch by batch), delivered
// in order before its value and under the same rules.
//
// Thread rules. The runner, and every context handed to it, live on one
// thread (the GUI thread); submit, cancel and the callbacks run there. Work
// runs on the pool and receives only what its lambda captured: capture
// values (or a pointer to an object the caller keeps alive until the job is
// done: see waitForDone), and return a value. Nothing is shared with the GUI
// thread while the work runs but the job's CancelToken and the events it
// posts; the callbacks stay on the runner's thread (created, called and
// destroyed there). The destructor cancels every job and waits for the pool
// to drain.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "keyscope/cancel_token.h"

namespace keyscope {

// How far a job has come. total 0: unknown.
struct JobProgress {
  qint64 done = 0;
  qint64 total = 0;
  QString text;
};

class JobRunner;
template <typename Partial>
class JobStream;

// What a job's work sees of the runner, on its worker thread.
class JobControl {
 public:
  // Why 100 ms: ten updates a second look continuous to the eye, and a job
  // that reports per row cannot flood the GUI thread's event queue.
  static constexpr std::chrono::milliseconds kProgressInterval{100};

  bool isCancelled() const { return m_cancel->cancelled(); }
  // For core calls that take one (demo::build, exportCsv): valid while the
  // work runs.
  const CancelToken* cancelToken() const { return m_cancel.get(); }

  // Throttled: a report within kProgressInterval of the last one posted is
  // dropped (the job's value follows anyway). Worker thread only.
  void reportProgress(const JobProgress& progress);

 private:
  friend class JobRunner;
  template <typename Partial>
  friend class JobStream;
  JobControl(JobRunner* runner, quint64 generation, std::shared_ptr<CancelToken> cancel)
      : m_runner(runner), m_generation(generation), m_cancel(std::move(cancel)) {}

  JobRunner* m_runner;  // outlives the job: the runner waits for its pool
  quint64 m_generation;
  std::shared_ptr<CancelToken> m_cancel;
  std::chrono::steady_clock::time_point m_lastReport{};
};

// How a channel's jobs compete with the GUI thread for a CPU. Background
// jobs (an export, a streaming scan, a workload run: seconds to minutes of
// work) run on threads of lower priority, so that on a machine with fewer
// idle cores than busy threads the window is still served first; the
// others (a page, a refresh: short, and waited for) run at normal priority.
enum class JobPriority : uint8_t { kInteractive, kBackground };

class JobRunner : public QObject {
  Q_OBJECT

 public:
  using ChannelId = int;
  using ProgressCallback = std::function<void(const JobProgress&)>;

  // maxThreads 0: QThread::idealThreadCount(), and at least 2 so a long job
  // (a demo build) does not hold up a short one (the tree's refresh).
  explicit JobRunner(int maxThreads = 0, QObject* parent = nullptr);
  ~JobRunner() override;  // cancelAll(), then waits for every job

  // A new channel, distinct from every other of this runner.
  ChannelId newChannel(JobPriority priority = JobPriority::kInteractive);

  // Runs `work(JobControl&)` on the pool. Its return value (any movable
  // type) is handed to `onDone` on this thread, unless by then the job was
  // cancelled, a newer job was submitted on `channel`, or `context` was
  // destroyed. `onProgress` gets the job's throttled progress under the
  // same conditions. Cancels the channel's previous job. Returns the job's
  // generation id (ids grow with every submit on any channel).
  // REQUIRES: called on this runner's thread; `context` lives on it too.
  template <typename Work, typename Done>
  quint64 submit(ChannelId channel, QObject* context, Work work, Done onDone,
                 ProgressCallback onProgress = {});

  // As submit, for work that hands over partial values as it goes (a scan's
  // rows, batch by batch): `work(JobControl&, JobStream<Partial>&)` calls
  // stream.send(partial) any number of times, then returns its value.
  // `onPartial(Partial)` gets each partial on this thread, in the order
  // sent and before `onDone`, under the same conditions as `onDone`: once
  // the job is cancelled or stale no further partial is delivered (those
  // already queued are dropped). Partials are not throttled; the work
  // decides how much goes in one.
  template <typename Partial, typename Work, typename OnPartial, typename Done>
  quint64 submitStreaming(ChannelId channel, QObject* context, Work work, OnPartial onPartial,
                          Done onDone, ProgressCallback onProgress = {});

  // Cancels the channel's job and drops its value; the channel stays usable.
  void cancel(ChannelId channel);
  // Cancels every job of every channel.
  void cancelAll();
  // Waits until every job has returned from its work (results still queued
  // for delivery are delivered later, or dropped if stale). Returns false on
  // timeout (msecs -1: no limit). Blocks the calling thread: for closing.
  bool waitForDone(int msecs = -1);

  // True while `generation` is the newest job of `channel` and not cancelled.
  bool isCurrent(ChannelId channel, quint64 generation) const;
  // Jobs submitted whose work has not returned yet, stale ones included.
  int runningJobs() const { return m_running.load(); }

 signals:
  // The number of running jobs went from 0 to more, or back to 0.
  void busyChanged(bool busy);

 private:
  friend class JobControl;
  template <typename Partial>
  friend class JobStream;

  // A submitted job whose value is still wanted. Lives in m_pending (this
  // thread only) from submit until its value is delivered or it goes stale,
  // so callbacks are created, called and destroyed on this thread only.
  struct PendingJob {
    ChannelId channel = 0;
    QPointer<QObject> context;
    std::function<void(std::shared_ptr<void>)> deliver;
    std::function<void(std::shared_ptr<void>)> partial;  // streaming jobs only
    ProgressCallback progress;
    std::shared_ptr<CancelToken> cancel;
  };

  // Registers a job on `channel` (the previous one goes stale and is
  // cancelled) and returns its control block.
  std::shared_ptr<JobControl> beginJob(ChannelId channel, PendingJob pending);
  void dropPending(quint64 generation);  // cancels it and forgets its callbacks
  void startOnPool(ChannelId channel, std::function<void()> task);
  // Worker threads: post a job's value or progress to this runner's thread.
  void postValue(quint64 generation, std::shared_ptr<void> value);
  void postProgress(quint64 generation, const JobProgress& progress);
  void postPartial(quint64 generation, std::shared_ptr<void> partial);
  void jobFinished();

  QThreadPool m_pool;            // interactive channels
  QThreadPool m_backgroundPool;  // background channels: threads of lower priority
  std::unordered_map<quint64, PendingJob> m_pending;  // generation -> job; this thread only
  std::unordered_map<ChannelId, quint64> m_newest;    // channel -> its newest generation
  std::unordered_set<ChannelId> m_backgroundChannels;
  ChannelId m_nextChannel = 1;
  quint64 m_nextGeneration = 1;
  std::atomic<int> m_running{0};
};

// A plain job is a streaming job that never sends a partial value.
template <typename Work, typename Done>
quint64 JobRunner::submit(ChannelId channel, QObject* context, Work work, Done onDone,
                          ProgressCallback onProgress) {
  struct NoPartial {};
  return submitStreaming<NoPartial>(
      channel, context,
      [work = std::move(work)](JobControl& control, JobStream<NoPartial>&) mutable {
        return work(control);
      },
      [](NoPartial) {}, std::move(onDone), std::move(onProgress));
}

// What a streaming job's work sends its partial values through, on its
// worker thread. Valid while the work runs.
template <typename Partial>
class JobStream {
 public:
  explicit JobStream(JobControl& control) : m_control(control) {}
  // Posts `partial` to the runner's thread (dropped there if the job is by
  // then cancelled or stale). Worker thread only.
  void send(Partial partial) {
    if (m_control.isCancelled()) return;
    m_control.m_runner->postPartial(m_control.m_generation,
                                    std::make_shared<Partial>(std::move(partial)));
  }

 private:
  JobControl& m_control;
};

template <typename Partial, typename Work, typename OnPartial, typename Done>
quint64 JobRunner::submitStreaming(ChannelId channel, QObject* context, Work work,
                                   OnPartial onPartial, Done onDone, ProgressCallback onProgress) {
  using Value = std::invoke_result_t<Work&, JobControl&, JobStream<Partial>&>;
  static_assert(!std::is_void_v<Value>, "a job returns a value: its result or a Status");
  PendingJob pending;
  pending.channel = channel;
  pending.context = context;
  pending.deliver = [done =
                         std::make_shared<Done>(std::move(onDone))](std::shared_ptr<void> value) {
    (*done)(std::move(*static_cast<Value*>(value.get())));
  };
  pending.partial = [callback = std::make_shared<OnPartial>(std::move(onPartial))](
                        std::shared_ptr<void> partial) {
    (*callback)(std::move(*static_cast<Partial*>(partial.get())));
  };
  pending.progress = std::move(onProgress);
  std::shared_ptr<JobControl> control = beginJob(channel, std::move(pending));
  startOnPool(channel, [this, control, work = std::make_shared<Work>(std::move(work))] {
    if (!control->isCancelled()) {
      JobStream<Partial> stream(*control);
      std::shared_ptr<void> value = std::make_shared<Value>((*work)(*control, stream));
      if (!control->isCancelled()) postValue(control->m_generation, std::move(value));
    }
    jobFinished();
  });
  return control->m_generation;
}

}  // namespace keyscope
