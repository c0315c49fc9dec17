// RecentFiles (see recent_files.h). GUI thread only.
#include "recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace keyscope {

namespace {
constexpr char kKey[] = "recentFiles";
}  // namespace

QStringList RecentFiles::files() const {
  return m_settings->value(kKey).toStringList();
}

void RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMax) list.removeLast();
  store(list);
}

void RecentFiles::remove(const QString& path) {
  QStringList list = files();
  list.removeAll(QFileInfo(path).absoluteFilePath());
  store(list);
}

void RecentFiles::clear() {
  store({});
}

void RecentFiles::store(const QStringList& files) {
  m_settings->setValue(kKey, files);
}

}  // namespace keyscope
