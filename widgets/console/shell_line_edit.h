// ShellLineEdit: the console's shell line. A QLineEdit with
//   - history: Up and Down walk the lines run before (newest first), kept in
//     the QSettings given (at most kMaxHistory, no two alike in a row);
//   - completion: Tab completes the word at the cursor (shell_completion.h):
//     one candidate is inserted, several are offered in a popup.
// Enter (returnPressed) is the console's to handle.
//
// Thread rules: GUI thread only.
#pragma once

#include <QLineEdit>
#include <QStringList>

#include "console/shell_completion.h"

class QCompleter;
class QSettings;
class QStringListModel;

namespace keyscope {

class ShellLineEdit : public QLineEdit {
  Q_OBJECT

 public:
  static constexpr int kMaxHistory = 200;

  // `settings` keeps the history (not owned; nullptr: none kept); it must
  // outlive the line.
  explicit ShellLineEdit(QSettings* settings, QWidget* parent = nullptr);

  void setCompletionSources(CompletionSources sources) { m_sources = std::move(sources); }
  const CompletionSources& completionSources() const { return m_sources; }

  // Adds a line run (newest last) and stores the history.
  void addToHistory(const QString& line);
  QStringList history() const { return m_history; }
  // As Up and Down do.
  void historyBack();
  void historyForward();

  // As Tab does: the candidates for the cursor's word (also shown).
  QStringList complete();
  // The completion popup (for tests: it lists the candidates offered).
  QCompleter* completer() const { return m_completer; }

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void insertCompletion(const QString& candidate);

  QSettings* m_settings;
  QStringList m_history;     // oldest first
  int m_historyPos = -1;     // -1: not walking; else an index into m_history
  QString m_draft;           // the line typed before walking the history
  CompletionSources m_sources;
  QCompleter* m_completer = nullptr;
  QStringListModel* m_candidates = nullptr;
  int m_completionStart = 0;
  int m_completionEnd = 0;
};

}  // namespace keyscope
