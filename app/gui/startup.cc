// Startup choice (see startup.h).
#include "startup.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace keyscope {

QString demoWorkspacePath() {
  // GenericDataLocation rather than AppDataLocation (.../Keyscope/Keyscope):
  // the same file scripts/run builds with keyscope-cli.
  const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
  return QDir(data).filePath(QStringLiteral("keyscope/demo.ksw"));
}

StartupChoice chooseStartupWorkspace(const QStringList& arguments, const QStringList& recentFiles,
                                     const QString& demoPath) {
  if (!arguments.isEmpty()) return {arguments.constFirst(), false};
  for (const QString& recent : recentFiles) {
    if (QFileInfo::exists(recent)) return {recent, false};
  }
  if (demoPath.isEmpty()) return {};
  return {demoPath, !QFileInfo::exists(demoPath)};
}

}  // namespace keyscope
