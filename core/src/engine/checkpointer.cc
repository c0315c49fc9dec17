#include "engine/checkpointer.h"

#include <algorithm>
#include <chrono>

#include "engine/reader_pool.h"

namespace keyscope::engine {

namespace {

// Step 1 of a round ends when fewer frames than an eighth of the trigger
// are left to copy; step 2 copies about that many while commits wait.
constexpr int kStepTwoShare = 8;
constexpr int kMaxStepOnePasses = 4;
// A log of this many triggers is copied by the commit that finds it so
// (checkpointer.h).
constexpr int kMostLogTriggers = 8;
// How long step 2 waits, commits held, for readers to leave the log (a
// reader gives its snapshot up within kMaxLeaseHold), and how often it looks.
constexpr auto kReaderWait = 3 * kMaxLeaseHold;
constexpr auto kReaderPoll = std::chrono::microseconds(250);

}  // namespace

Checkpointer::Checkpointer(sqlite3* connection, FairMutex* commits, std::function<void()> releaseIdleSnapshots,
                           int triggerPages)
    : m_connection(connection),
      m_commits(commits),
      m_releaseIdleSnapshots(std::move(releaseIdleSnapshots)),
      m_triggerPages(std::max(1, triggerPages)) {
  // Called while a RESTART checkpoint waits (PASSIVE ones never do). A
  // connection a reader gives back keeps its snapshot in the pool
  // (reader_pool.h): each look ends those.
  sqlite3_busy_handler(
      m_connection,
      [](void* self, int tries) {
        if (tries * kReaderPoll >= kReaderWait) return 0;
        static_cast<Checkpointer*>(self)->m_releaseIdleSnapshots();
        std::this_thread::sleep_for(kReaderPoll);
        return 1;
      },
      this);
  // A connection learns that the database is in WAL mode from its first
  // read; until then a checkpoint finds no log to copy.
  (void)sqlite3_exec(m_connection, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, nullptr);
  m_thread = std::thread([this] { run(); });
}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_one();
  m_thread.join();
  sqlite3_close(m_connection);
}

bool Checkpointer::roundDue(int logPages) const {
  if (logPages < m_triggerPages) return false;
  const int base = m_roundBase.load(std::memory_order_relaxed);
  return logPages < base || logPages - base >= m_triggerPages;
}

void Checkpointer::logCommitted(int logPages) {
  m_logPages.store(logPages, std::memory_order_relaxed);
  if (logPages >= kMostLogTriggers * m_triggerPages) {
    // Once per trigger's growth: a reader's snapshot may be what holds the
    // log back, and then each commit would wait for it in vain.
    const int last = m_lastCommitCheckpoint.load(std::memory_order_relaxed);
    if (logPages < last || logPages - last >= m_triggerPages) {
      m_lastCommitCheckpoint.store(logPages, std::memory_order_relaxed);
      m_releaseIdleSnapshots();
      checkpoint(SQLITE_CHECKPOINT_RESTART);  // after the pass under way, if any
      m_commitCheckpoints.fetch_add(1);
      return;
    }
  }
  if (!roundDue(logPages)) return;
  {
    std::lock_guard lock(m_mutex);
    if (m_requested) return;
    m_requested = true;
  }
  m_wake.notify_one();
}

void Checkpointer::run() {
  while (true) {
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stopping || m_requested; });
      if (m_stopping) return;
      m_requested = false;
    }
    // A request made during the last round may find the log started again.
    if (roundDue(m_logPages.load(std::memory_order_relaxed))) runRound();
  }
}

void Checkpointer::runRound() {
  const int leftForStepTwo = std::max(1, m_triggerPages / kStepTwoShare);
  m_releaseIdleSnapshots();
  Pass pass = checkpoint(SQLITE_CHECKPOINT_PASSIVE);
  for (int i = 1; i < kMaxStepOnePasses && pass.ran && pass.left > leftForStepTwo; ++i) {
    const int before = pass.left;
    pass = checkpoint(SQLITE_CHECKPOINT_PASSIVE);
    if (pass.ran && pass.left >= before) {
      // A reader's snapshot holds the rest back: it is given up soon.
      m_releaseIdleSnapshots();
      std::this_thread::sleep_for(kMaxLeaseHold);
    }
  }
  if (pass.ran && pass.left <= leftForStepTwo) {
    syncFiles();
    std::lock_guard commits(*m_commits);
    m_releaseIdleSnapshots();
    pass = checkpoint(SQLITE_CHECKPOINT_RESTART);
  }
  m_roundBase.store(std::max(pass.logFrames, m_logPages.load(std::memory_order_relaxed)), std::memory_order_relaxed);
  m_rounds.fetch_add(1);
  if (pass.ran && pass.left == 0) m_finishedRounds.fetch_add(1);
}

Checkpointer::Pass Checkpointer::checkpoint(int mode) {
  std::lock_guard checkpointing(m_checkpointing);
  Pass pass;
  int copied = 0;
  const int rc = sqlite3_wal_checkpoint_v2(m_connection, "main", mode, &pass.logFrames, &copied);
  // SQLITE_BUSY: a RESTART that gave up waiting for a reader or the writer
  // lock copied what it could, as a PASSIVE one.
  pass.ran = (rc == SQLITE_OK || rc == SQLITE_BUSY) && pass.logFrames >= 0;
  pass.left = pass.logFrames - copied;
  return pass;
}

void Checkpointer::syncFiles() {
  std::lock_guard checkpointing(m_checkpointing);  // the handles are the connection's
  // The log first, as a checkpoint syncs them.
  for (const int handle : {SQLITE_FCNTL_JOURNAL_POINTER, SQLITE_FCNTL_FILE_POINTER}) {
    sqlite3_file* file = nullptr;
    if (sqlite3_file_control(m_connection, "main", handle, &file) != SQLITE_OK || file == nullptr ||
        file->pMethods == nullptr)
      continue;
    // A failure is step 2's to report: its own sync meets it again.
    (void)file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
  }
}

}  // namespace keyscope::engine
