// TableInfoView: what a table is for. Shows the selected table's
// description (TableOptions::description), its key schema and families, and
// its example commands (TableOptions::exampleCommands, the shell language):
// clicking one emits exampleActivated, so the window can copy it now and
// run it in the query console later.
//
// GUI thread only; shows a value handed to it, reads nothing.
#pragma once

#include <QString>
#include <QTextBrowser>

#include <optional>

#include "keyscope/options.h"

namespace keyscope {

class TableInfoView : public QTextBrowser {
  Q_OBJECT

 public:
  explicit TableInfoView(QWidget* parent = nullptr);

  // nullopt: nothing selected.
  void setTable(const std::optional<TableOptions>& table);
  const std::optional<TableOptions>& table() const { return m_table; }

 signals:
  void exampleActivated(const QString& command);

 private:
  void render();
  void changeEvent(QEvent* event) override;

  std::optional<TableOptions> m_table;
};

}  // namespace keyscope
