#include "cli_workspace.h"

#include <unistd.h>

namespace keyscope::cli {

OpenOptions cliOpenOptions(const std::string& workspacePath, bool createIfMissing) {
  OpenOptions options;
  options.createIfMissing = createIfMissing;
  options.onBackgroundError = [workspacePath](const Status& status) {
    // On the engine's thread, beside the command's own output: one write(2)
    // keeps the line whole.
    const std::string line =
        "keyscope-cli: " + workspacePath +
        ": background work failed (nothing is lost: the data stays in memory and in the "
        "log, and the work is retried): " +
        status.message() + "\n";
    for (size_t done = 0; done < line.size();) {
      const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  };
  return options;
}

}  // namespace keyscope::cli
