// RecentFiles: the workspaces opened lately, newest first, at most kMax,
// kept in QSettings under "recentFiles" so File > Open Recent survives
// restarts.
//
// GUI thread only (QSettings objects are not shared across threads).
#pragma once

#include <QString>
#include <QStringList>

class QSettings;

namespace keyscope {

class RecentFiles {
 public:
  // Why 10: what fits a menu without scrolling, and more than anyone juggles.
  static constexpr int kMax = 10;

  // `settings` is not owned and must outlive this.
  explicit RecentFiles(QSettings* settings) : m_settings(settings) {}

  QStringList files() const;
  // Puts `path` (made absolute) first, dropping an older entry for it and
  // the oldest beyond kMax.
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 private:
  void store(const QStringList& files);

  QSettings* m_settings;
};

}  // namespace keyscope
