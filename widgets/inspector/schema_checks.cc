// Schema checks (see schema_checks.h). Pure functions.
#include "inspector/schema_checks.h"

#include <QCoreApplication>

#include <string>

#include "keyscope/key_advisor.h"
#include "keyscope/key_json.h"
#include "keyscope/key_order.h"

namespace keyscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString tr(const char* text) { return QCoreApplication::translate("SchemaChecks", text); }

QString componentWhere(const KeySchema& schema, size_t i) {
  return QStringLiteral("'%1' (%2)").arg(qs(schema[i].name), qs(schema.typeText(i)));
}

}  // namespace

QList<SchemaCheckLine> schemaCheckLines(const KeySchema& schema) {
  QList<SchemaCheckLine> lines;
  const ByteOrderReport order = checkByteOrder(schema);
  if (order.preservesOrder) {
    lines.push_back({SchemaCheckLine::Kind::kGood,
                     tr("Byte order matches tuple order: a scan returns rows in the order of "
                        "their component values.")});
  }
  for (const OrderBreak& b : order.breaks) {
    const KeyComponent& c = schema[b.component];
    lines.push_back(
        {SchemaCheckLine::Kind::kWarning,
         tr("Byte order does not match tuple order in %1: %2. For example %3 is less than %4, "
            "yet its bytes %5 sort after %6.")
             .arg(componentWhere(schema, b.component), qs(b.explanation),
                  qs(valueToJson(c, b.smaller)), qs(valueToJson(c, b.larger)),
                  qs(toHex(b.smallerBytes)), qs(toHex(b.largerBytes)))});
  }
  for (const Advice& advice : adviseKeyDesign(schema)) {
    QString text = qs(advice.message);
    // Named where the advice does not name it already.
    if (advice.component && *advice.component < schema.size() &&
        !text.contains(QStringLiteral("'%1'").arg(qs(schema[*advice.component].name))))
      text = tr("%1: %2").arg(componentWhere(schema, *advice.component), text);
    text += QStringLiteral(" [%1]").arg(qs(advice.code));
    lines.push_back({advice.severity == AdviceSeverity::kWarning ? SchemaCheckLine::Kind::kWarning
                                                                 : SchemaCheckLine::Kind::kInfo,
                     text});
  }
  return lines;
}

SchemaCheckLine missingSchemaLine(const QString& table, const QString& schemaText,
                                  const QString& parseError) {
  if (!schemaText.isEmpty()) {
    return {SchemaCheckLine::Kind::kWarning,
            tr("The key schema '%1' does not parse: %2. Keys are shown as bytes only.")
                .arg(schemaText, parseError)};
  }
  return {SchemaCheckLine::Kind::kInfo,
          tr("No key schema: keys are shown as bytes only. Set one with alter '%1', "
             "KEY_SCHEMA => '...' (see docs/KEY-SCHEMAS.md).")
              .arg(table)};
}

}  // namespace keyscope
