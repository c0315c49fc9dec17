// Shell line completion (see shell_completion.h). Pure functions.
#include "console/shell_completion.h"

#include <QRegularExpression>

#include <algorithm>

#include "keyscope/shell_command.h"

namespace keyscope {

namespace {

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

QStringList startingWith(const QStringList& names, const QString& prefix, Qt::CaseSensitivity cs) {
  QStringList out;
  for (const QString& name : names) {
    if (name.startsWith(prefix, cs)) out.push_back(name);
  }
  out.sort();
  return out;
}

// Where the cursor is, read from the line's start.
struct CursorState {
  bool inString = false;
  int stringStart = -1;      // index of the opening quote of the string the cursor is in
  int topLevelCommas = 0;    // commas outside brackets and strings before the cursor
  int braceDepth = 0;        // { } open at the cursor
  QString firstString;       // the first string literal's text (the table), once closed
  int stringsClosed = 0;
};

CursorState stateAt(const QString& text, int cursor) {
  CursorState s;
  QChar quote;
  int depth = 0;
  QString current;
  for (int i = 0; i < cursor && i < text.size(); ++i) {
    const QChar c = text[i];
    if (s.inString) {
      if (c == QLatin1Char('\\') && i + 1 < cursor) {
        current += text[++i];
      } else if (c == quote) {
        s.inString = false;
        if (s.stringsClosed++ == 0) s.firstString = current;
      } else {
        current += c;
      }
      continue;
    }
    if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
      s.inString = true;
      quote = c;
      s.stringStart = i;
      current.clear();
    } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
      ++depth;
      if (c == QLatin1Char('{')) ++s.braceDepth;
    } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
      depth = std::max(0, depth - 1);
      if (c == QLatin1Char('}')) s.braceDepth = std::max(0, s.braceDepth - 1);
    } else if (c == QLatin1Char(',') && depth == 0) {
      ++s.topLevelCommas;
    }
  }
  return s;
}

}  // namespace

const QStringList& filterNames() {
  static const QStringList names = {
      QStringLiteral("ColumnCountGetFilter"),  QStringLiteral("ColumnPaginationFilter"),
      QStringLiteral("ColumnPrefixFilter"),    QStringLiteral("ColumnRangeFilter"),
      QStringLiteral("DependentColumnFilter"), QStringLiteral("FamilyFilter"),
      QStringLiteral("FirstKeyOnlyFilter"),    QStringLiteral("InclusiveStopFilter"),
      QStringLiteral("KeyOnlyFilter"),         QStringLiteral("MultipleColumnPrefixFilter"),
      QStringLiteral("PageFilter"),            QStringLiteral("PrefixFilter"),
      QStringLiteral("QualifierFilter"),       QStringLiteral("RowFilter"),
      QStringLiteral("SingleColumnValueExcludeFilter"),
      QStringLiteral("SingleColumnValueFilter"),
      QStringLiteral("TimestampsFilter"),      QStringLiteral("ValueFilter"),
  };
  return names;
}

QString filterTemplate(const QString& name) {
  static const QHash<QString, QString> arguments = {
      {QStringLiteral("ColumnCountGetFilter"), QStringLiteral("(1)")},
      {QStringLiteral("ColumnPaginationFilter"), QStringLiteral("(10, 0)")},
      {QStringLiteral("ColumnPrefixFilter"), QStringLiteral("('q')")},
      {QStringLiteral("ColumnRangeFilter"), QStringLiteral("('a', true, 'z', false)")},
      {QStringLiteral("DependentColumnFilter"), QStringLiteral("('f', 'q')")},
      {QStringLiteral("FamilyFilter"), QStringLiteral("(=, 'binary:f')")},
      {QStringLiteral("FirstKeyOnlyFilter"), QStringLiteral("()")},
      {QStringLiteral("InclusiveStopFilter"), QStringLiteral("('row')")},
      {QStringLiteral("KeyOnlyFilter"), QStringLiteral("()")},
      {QStringLiteral("MultipleColumnPrefixFilter"), QStringLiteral("('a', 'b')")},
      {QStringLiteral("PageFilter"), QStringLiteral("(10)")},
      {QStringLiteral("PrefixFilter"), QStringLiteral("('row')")},
      {QStringLiteral("QualifierFilter"), QStringLiteral("(=, 'binary:q')")},
      {QStringLiteral("RowFilter"), QStringLiteral("(=, 'binaryprefix:row')")},
      {QStringLiteral("SingleColumnValueExcludeFilter"),
       QStringLiteral("('f', 'q', =, 'binary:value')")},
      {QStringLiteral("SingleColumnValueFilter"), QStringLiteral("('f', 'q', =, 'binary:value')")},
      {QStringLiteral("TimestampsFilter"), QStringLiteral("(1000, 2000)")},
      {QStringLiteral("ValueFilter"), QStringLiteral("(=, 'substring:text')")},
  };
  return name + QLatin1Char(' ') + arguments.value(name, QStringLiteral("()"));
}

const QStringList& readOptionNames() {
  static const QStringList names = {
      QStringLiteral("ALL_METRICS"), QStringLiteral("BATCH"),     QStringLiteral("CACHE_BLOCKS"),
      QStringLiteral("COLUMNS"),     QStringLiteral("FILTER"),    QStringLiteral("FORMATTER"),
      QStringLiteral("LIMIT"),       QStringLiteral("MAXLENGTH"), QStringLiteral("RAW"),
      QStringLiteral("REVERSED"),    QStringLiteral("ROWPREFIXFILTER"),
      QStringLiteral("STARTROW"),    QStringLiteral("STOPROW"),   QStringLiteral("TIMERANGE"),
      QStringLiteral("TIMESTAMP"),   QStringLiteral("VERSIONS"),
  };
  return names;
}

Completion completeShellLine(const QString& text, int cursor, const CompletionSources& sources) {
  cursor = std::clamp(cursor, 0, static_cast<int>(text.size()));
  Completion completion;
  const CursorState state = stateAt(text, cursor);
  if (state.inString) {
    completion.start = state.stringStart + 1;
    completion.prefix = text.mid(completion.start, cursor - completion.start);
    // FILTER => "...": the filter name being typed (the last word).
    static const QRegularExpression filterOpen(QStringLiteral("FILTER\\s*=>\\s*$"));
    if (filterOpen.match(text.left(state.stringStart)).hasMatch()) {
      int start = cursor;
      while (start > completion.start && isWordChar(text[start - 1])) --start;
      completion.start = start;
      completion.prefix = text.mid(start, cursor - start);
      completion.candidates = startingWith(filterNames(), completion.prefix, Qt::CaseInsensitive);
      return completion;
    }
    if (state.stringsClosed == 0 && state.topLevelCommas == 0 && state.braceDepth == 0) {
      completion.candidates = startingWith(sources.tables, completion.prefix, Qt::CaseSensitive);
      return completion;
    }
    if (state.stringsClosed > 0 && !completion.prefix.contains(QLatin1Char(':'))) {
      const QStringList families = sources.families.value(state.firstString);
      completion.candidates = startingWith(families, completion.prefix, Qt::CaseSensitive);
    }
    return completion;
  }
  int start = cursor;
  while (start > 0 && isWordChar(text[start - 1])) --start;
  completion.start = start;
  completion.prefix = text.mid(start, cursor - start);
  if (text.left(start).trimmed().isEmpty()) {
    QStringList commands;
    for (const std::string& name : shell::commandNames()) commands.push_back(QString::fromStdString(name));
    completion.candidates = startingWith(commands, completion.prefix, Qt::CaseSensitive);
  } else if (state.braceDepth > 0 && !completion.prefix.isEmpty() &&
             completion.prefix == completion.prefix.toUpper()) {
    completion.candidates = startingWith(readOptionNames(), completion.prefix, Qt::CaseSensitive);
  }
  return completion;
}

}  // namespace keyscope
