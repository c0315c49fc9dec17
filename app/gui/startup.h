// What the window opens when Keyscope starts:
//   1. the workspace named on the command line;
//   2. else the most recent workspace that still exists;
//   3. else (a first start) the demo workspace in the user's data directory,
//      built first when it is not there yet.
// Pure functions of their arguments (and of the file system for existence).
#pragma once

#include <QString>
#include <QStringList>

namespace keyscope {

struct StartupChoice {
  QString path;            // empty: open nothing
  bool buildDemo = false;  // path is the demo workspace and must be built first
};

// ${XDG_DATA_HOME:-~/.local/share}/keyscope/demo.ksw: the file scripts/run
// and `keyscope-cli demo` use too, so there is one demo workspace per user.
QString demoWorkspacePath();

// `arguments` are the positional command-line arguments.
StartupChoice chooseStartupWorkspace(const QStringList& arguments, const QStringList& recentFiles,
                                     const QString& demoPath);

}  // namespace keyscope
