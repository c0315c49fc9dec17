// Completion for the console's shell line: what may come at the cursor.
//   - the first word:                        command names (core's commandNames());
//   - the first string argument:             table names;
//   - a later string, once a table is named: its family names ('d', 'd:');
//   - inside FILTER => "...":                filter names;
//   - an upper-case word inside { }:         the get/scan option names.
// Pure functions over plain lists; any thread.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace keyscope {

struct CompletionSources {
  QStringList tables;
  QHash<QString, QStringList> families;  // table -> its family names
};

// What may replace text[start, cursor).
struct Completion {
  int start = 0;           // where the word being completed begins
  QString prefix;          // text[start, cursor)
  QStringList candidates;  // sorted, each starting with prefix (filters: case-insensitively)
};

Completion completeShellLine(const QString& text, int cursor, const CompletionSources& sources);

// HBase's filter names, as the filter language reads them (DESIGN.md "Shell").
const QStringList& filterNames();
// A filter with placeholder arguments to edit: "ValueFilter (=, 'binary:')".
QString filterTemplate(const QString& name);

// The option names of get and scan maps.
const QStringList& readOptionNames();

}  // namespace keyscope
