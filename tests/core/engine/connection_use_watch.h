// Watches SQLite connections for use by two threads at once.
//
// The engine opens its connections SQLITE_OPEN_NOMUTEX: SQLite does not
// serialise calls on them, and the engine's own locks must keep each
// connection to one thread at a time (the database mutex for the catalog's,
// a lease for a reader's, the checkpointing mutex for the checkpointer's).
// Two threads inside one connection corrupt its memory without any error:
// its lookaside allocator and statement list are plain, unlocked lists.
//
// A test binary that links connection_use_watch.cc replaces the SQLite
// functions the engine calls on connections, statements and BLOB handles
// (all but those that set a connection up as it opens, and those that read
// its file name and last error for a message) with ones that note which
// thread is inside which connection, and then pass the call on to SQLite. A call that enters a
// connection another thread is inside is recorded as an overlap, and waits for that thread to leave
// (so the test fails with a message, not with a damaged heap).
//
// Threads: any.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace keyscope::test::connection_use {

// Starts recording overlaps (forgetting earlier ones). The first few
// finalizes of each statement text are held inside the connection for
// `hold`, so any other use of the connection in that time is caught, not
// only one that happens to coincide with the finalize's microseconds.
void start(std::chrono::microseconds hold);

// Stops recording; returns what was seen, one line per overlap (at most a
// few dozen), e.g. "sqlite3_step entered a connection while another thread
// was inside sqlite3_finalize".
std::vector<std::string> stop();

// How many times `function` (e.g. "sqlite3_step") was called since start(),
// on any connection.
uint64_t calls(const std::string& function);

// How many statements of this text were finalized since start().
uint64_t finalizesOf(const std::string& statementText);

}  // namespace keyscope::test::connection_use
