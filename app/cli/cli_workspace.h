// How keyscope-cli's commands open a workspace: a failure of the engine's
// unattended work (a background flush on a full disk, say) is reported on
// standard error as it happens, once until that work succeeds again.
#pragma once

#include <string>

#include "keyscope/workspace.h"

namespace keyscope::cli {

OpenOptions cliOpenOptions(const std::string& workspacePath, bool createIfMissing = true);

}  // namespace keyscope::cli
