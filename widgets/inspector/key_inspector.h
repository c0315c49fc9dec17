// KeyInspector: the key inspector tab. For the table selected in the
// workspace tree and one row key:
//   - the key's bytes as hex + ASCII, each schema component's bytes in its
//     colour with a legend naming them; a key that does not fit the schema
//     shows the decode error at its byte and its undecoded tail hatched;
//   - the decoded components (KeyComponentModel), editable: a new value
//     re-encodes the key and everything below follows; a bad value is
//     refused with the reason right under the table;
//   - the rows before and after the key in sort order (NeighbourModel), read
//     on the JobRunner (key_neighbours.h), the key marked present or "would
//     sort here"; clicking a row inspects it;
//   - the byte-order check and the key advisor's warnings for the schema.
// The key box reads what the data browser's does (row_key_input.h). With no
// key given, a table's first row is inspected.
//
// Thread rules: GUI thread only. Every read of the workspace runs on the
// job runner (one channel, newest request wins); decoding, encoding and the
// schema checks are pure core functions taking microseconds and run here.
#pragma once

#include <QByteArray>
#include <QString>
#include <QWidget>

#include <optional>

#include "async/job_runner.h"
#include "browser/row_key_input.h"
#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace keyscope {

class InspectorHexModel;
class KeyComponentModel;
class NeighbourModel;

class KeyInspector : public QWidget {
  Q_OBJECT

 public:
  // Rows shown each side of the key.
  static constexpr int kNeighboursPerSide = 5;

  // `runner` is not owned and must outlive the inspector.
  explicit KeyInspector(JobRunner* runner, QWidget* parent = nullptr);

  // The workspace tables are read from; nullptr detaches (reads stop, the
  // views empty). REQUIRES: `ws` stays open until the next setWorkspace().
  void setWorkspace(const Workspace* ws);
  // The table keys belong to (nullopt: none). The key box's text is read
  // again for it; an empty box inspects the table's first row.
  void setTable(const std::optional<TableOptions>& table);
  QString tableName() const;

  void setKeyInputKind(RowKeyInputKind kind);
  RowKeyInputKind keyInputKind() const;
  // Inspects the key written in the key box's kind, as typing it and
  // pressing Enter does. False, with the reason shown, when it does not parse.
  bool inspectText(const QString& text);
  // Inspects `key` and writes it into the key box (escaped text when the
  // box's kind cannot show it).
  void inspectKey(const Bytes& key);

  // What is shown, for tests and the main window.
  std::optional<Bytes> key() const { return m_key; }
  bool isLoading() const { return m_loading; }
  InspectorHexModel* hexModel() const { return m_hexModel; }
  KeyComponentModel* componentModel() const { return m_componentModel; }
  NeighbourModel* neighbourModel() const { return m_neighbourModel; }
  QTableView* componentView() const { return m_componentView; }
  QTableView* neighbourView() const { return m_neighbourView; }
  QString inputErrorText() const;     // why the key box's text was refused
  QString decodeErrorText() const;    // where and why the key stops decoding
  QString editErrorText() const;      // why the last component edit was refused
  QString neighbourStatusText() const;
  QString checksText() const;         // the schema checks, plain text
  QString legendText() const;         // the legend, plain text

 signals:
  void loadingChanged(bool loading);

 private:
  void buildUi();
  void onKeyBoxEntered();
  void showKey();    // m_key → bytes, components; starts reading the neighbours
  void showBytes();  // m_key → hex dump, legend, decode status
  void showChecks();
  void showLegend(const std::optional<size_t>& errorOffset);
  void loadNeighbours();
  void loadFirstRow();
  void setLoading(bool loading);
  void showInputError(const QString& text);
  void onNeighbourClicked(const QModelIndex& index);
  void onComponentEdited(const QByteArray& key);
  void showEditHint();  // how to edit, where an edit's error goes
  void onEditFailed(const QString& message);
  void setKeyBoxText(const Bytes& key);
  void applyColors();
  void changeEvent(QEvent* event) override;

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  std::optional<TableOptions> m_table;
  std::optional<KeySchema> m_schema;
  QString m_schemaError;
  std::optional<Bytes> m_key;
  bool m_loading = false;
  bool m_dark = false;

  QComboBox* m_kind = nullptr;
  QLineEdit* m_keyEdit = nullptr;
  QPushButton* m_inspectButton = nullptr;
  QLabel* m_inputError = nullptr;
  QLabel* m_tableLabel = nullptr;
  InspectorHexModel* m_hexModel = nullptr;
  QTableView* m_hexView = nullptr;
  QLabel* m_legend = nullptr;
  QLabel* m_decodeStatus = nullptr;
  KeyComponentModel* m_componentModel = nullptr;
  QTableView* m_componentView = nullptr;
  QLabel* m_editError = nullptr;
  NeighbourModel* m_neighbourModel = nullptr;
  QTableView* m_neighbourView = nullptr;
  QLabel* m_neighbourStatus = nullptr;
  QLabel* m_checks = nullptr;
};

}  // namespace keyscope
