// KeySchemaView: the schema half of the key schema lab. The user types (or
// loads a classic design as) a one-line row-key schema; the view shows the
// parse error at its column, the components with their sizes and byte
// offsets, whether byte order equals value order (with the counterexample
// when it does not), and the key-design advisor's warnings.
//
// Thread rules: GUI thread only. Parsing, the byte-order check and the advisor
// are microsecond-cheap pure core functions, so they run synchronously on the
// GUI thread on every edit; nothing here touches a database. Work that can be
// slow (sample keys from a table) must go through a background job instead.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "keyscope/key_schema.h"

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace keyscope {

class KeySchemaView : public QWidget {
  Q_OBJECT

 public:
  explicit KeySchemaView(QWidget* parent = nullptr);

  // Replaces the schema text as if typed, and on a parse error moves the
  // caret to the error's column.
  void setSchemaText(const QString& text);
  QString schemaText() const;

  // The parsed schema, or nullopt while the text does not parse.
  const std::optional<KeySchema>& schema() const { return m_schema; }

  // What the view shows, for tests and for other views.
  QString errorText() const;           // empty when the schema parses
  std::optional<int> errorColumn() const { return m_errorColumn; }  // 1-based, as reported
  QString verdictText() const;         // the byte-order verdict; empty without a schema
  bool verdictPreservesOrder() const { return m_preservesOrder; }
  QAbstractItemModel* componentModel() const;  // name, type, order, encoding, size, offset
  QAbstractItemModel* adviceModel() const;     // code, component, message (severity as icon)

 signals:
  // The text was edited or set; `schema()` holds the new parse (or nullopt).
  void schemaChanged();
  // A classic design was loaded: an example tuple for it, as JSON (key_json.h).
  void exampleTupleSuggested(const QString& json);

 private:
  void loadDesign(int comboIndex);
  void reparse();
  void moveCaretToError();
  void showComponents();
  void showVerdict();
  void showAdvice();
  void fitAdviceRows();
  void applyColors();
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

  QComboBox* m_designs = nullptr;
  QLineEdit* m_schemaEdit = nullptr;
  QLabel* m_errorLabel = nullptr;
  QTableWidget* m_components = nullptr;
  QLabel* m_verdictLabel = nullptr;
  QTableWidget* m_advice = nullptr;
  QLabel* m_noAdvice = nullptr;  // shown instead of an empty list

  std::optional<KeySchema> m_schema;
  std::optional<int> m_errorColumn;
  bool m_preservesOrder = true;
};

}  // namespace keyscope
