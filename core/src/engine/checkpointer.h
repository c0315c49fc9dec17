// Checkpointer: copies SQLite's write-ahead log (the workspace's -wal file,
// not Keyscope's own log table) back into the database file on a thread of
// its own.
//
// SQLite's automatic checkpoint runs inside whichever commit takes the log
// past 1,000 pages: that commit copies 8 MiB and waits for the two fsyncs
// around the copy (with synchronous = NORMAL they are the only ones). In a
// key-ordered load that was the largest share of the writer's waits, about
// 45% of its context switches (keyscope-bench, perf sched): a batch's commit
// paid for all batches since.
//
// A round, once the log holds the trigger's pages (kDefaultTriggerPages):
//   1. PASSIVE checkpoints on this connection, beside commits, until what is
//      left is small (frames committed meanwhile);
//   2. then, while commits wait (the caller's mutex held), a RESTART
//      checkpoint: it copies the rest and waits briefly for readers to leave
//      the log, so the next commit starts it again from its beginning.
//      Just before, beside commits, the log and the database file are
//      synced: a checkpoint syncs the log before it copies and the database
//      after it has copied to the log's end, and step 1's passes seldom reach
//      the end, so step 2's syncs would otherwise write back all the pages
//      step 1 copied (up to a trigger's worth) while commits wait. Synced
//      first, they find only step 2's own. Over a 5-million-cell
//      key-ordered load and its compaction (keyscope-read-probe) that took
//      the time step 2 held commits from 1.14 s to 0.78 s (medians of 6 and
//      5 loads), and the load's client-visible time down 5%.
// SQLite starts the log again only when a commit finds it copied to its end
// with no reader in it. Without step 2 a steady writer always stays ahead,
// and the -wal file grows with everything written: in a load of 5 million
// cells it reached 1.9 GB with step 1 alone (0.6 GB with SQLite's own
// checkpoints, which a compaction's read snapshot held back).
//
// A read snapshot keeps the frames after it from being copied. Readers give
// theirs up within milliseconds (kMaxLeaseHold, and the idle ones when a
// round asks), so a round waits for them only that long; a round that still
// cannot finish leaves the rest to the next, once the log has grown by the
// trigger again.
//
// Should frames come faster than the thread copies them (a writer with
// nothing else to do), the commit that takes the log past 8 triggers copies
// it itself, as SQLite's automatic checkpoint would, after the pass under
// way: the -wal file stays bounded, and commits pay only then.
//
// A checkpoint that fails (a full disk) loses nothing - the frames stay in
// the log, readable - and the next round tries again.
//
// Threads: logCommitted() from committing threads; the rest is internal.
// Lock order: `commits`, then m_checkpointing.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "engine/fair_mutex.h"

namespace keyscope::engine {

class Checkpointer {
 public:
  // SQLite's own automatic checkpoint size (8 MiB of 8 KiB pages).
  static constexpr int kDefaultTriggerPages = 1000;

  // connection: a read-write connection to the workspace (Catalog::
  // openCheckpointer), owned and closed from here. commits: held by every
  // commit on the writer connection; outlives this. releaseIdleSnapshots:
  // ends the read snapshots of idle reader connections; any thread.
  // triggerPages: a round starts once the log holds this many pages.
  Checkpointer(sqlite3* connection, FairMutex* commits, std::function<void()> releaseIdleSnapshots,
               int triggerPages = kDefaultTriggerPages);
  ~Checkpointer();  // finishes the round under way
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // After each commit on the writer connection (its SQLite WAL hook), with
  // the log's size in pages. Cheap below the trigger: one atomic store.
  // REQUIRES: `commits` held, as it is during a commit.
  void logCommitted(int logPages);

  // Rounds run, and of them those that left the log copied to its end.
  uint64_t rounds() const { return m_rounds.load(); }
  uint64_t finishedRounds() const { return m_finishedRounds.load(); }
  // Checkpoints a commit ran itself (the thread had fallen behind).
  uint64_t commitCheckpoints() const { return m_commitCheckpoints.load(); }

 private:
  struct Pass {
    bool ran = false;   // false: an error; nothing is known
    int logFrames = 0;  // in the log
    int left = 0;       // of them not copied into the database
  };

  void run();
  void runRound();
  bool roundDue(int logPages) const;
  // On m_connection, by the thread or by a commit. REQUIRES: for RESTART,
  // `commits` held.
  Pass checkpoint(int mode);
  // Syncs the log and the database file through m_connection's handles.
  void syncFiles();

  sqlite3* m_connection;
  FairMutex m_checkpointing;  // held while m_connection checkpoints
  FairMutex* m_commits;
  std::function<void()> m_releaseIdleSnapshots;
  const int m_triggerPages;
  std::atomic<int> m_logPages{0};
  // The log's size after the last round: the next waits for the trigger's
  // pages more, or for a smaller log (SQLite started it again). A log
  // started again that grows past this before the hook sees it at the
  // trigger waits for this + the trigger: the -wal file then reaches about
  // twice the trigger.
  std::atomic<int> m_roundBase{0};
  std::atomic<int> m_lastCommitCheckpoint{0};  // the log's size then
  std::atomic<uint64_t> m_rounds{0};
  std::atomic<uint64_t> m_finishedRounds{0};
  std::atomic<uint64_t> m_commitCheckpoints{0};
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_requested = false;  // under m_mutex
  bool m_stopping = false;   // under m_mutex
  std::thread m_thread;
};

}  // namespace keyscope::engine
