// ColumnFormatStore (see column_format_store.h). GUI thread only.
#include "browser/column_format_store.h"

#include <QSettings>
#include <QUrl>

namespace keyscope {

namespace {

QString encoded(const QString& part) {
  return QString::fromLatin1(QUrl::toPercentEncoding(part));
}

QString decoded(const QString& key) {
  return QUrl::fromPercentEncoding(key.toLatin1());
}

}  // namespace

QString ColumnFormatStore::group(const QString& workspace, const QString& table) const {
  return QStringLiteral("columnFormats/%1/%2").arg(encoded(workspace), encoded(table));
}

QHash<QString, ValueFormat> ColumnFormatStore::formats(const QString& workspace,
                                                       const QString& table) const {
  QHash<QString, ValueFormat> out;
  m_settings->beginGroup(group(workspace, table));
  for (const QString& key : m_settings->childKeys()) {
    const std::optional<ValueFormat> format =
        valueFormatFromName(m_settings->value(key).toString().toStdString());
    if (format) out.insert(decoded(key), *format);
  }
  m_settings->endGroup();
  return out;
}

void ColumnFormatStore::setFormat(const QString& workspace, const QString& table,
                                  const QString& column, ValueFormat format,
                                  ValueFormat defaultFormat) {
  const QString key = group(workspace, table) + QLatin1Char('/') + encoded(column);
  if (format == defaultFormat) {
    m_settings->remove(key);
  } else {
    m_settings->setValue(key, QString::fromLatin1(valueFormatName(format)));
  }
}

}  // namespace keyscope
