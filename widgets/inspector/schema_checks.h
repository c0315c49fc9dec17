// Schema checks: what the key inspector says about a table's key schema, as
// plainly worded lines: whether byte order matches tuple order (key_order.h,
// with its counterexample) and the key advisor's warnings (key_advisor.h).
//
// Pure functions of the schema (microseconds); thread-safe.
#pragma once

#include <QList>
#include <QString>

#include <optional>

#include "keyscope/key_schema.h"

namespace keyscope {

struct SchemaCheckLine {
  enum class Kind { kGood, kWarning, kInfo };
  Kind kind = Kind::kInfo;
  QString text;
};

// The byte-order verdict first (one line per component that breaks it),
// then one line per piece of advice.
QList<SchemaCheckLine> schemaCheckLines(const KeySchema& schema);

// What to say for a table without a usable schema: none set (`schemaText`
// empty), or one that does not parse (`parseError`).
SchemaCheckLine missingSchemaLine(const QString& table, const QString& schemaText,
                                  const QString& parseError);

}  // namespace keyscope
