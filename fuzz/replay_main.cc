// Replays a fuzz target's corpus without libFuzzer, for builds that have none
// (gcc, the normal and sanitizer test builds): links with one fuzz target's
// source and calls its LLVMFuzzerTestOneInput on every file given, directly or
// inside a directory given (not recursively), in name order. A failed
// invariant aborts inside the target, as under libFuzzer, so ctest sees the
// crash; a sanitizer report does the same in a sanitizer build.
//
//   fuzz_replay_shell_parse tests/fuzz-corpus/fuzz_shell_parse [more files or dirs]
//
// Exit status: 0 when every input ran, 2 for bad usage, a path that cannot be
// read, or no input at all (an empty corpus replays nothing and proves nothing).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

bool readFile(const fs::path& path, std::string* out) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) return false;
  std::ifstream in(path, std::ios::binary);
  out->resize(static_cast<size_t>(size));
  in.read(out->data(), static_cast<std::streamsize>(size));
  return in.good() || (size == 0 && !in.bad());
}

// The regular files of `path` (itself when it is one), sorted by name.
bool collect(const fs::path& path, std::vector<fs::path>* files) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) {
    files->push_back(path);
    return true;
  }
  if (!fs::is_directory(path, error)) return false;
  std::vector<fs::path> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
    if (entry.is_regular_file(error)) found.push_back(entry.path());
  }
  if (error) return false;
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (!collect(argv[i], &files)) {
      std::fprintf(stderr, "%s: no such file or directory, or unreadable\n", argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "no inputs found\n");
    return 2;
  }
  std::string data;
  for (const fs::path& file : files) {
    if (!readFile(file, &data)) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      return 2;
    }
    // Printed first, so a crash inside the target names its input.
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), data.size());
    // A copy of exactly the input's size, so that ASan catches a read one past the end.
    const std::vector<uint8_t> input(data.begin(), data.end());
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::fprintf(stderr, "replayed %zu inputs\n", files.size());
  return 0;
}
