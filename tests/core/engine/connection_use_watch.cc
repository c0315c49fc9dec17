// The SQLite functions of connection_use_watch.h. Each definition here takes
// the place of SQLite's own for the whole test binary (the engine is a static
// library, linked against these first); the real one is found with
// dlsym(RTLD_NEXT). SQLite may call some of them from inside another (its
// sqlite3_exec steps and finalizes), so a thread may enter a connection it is
// already inside.
#include "connection_use_watch.h"

#include <dlfcn.h>
#include <sqlite3.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace keyscope::test::connection_use {
namespace {

constexpr size_t kMaxOverlapsKept = 32;
// How many finalizes of each statement text are held (start()): enough to
// catch every code path that finalizes its statements without the lock,
// few enough not to slow down the paths that hold it (and so everyone
// waiting for it) for long.
constexpr uint64_t kHeldFinalizesPerStatement = 20;

struct Inside {
  std::thread::id thread;
  int depth = 0;
  const char* function = nullptr;  // the outermost call
};

struct State {
  std::mutex mutex;
  std::condition_variable left;
  std::unordered_map<sqlite3*, Inside> inside;
  std::unordered_map<sqlite3_blob*, sqlite3*> blobs;  // open BLOB handles' connections
  std::map<std::string, uint64_t> calls;
  std::unordered_map<std::string, uint64_t> finalizes;  // by statement text
  std::vector<std::string> overlaps;
  bool recording = false;
  std::chrono::microseconds hold{0};
};

State& state() {
  static State* s = new State;  // never destroyed: SQLite may be called during exit
  return *s;
}

// Inside a connection for the life of the object. A call with a `heldAs`
// statement text is held inside (start()) the first few times.
class Entered {
 public:
  Entered(sqlite3* db, const char* function, const char* heldAs = nullptr) : m_db(db) {
    if (db == nullptr) return;
    State& s = state();
    std::chrono::microseconds hold{0};
    {
      std::unique_lock lock(s.mutex);
      const auto self = std::this_thread::get_id();
      Inside& in = s.inside[db];
      if (in.depth > 0 && in.thread != self) {
        if (s.recording && s.overlaps.size() < kMaxOverlapsKept)
          s.overlaps.push_back(std::string(function) +
                               " entered a connection while another thread was inside " +
                               in.function);
        // Bounded: two threads that each wait for the other's connection
        // would otherwise hang the test instead of failing it.
        s.left.wait_for(lock, std::chrono::seconds(2), [&] { return s.inside[db].depth == 0; });
      }
      Inside& mine = s.inside[db];
      if (mine.depth++ == 0) {
        mine.thread = self;
        mine.function = function;
      }
      if (s.recording) {
        ++s.calls[function];
        if (heldAs != nullptr && ++s.finalizes[heldAs] <= kHeldFinalizesPerStatement) hold = s.hold;
      }
    }
    if (hold.count() > 0) std::this_thread::sleep_for(hold);
  }
  ~Entered() {
    if (m_db == nullptr) return;
    State& s = state();
    {
      std::lock_guard lock(s.mutex);
      if (--s.inside[m_db].depth > 0) return;
    }
    s.left.notify_all();
  }
  Entered(const Entered&) = delete;
  Entered& operator=(const Entered&) = delete;

 private:
  sqlite3* m_db;
};

sqlite3* connectionOf(sqlite3_stmt* statement) {
  return statement == nullptr ? nullptr : sqlite3_db_handle(statement);
}

const char* finalizeHeldAs(sqlite3_stmt* statement) {
  return statement == nullptr ? nullptr : sqlite3_sql(statement);
}

sqlite3* connectionOf(sqlite3_blob* blob) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = s.blobs.find(blob);
  return it == s.blobs.end() ? nullptr : it->second;
}

template <typename Function>
Function* real(Function*, const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (found == nullptr) {
    std::fprintf(stderr, "connection_use_watch: SQLite has no %s\n", name);
    std::abort();
  }
  return reinterpret_cast<Function*>(found);
}

}  // namespace

void start(std::chrono::microseconds hold) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.overlaps.clear();
  s.calls.clear();
  s.finalizes.clear();
  s.hold = hold;
  s.recording = true;
}

std::vector<std::string> stop() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.recording = false;
  s.hold = std::chrono::microseconds(0);
  return s.overlaps;
}

uint64_t calls(const std::string& function) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = s.calls.find(function);
  return it == s.calls.end() ? 0 : it->second;
}

uint64_t finalizesOf(const std::string& statementText) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = s.finalizes.find(statementText);
  return it == s.finalizes.end() ? 0 : it->second;
}

}  // namespace keyscope::test::connection_use

using keyscope::test::connection_use::connectionOf;
using keyscope::test::connection_use::Entered;
using keyscope::test::connection_use::finalizeHeldAs;
using keyscope::test::connection_use::real;
using keyscope::test::connection_use::state;

// Each replaced function: enter the connection `db`, then call SQLite's.
#define KEYSCOPE_WATCHED(ret, name, params, db, heldAs, args) \
  extern "C" ret name params {                                \
    static auto* const original = real(&name, #name);         \
    Entered entered(db, #name, heldAs);                       \
    return original args;                                     \
  }

// Statements: built, run and destroyed.
KEYSCOPE_WATCHED(int, sqlite3_prepare_v2,
                 (sqlite3 * db, const char* sql, int n, sqlite3_stmt** out, const char** tail), db,
                 nullptr, (db, sql, n, out, tail))
KEYSCOPE_WATCHED(int, sqlite3_prepare_v3,
                 (sqlite3 * db, const char* sql, int n, unsigned int flags, sqlite3_stmt** out,
                  const char** tail),
                 db, nullptr, (db, sql, n, flags, out, tail))
KEYSCOPE_WATCHED(int, sqlite3_finalize, (sqlite3_stmt * st), connectionOf(st), finalizeHeldAs(st),
                 (st))
KEYSCOPE_WATCHED(int, sqlite3_step, (sqlite3_stmt * st), connectionOf(st), nullptr, (st))
KEYSCOPE_WATCHED(int, sqlite3_reset, (sqlite3_stmt * st), connectionOf(st), nullptr, (st))
KEYSCOPE_WATCHED(int, sqlite3_clear_bindings, (sqlite3_stmt * st), connectionOf(st), nullptr, (st))
KEYSCOPE_WATCHED(int, sqlite3_bind_int64, (sqlite3_stmt * st, int i, sqlite3_int64 v),
                 connectionOf(st), nullptr, (st, i, v))
KEYSCOPE_WATCHED(int, sqlite3_bind_double, (sqlite3_stmt * st, int i, double v), connectionOf(st),
                 nullptr, (st, i, v))
KEYSCOPE_WATCHED(int, sqlite3_bind_null, (sqlite3_stmt * st, int i), connectionOf(st), nullptr,
                 (st, i))
KEYSCOPE_WATCHED(int, sqlite3_bind_blob64,
                 (sqlite3_stmt * st, int i, const void* v, sqlite3_uint64 n,
                  void (*destroy)(void*)),
                 connectionOf(st), nullptr, (st, i, v, n, destroy))
KEYSCOPE_WATCHED(int, sqlite3_bind_text64,
                 (sqlite3_stmt * st, int i, const char* v, sqlite3_uint64 n, void (*destroy)(void*),
                  unsigned char encoding),
                 connectionOf(st), nullptr, (st, i, v, n, destroy, encoding))
KEYSCOPE_WATCHED(const void*, sqlite3_column_blob, (sqlite3_stmt * st, int i), connectionOf(st),
                 nullptr, (st, i))
KEYSCOPE_WATCHED(int, sqlite3_column_bytes, (sqlite3_stmt * st, int i), connectionOf(st), nullptr,
                 (st, i))
KEYSCOPE_WATCHED(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt * st, int i), connectionOf(st),
                 nullptr, (st, i))
KEYSCOPE_WATCHED(double, sqlite3_column_double, (sqlite3_stmt * st, int i), connectionOf(st),
                 nullptr, (st, i))
KEYSCOPE_WATCHED(int, sqlite3_column_type, (sqlite3_stmt * st, int i), connectionOf(st), nullptr,
                 (st, i))

// Connections.
KEYSCOPE_WATCHED(int, sqlite3_exec,
                 (sqlite3 * db, const char* sql, int (*callback)(void*, int, char**, char**),
                  void* arg, char** error),
                 db, nullptr, (db, sql, callback, arg, error))
KEYSCOPE_WATCHED(int, sqlite3_close, (sqlite3 * db), db, nullptr, (db))
KEYSCOPE_WATCHED(const char*, sqlite3_errmsg, (sqlite3 * db), db, nullptr, (db))
KEYSCOPE_WATCHED(int, sqlite3_changes, (sqlite3 * db), db, nullptr, (db))
KEYSCOPE_WATCHED(int, sqlite3_get_autocommit, (sqlite3 * db), db, nullptr, (db))
KEYSCOPE_WATCHED(int, sqlite3_wal_checkpoint_v2,
                 (sqlite3 * db, const char* schema, int mode, int* log, int* copied), db, nullptr,
                 (db, schema, mode, log, copied))
KEYSCOPE_WATCHED(int, sqlite3_file_control, (sqlite3 * db, const char* schema, int op, void* arg),
                 db, nullptr, (db, schema, op, arg))

// BLOB handles, each on the connection that opened it.
extern "C" int sqlite3_blob_open(sqlite3* db, const char* schema, const char* table,
                                 const char* column, sqlite3_int64 row, int flags,
                                 sqlite3_blob** out) {
  static auto* const original = real(&sqlite3_blob_open, "sqlite3_blob_open");
  Entered entered(db, "sqlite3_blob_open");
  const int rc = original(db, schema, table, column, row, flags, out);
  if (*out != nullptr) {
    std::lock_guard lock(state().mutex);
    state().blobs[*out] = db;
  }
  return rc;
}
extern "C" int sqlite3_blob_close(sqlite3_blob* blob) {
  static auto* const original = real(&sqlite3_blob_close, "sqlite3_blob_close");
  sqlite3* const db = connectionOf(blob);
  Entered entered(db, "sqlite3_blob_close");
  {
    std::lock_guard lock(state().mutex);
    state().blobs.erase(blob);
  }
  return original(blob);
}
KEYSCOPE_WATCHED(int, sqlite3_blob_reopen, (sqlite3_blob * blob, sqlite3_int64 row),
                 connectionOf(blob), nullptr, (blob, row))
KEYSCOPE_WATCHED(int, sqlite3_blob_read, (sqlite3_blob * blob, void* out, int n, int offset),
                 connectionOf(blob), nullptr, (blob, out, n, offset))
KEYSCOPE_WATCHED(int, sqlite3_blob_write, (sqlite3_blob * blob, const void* in, int n, int offset),
                 connectionOf(blob), nullptr, (blob, in, n, offset))
KEYSCOPE_WATCHED(int, sqlite3_blob_bytes, (sqlite3_blob * blob), connectionOf(blob), nullptr,
                 (blob))
