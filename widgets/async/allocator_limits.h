// limitAllocatorArenas: caps the C library's malloc arenas for a process
// whose work runs on a pool of threads (the GUI's job runner). glibc gives
// busy threads arenas of their own, up to eight per core, and each keeps
// the memory its thread freed; after a scan or an export on every pool
// thread, tens of MiB sit in arenas no thread uses any more. Two arenas
// keep the threads from queueing on one lock while the resident set stays
// what the views hold. Call first thing in main(), before any thread starts.
// Elsewhere than glibc: nothing.
//
// Thread rules: limitAllocatorArenas before any thread starts; the other
// from any thread.
#pragma once

namespace keyscope {

void limitAllocatorArenas();

// Hands the memory the C library holds freed back to the system (glibc's
// malloc_trim): after a long job (an export, a scan of a whole table) its
// buffers are free but stay resident in the arenas they came from. Costs a
// walk over the heaps (milliseconds); any thread. Elsewhere: nothing.
void releaseFreedMemory();

}  // namespace keyscope
