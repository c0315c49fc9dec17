// How a Keyscope process asks its C library's allocator to hand memory back.
//
// glibc's malloc serves a request of mmap_threshold bytes or more (128 KiB
// at start) with its own mapping, returned to the system on free. But each
// time such a block is freed, glibc raises the threshold to its size (up to
// 32 MiB) and the trim threshold to twice that. From then on, the engine's
// passing buffers of a few hundred KiB to 2 MiB (a store file's index as a
// flush builds it, a dictionary's training, SQLite's blob copies) come from
// the heaps of the flush and compaction threads, and their freed space
// stays resident there. In the benchmark's random-order load this held
// about 6 MiB of the process's peak (157.5-164.0 MiB in three rounds,
// 153.4-154.8 MiB with the threshold fixed: docs/PERFORMANCE-HISTORY.md,
// 2026-11-30 from 17:30 UTC).
//
// configureProcessAllocator() fixes the threshold at glibc's starting value,
// which also stops the trim threshold from moving. It is process-wide, so it
// belongs to a program's main(), not to a library: keyscope, keyscope-cli,
// keyscope-bench (for every peer alike) and keyscope-read-probe call it
// first thing. Elsewhere than glibc, and under a sanitizer's allocator, it
// does nothing.
#pragma once

namespace keyscope {

// True when the setting was applied.
bool configureProcessAllocator();

}  // namespace keyscope
