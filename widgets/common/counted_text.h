// countedText: "1 region", "12,345 regions" - a count with its noun in the
// right number and the locale's digit grouping. (tr("%n ...") pluralises
// only through a loaded translation; Keyscope ships none.)
// Pure; any thread (QLocale's default is read-only after startup).
#pragma once

#include <QLocale>
#include <QString>

namespace keyscope {

inline QString countedText(qint64 count, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(QLocale().toString(count), count == 1 ? singular : plural);
}

}  // namespace keyscope
