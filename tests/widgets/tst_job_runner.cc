// Qt Test for JobRunner: values come back on the runner's thread; a newer
// job on a channel makes the older one's value stale (dropped) and cancels
// it; cancel, a destroyed context and the destructor stop delivery; progress
// is throttled; waitForDone waits; a streaming job's partials come in
// order before its value and stop at cancel; background channels run at a
// lower priority. GUI thread, with work on the pool.
#include <QElapsedTimer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cerrno>
#include <memory>
#include <vector>

#include "async/job_runner.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

using keyscope::JobControl;
using keyscope::JobProgress;
using keyscope::JobRunner;

namespace {

// Work that blocks until the test releases it, then returns `value`.
struct GatedWork {
  std::shared_ptr<QSemaphore> gate;
  int value;
  int operator()(JobControl&) const {
    gate->acquire();
    return value;
  }
};

}  // namespace

class TestJobRunner : public QObject {
  Q_OBJECT

 private slots:
  void deliversTheValueOnTheRunnersThread() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    std::atomic<QThread*> workThread{nullptr};
    QThread* doneThread = nullptr;
    int got = 0;
    runner.submit(
        channel, &context,
        [&workThread](JobControl&) {
          workThread = QThread::currentThread();
          return 42;
        },
        [&](int value) {
          got = value;
          doneThread = QThread::currentThread();
        });
    QTRY_COMPARE(got, 42);
    QCOMPARE(doneThread, QThread::currentThread());
    QVERIFY(workThread.load() != QThread::currentThread());
  }

  void aNewerJobOnTheChannelMakesTheOlderStaleAndCancelsIt() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    auto gate = std::make_shared<QSemaphore>();
    std::vector<int> delivered;
    std::atomic<bool> firstStarted{false};
    std::atomic<bool> firstSawCancel{false};
    runner.submit(
        channel, &context,
        [gate, &firstStarted, &firstSawCancel](JobControl& job) {
          firstStarted = true;
          gate->acquire();
          firstSawCancel = job.isCancelled();
          return 1;
        },
        [&delivered](int value) { delivered.push_back(value); });
    QTRY_VERIFY(firstStarted.load());
    const quint64 second = runner.submit(channel, &context, GatedWork{gate, 2},
                                         [&delivered](int value) { delivered.push_back(value); });
    QVERIFY(runner.isCurrent(channel, second));
    gate->release(2);
    QTRY_COMPARE(delivered, std::vector<int>{2});
    QVERIFY(runner.waitForDone(5000));
    QTest::qWait(50);  // anything still queued would arrive now
    QCOMPARE(delivered, std::vector<int>{2});
    QVERIFY(firstSawCancel.load());
  }

  void aStaleValueThatArrivesFirstIsStillDropped() {
    // The old job finishes before the new one: its value is queued first,
    // and must not reach the context.
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    auto firstGate = std::make_shared<QSemaphore>();
    auto secondGate = std::make_shared<QSemaphore>();
    std::vector<int> delivered;
    runner.submit(channel, &context, GatedWork{firstGate, 1},
                  [&delivered](int v) { delivered.push_back(v); });
    runner.submit(channel, &context, GatedWork{secondGate, 2},
                  [&delivered](int v) { delivered.push_back(v); });
    firstGate->release();
    QTest::qWait(50);
    QVERIFY(delivered.empty());
    secondGate->release();
    QTRY_COMPARE(delivered, std::vector<int>{2});
  }

  void aValueAlreadyQueuedWhenANewerJobStartsIsDropped() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    std::vector<int> delivered;
    runner.submit(
        channel, &context, [](JobControl&) { return 1; },
        [&delivered](int v) { delivered.push_back(v); });
    // No event loop here: the first value is done and queued, not delivered.
    QVERIFY(runner.waitForDone(5000));
    QVERIFY(delivered.empty());
    runner.submit(
        channel, &context, [](JobControl&) { return 2; },
        [&delivered](int v) { delivered.push_back(v); });
    QTRY_COMPARE(delivered, std::vector<int>{2});
    QTest::qWait(50);
    QCOMPARE(delivered, std::vector<int>{2});
  }

  void workCancelledBeforeItStartsNeverRuns() {
    JobRunner runner(1);  // one thread: the second job waits for the first
    QObject context;
    auto gate = std::make_shared<QSemaphore>();
    std::atomic<bool> ran{false};
    runner.submit(runner.newChannel(), &context, GatedWork{gate, 0}, [](int) {});
    const int channel = runner.newChannel();
    runner.submit(
        channel, &context,
        [&ran](JobControl&) {
          ran = true;
          return 0;
        },
        [](int) {});
    runner.cancel(channel);
    gate->release();
    QVERIFY(runner.waitForDone(5000));
    QVERIFY(!ran.load());
  }

  void channelsAreIndependent() {
    JobRunner runner;
    QObject context;
    const int a = runner.newChannel();
    const int b = runner.newChannel();
    QVERIFY(a != b);
    std::vector<int> delivered;
    runner.submit(
        a, &context, [](JobControl&) { return 1; },
        [&delivered](int v) { delivered.push_back(v); });
    runner.submit(
        b, &context, [](JobControl&) { return 2; },
        [&delivered](int v) { delivered.push_back(v); });
    QTRY_COMPARE(delivered.size(), size_t{2});
  }

  void cancelSetsTheTokenAndDropsTheValue() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    std::atomic<bool> started{false};
    std::atomic<int> iterations{0};
    bool delivered = false;
    const quint64 job = runner.submit(
        channel, &context,
        [&](JobControl& control) {
          started = true;
          while (!control.cancelToken()->cancelled()) {
            ++iterations;
            QThread::msleep(1);
          }
          return 0;
        },
        [&delivered](int) { delivered = true; });
    QTRY_VERIFY(started.load());
    runner.cancel(channel);
    QVERIFY(!runner.isCurrent(channel, job));
    QVERIFY(runner.waitForDone(5000));  // the loop saw the token
    QTest::qWait(50);
    QVERIFY(!delivered);
  }

  void aDestroyedContextGetsNothing() {
    JobRunner runner;
    auto context = std::make_unique<QObject>();
    const int channel = runner.newChannel();
    auto gate = std::make_shared<QSemaphore>();
    bool delivered = false;
    runner.submit(channel, context.get(), GatedWork{gate, 7},
                  [&delivered](int) { delivered = true; });
    context.reset();
    gate->release();
    QVERIFY(runner.waitForDone(5000));
    QTest::qWait(50);
    QVERIFY(!delivered);
  }

  void moveOnlyValuesAreHandedOver() {
    JobRunner runner;
    QObject context;
    std::unique_ptr<int> got;
    runner.submit(
        runner.newChannel(), &context, [](JobControl&) { return std::make_unique<int>(5); },
        [&got](std::unique_ptr<int> value) { got = std::move(value); });
    QTRY_VERIFY(got != nullptr);
    QCOMPARE(*got, 5);
  }

  void progressIsThrottled() {
    JobRunner runner;
    QObject context;
    int reports = 0;
    qint64 lastDone = -1;
    qint64 workMillis = -1;
    runner.submit(
        runner.newChannel(), &context,
        [](JobControl& job) {
          // 300 reports a millisecond apart: one per 100 ms gets through.
          QElapsedTimer clock;
          clock.start();
          for (int i = 1; i <= 300; ++i) {
            job.reportProgress({i, 300, {}});
            QThread::msleep(1);
          }
          return clock.elapsed();
        },
        [&workMillis](qint64 millis) { workMillis = millis; },
        [&](const JobProgress& progress) {
          ++reports;
          QVERIFY(progress.done > lastDone);
          lastDone = progress.done;
        });
    QTRY_VERIFY_WITH_TIMEOUT(workMillis >= 0, 10000);
    QVERIFY2(reports >= 1, "the first report gets through");
    // However slow the machine, no more than one per interval (plus the first).
    const qint64 allowed = workMillis / JobControl::kProgressInterval.count() + 1;
    QVERIFY2(reports <= allowed,
             qPrintable(QStringLiteral("%1 reports in %2 ms").arg(reports).arg(workMillis)));
    QVERIFY(reports < 300);
  }

  void progressOfAStaleJobIsDropped() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    auto gate = std::make_shared<QSemaphore>();
    int reports = 0;
    runner.submit(
        channel, &context,
        [gate](JobControl& job) {
          gate->acquire();
          job.reportProgress({1, 1, QStringLiteral("old")});
          return 0;
        },
        [](int) {}, [&reports](const JobProgress&) { ++reports; });
    runner.cancel(channel);
    gate->release();
    QVERIFY(runner.waitForDone(5000));
    QTest::qWait(50);
    QCOMPARE(reports, 0);
  }

  void destructorCancelsAndWaitsForRunningJobs() {
    std::atomic<bool> finished{false};
    {
      JobRunner runner;
      QObject context;
      std::atomic<bool> started{false};
      runner.submit(
          runner.newChannel(), &context,
          [&](JobControl& job) {
            started = true;
            while (!job.isCancelled()) QThread::msleep(1);
            finished = true;
            return 0;
          },
          [](int) {});
      QTRY_VERIFY(started.load());
    }
    QVERIFY(finished.load());
  }

  void busyChangedFollowsRunningJobs() {
    JobRunner runner;
    QObject context;
    QSignalSpy busy(&runner, &JobRunner::busyChanged);
    auto gate = std::make_shared<QSemaphore>();
    runner.submit(runner.newChannel(), &context, GatedWork{gate, 0}, [](int) {});
    QCOMPARE(busy.count(), 1);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(runner.runningJobs(), 1);
    gate->release();
    QTRY_COMPARE(busy.count(), 2);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    QCOMPARE(runner.runningJobs(), 0);
  }

  void streamingDeliversPartialsInOrderBeforeTheValue() {
    JobRunner runner;
    QObject context;
    std::vector<int> partials;
    QThread* const guiThread = QThread::currentThread();
    bool partialsOnGuiThread = true;
    bool doneAfterPartials = false;
    int total = 0;
    runner.submitStreaming<std::vector<int>>(
        runner.newChannel(), &context,
        [](JobControl&, keyscope::JobStream<std::vector<int>>& stream) {
          for (int batch = 0; batch < 5; ++batch) stream.send({batch * 2, batch * 2 + 1});
          return 10;
        },
        [&](std::vector<int> batch) {
          partialsOnGuiThread = partialsOnGuiThread && QThread::currentThread() == guiThread;
          partials.insert(partials.end(), batch.begin(), batch.end());
        },
        [&](int value) {
          total = value;
          doneAfterPartials = partials.size() == 10;
        });
    QTRY_COMPARE(total, 10);
    QVERIFY(doneAfterPartials);
    QVERIFY(partialsOnGuiThread);
    for (int i = 0; i < 10; ++i) QCOMPARE(partials[static_cast<size_t>(i)], i);
  }

  void noPartialArrivesAfterCancel() {
    JobRunner runner;
    QObject context;
    const int channel = runner.newChannel();
    auto firstSent = std::make_shared<QSemaphore>();
    std::atomic<int> sent{0};
    int received = 0;
    bool done = false;
    runner.submitStreaming<int>(
        channel, &context,
        [&sent, firstSent](JobControl& job, keyscope::JobStream<int>& stream) {
          stream.send(1);
          ++sent;
          firstSent->release();
          // Goes on sending until it sees the cancel, as a scan does.
          while (!job.isCancelled()) {
            stream.send(1);
            ++sent;
            QThread::msleep(1);
          }
          return 0;
        },
        [&](int) {
          ++received;
          // Cancel from inside the callback, as a view's Cancel reached
          // between two batches would.
          if (received == 1) runner.cancel(channel);
        },
        [&](int) { done = true; });
    firstSent->acquire();
    QTRY_COMPARE(received, 1);
    QVERIFY(runner.waitForDone(5000));
    QTest::qWait(50);  // anything still queued would be delivered now
    QCOMPARE(received, 1);
    QVERIFY(!done);
    QVERIFY(sent.load() >= 1);
  }

  void aDestroyedContextGetsNoPartials() {
    JobRunner runner;
    auto context = std::make_unique<QObject>();
    auto gate = std::make_shared<QSemaphore>();
    int received = 0;
    runner.submitStreaming<int>(
        runner.newChannel(), context.get(),
        [gate](JobControl&, keyscope::JobStream<int>& stream) {
          gate->acquire();
          stream.send(7);
          return 0;
        },
        [&](int) { ++received; }, [](int) {});
    context.reset();
    gate->release();
    QVERIFY(runner.waitForDone(5000));
    QTest::qWait(50);
    QCOMPARE(received, 0);
  }

#ifdef __linux__
  // A background channel's work runs on a thread of lower priority (nice
  // 10) than the GUI's; an interactive channel's at the GUI's own. Both
  // deliver as usual, and waitForDone waits for both kinds.
  void backgroundWorkRunsAtLowerPriority() {
    JobRunner runner;
    QObject context;
    auto niceOfThisThread = [](JobControl&) {
      errno = 0;
      return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    };
    int background = -100;
    int interactive = -100;
    runner.submit(runner.newChannel(keyscope::JobPriority::kBackground), &context, niceOfThisThread,
                  [&](int nice) { background = nice; });
    runner.submit(runner.newChannel(), &context, niceOfThisThread, [&](int nice) { interactive = nice; });
    QVERIFY(runner.waitForDone(5000));
    QTRY_VERIFY(background != -100 && interactive != -100);
    const int gui = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    QCOMPARE(interactive, gui);
    QCOMPARE(background, std::min(gui + 10, 19));
  }
#endif
};

QTEST_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
