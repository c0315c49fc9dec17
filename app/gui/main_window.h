// MainWindow: Keyscope's main window. For now its one view is the key schema
// lab (a schema view above a key bytes view); the workspace views of
// DESIGN.md are not built yet. Wiring only: menus, the splitter, and
// window state and the last schema/tuple kept in QSettings.
//
// GUI thread only.
#pragma once

#include <QMainWindow>

class QCloseEvent;
class QSplitter;

namespace keyscope {

class KeyBytesView;
class KeySchemaView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // With `persistState`, window geometry and the lab's last schema and tuple
  // are restored now and saved on close; without it (screenshots, tests) the
  // window starts from the defaults and writes nothing.
  explicit MainWindow(bool persistState, QWidget* parent = nullptr);

  KeySchemaView* schemaView() const { return m_schemaView; }
  KeyBytesView* bytesView() const { return m_bytesView; }

  // A workspace path was given on the command line.
  void noteWorkspaceArgument(const QString& path);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createMenus();
  void showAbout();
  void saveSettings() const;

  bool m_persistState = false;
  QSplitter* m_labSplitter = nullptr;
  KeySchemaView* m_schemaView = nullptr;
  KeyBytesView* m_bytesView = nullptr;
};

}  // namespace keyscope
