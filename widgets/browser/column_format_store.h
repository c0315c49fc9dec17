// ColumnFormatStore: the display format the user chose for each column of
// each table of each workspace, kept in QSettings so it survives restarts:
//
//   columnFormats/<workspace>/<table>/<column> = "hex"   (value_format.h's names)
//
// each part percent-encoded (a workspace is its absolute path, a column is
// "row", "row.COMPONENT" or "family:qualifier", any may hold '/'). A
// column's default format (escaped text, or a key component's typed
// default such as epoch for row.ts) is stored as no entry.
//
// GUI thread only (QSettings objects are not shared across threads).
#pragma once

#include <QHash>
#include <QString>

#include "browser/value_format.h"

class QSettings;

namespace keyscope {

class ColumnFormatStore {
 public:
  // `settings` is not owned and must outlive the store.
  explicit ColumnFormatStore(QSettings* settings) : m_settings(settings) {}

  // Every format stored for the table, by column name.
  QHash<QString, ValueFormat> formats(const QString& workspace, const QString& table) const;
  void setFormat(const QString& workspace, const QString& table, const QString& column,
                 ValueFormat format, ValueFormat defaultFormat = ValueFormat::kEscaped);

 private:
  QString group(const QString& workspace, const QString& table) const;

  QSettings* m_settings;
};

}  // namespace keyscope
