// JobRunner (see job_runner.h). m_pending and m_newest are touched on the
// runner's thread only; workers reach it through queued invocations.
#include "async/job_runner.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QRunnable>
#include <QThread>

#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace keyscope {
namespace {

// Lowers the calling pool thread's priority, once per thread. On Linux that
// is the thread's nice value (each thread has its own): 10 above the GUI's,
// it gets about a tenth of a core's time against the GUI thread, and all the
// time nobody else wants; it never starves (as SCHED_IDLE, Qt's
// IdlePriority, would on a busy machine). Elsewhere Qt's LowPriority.
void lowerThisThreadsPriority() {
  thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
#ifdef __linux__
  // Relative to the thread's own: a GUI started with nice keeps the gap.
  const auto thread = static_cast<id_t>(gettid());
  const int current = getpriority(PRIO_PROCESS, thread);
  setpriority(PRIO_PROCESS, thread, std::min(current + 10, 19));
#else
  QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

}  // namespace

void JobControl::reportProgress(const JobProgress& progress) {
  const auto now = std::chrono::steady_clock::now();
  if (now - m_lastReport < kProgressInterval) return;
  m_lastReport = now;
  m_runner->postProgress(m_generation, progress);
}

JobRunner::JobRunner(int maxThreads, QObject* parent) : QObject(parent) {
  const int threads = maxThreads > 0 ? maxThreads : std::max(2, QThread::idealThreadCount());
  m_pool.setMaxThreadCount(threads);
  m_backgroundPool.setMaxThreadCount(threads);
}

JobRunner::~JobRunner() {
  cancelAll();
  m_pool.waitForDone();
  m_backgroundPool.waitForDone();
}

JobRunner::ChannelId JobRunner::newChannel(JobPriority priority) {
  const ChannelId channel = m_nextChannel++;
  if (priority == JobPriority::kBackground) m_backgroundChannels.insert(channel);
  return channel;
}

std::shared_ptr<JobControl> JobRunner::beginJob(ChannelId channel, PendingJob pending) {
  Q_ASSERT(QThread::currentThread() == thread());
  Q_ASSERT(!pending.context || pending.context->thread() == thread());
  cancel(channel);
  const quint64 generation = m_nextGeneration++;
  pending.cancel = std::make_shared<CancelToken>();
  // make_shared cannot reach the private constructor.
  std::shared_ptr<JobControl> control(new JobControl(this, generation, pending.cancel));
  m_newest[channel] = generation;
  m_pending.emplace(generation, std::move(pending));
  return control;
}

void JobRunner::cancel(ChannelId channel) {
  const auto newest = m_newest.find(channel);
  if (newest == m_newest.end()) return;
  dropPending(newest->second);
  m_newest.erase(newest);
}

void JobRunner::cancelAll() {
  for (const auto& [channel, generation] : m_newest) dropPending(generation);
  m_newest.clear();
}

void JobRunner::dropPending(quint64 generation) {
  const auto job = m_pending.find(generation);
  if (job == m_pending.end()) return;
  job->second.cancel->cancel();
  m_pending.erase(job);
}

bool JobRunner::waitForDone(int msecs) {
  if (msecs < 0) return m_pool.waitForDone() && m_backgroundPool.waitForDone();
  QElapsedTimer clock;
  clock.start();
  if (!m_pool.waitForDone(msecs)) return false;
  return m_backgroundPool.waitForDone(std::max<int>(0, msecs - static_cast<int>(clock.elapsed())));
}

bool JobRunner::isCurrent(ChannelId channel, quint64 generation) const {
  const auto newest = m_newest.find(channel);
  return newest != m_newest.end() && newest->second == generation &&
         m_pending.count(generation) > 0;
}

void JobRunner::startOnPool(ChannelId channel, std::function<void()> task) {
  if (m_running.fetch_add(1) == 0) emit busyChanged(true);
  if (m_backgroundChannels.count(channel) == 0) {
    m_pool.start(std::move(task));
    return;
  }
  m_backgroundPool.start([task = std::move(task)] {
    lowerThisThreadsPriority();
    task();
  });
}

void JobRunner::jobFinished() {
  if (m_running.fetch_sub(1) == 1) {
    QMetaObject::invokeMethod(
        this,
        [this] {
          if (m_running.load() == 0) emit busyChanged(false);
        },
        Qt::QueuedConnection);
  }
}

void JobRunner::postValue(quint64 generation, std::shared_ptr<void> value) {
  QMetaObject::invokeMethod(
      this,
      [this, generation, value = std::move(value)]() mutable {
        const auto found = m_pending.find(generation);
        if (found == m_pending.end()) return;  // stale or cancelled: dropped
        PendingJob job = std::move(found->second);
        m_pending.erase(found);
        const auto newest = m_newest.find(job.channel);
        if (newest != m_newest.end() && newest->second == generation) m_newest.erase(newest);
        if (job.context) job.deliver(std::move(value));
      },
      Qt::QueuedConnection);
}

void JobRunner::postProgress(quint64 generation, const JobProgress& progress) {
  QMetaObject::invokeMethod(
      this,
      [this, generation, progress] {
        const auto found = m_pending.find(generation);
        if (found == m_pending.end() || !found->second.context || !found->second.progress) return;
        // Copied first: the callback may submit on the same channel, which
        // drops this entry.
        const ProgressCallback callback = found->second.progress;
        callback(progress);
      },
      Qt::QueuedConnection);
}

void JobRunner::postPartial(quint64 generation, std::shared_ptr<void> partial) {
  QMetaObject::invokeMethod(
      this,
      [this, generation, partial = std::move(partial)]() mutable {
        const auto found = m_pending.find(generation);
        if (found == m_pending.end() || !found->second.context || !found->second.partial) return;
        // Copied first: the callback may cancel or submit on the same
        // channel, which drops this entry.
        const auto callback = found->second.partial;
        callback(std::move(partial));
      },
      Qt::QueuedConnection);
}

}  // namespace keyscope
