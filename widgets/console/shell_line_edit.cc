// ShellLineEdit (see shell_line_edit.h). GUI thread only.
#include "console/shell_line_edit.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QScrollBar>
#include <QSettings>
#include <QStringListModel>

namespace keyscope {

namespace {
constexpr char kHistoryKey[] = "console/history";
}  // namespace

ShellLineEdit::ShellLineEdit(QSettings* settings, QWidget* parent)
    : QLineEdit(parent), m_settings(settings) {
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setPlaceholderText(tr("scan 'table', {LIMIT => 10}   (Tab completes; Up/Down: history)"));
  setClearButtonEnabled(true);
  if (m_settings) m_history = m_settings->value(kHistoryKey).toStringList();
  m_candidates = new QStringListModel(this);
  m_completer = new QCompleter(m_candidates, this);
  m_completer->setWidget(this);
  m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
  m_completer->setCaseSensitivity(Qt::CaseInsensitive);
  connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this,
          &ShellLineEdit::insertCompletion);
}

void ShellLineEdit::addToHistory(const QString& line) {
  m_historyPos = -1;
  if (line.trimmed().isEmpty()) return;
  if (m_history.isEmpty() || m_history.constLast() != line) m_history.push_back(line);
  while (m_history.size() > kMaxHistory) m_history.removeFirst();
  if (m_settings) m_settings->setValue(kHistoryKey, m_history);
}

void ShellLineEdit::historyBack() {
  if (m_history.isEmpty()) return;
  if (m_historyPos == -1) {
    m_draft = text();
    m_historyPos = static_cast<int>(m_history.size());
  }
  if (m_historyPos == 0) return;
  --m_historyPos;
  setText(m_history[m_historyPos]);
}

void ShellLineEdit::historyForward() {
  if (m_historyPos == -1) return;
  ++m_historyPos;
  if (m_historyPos >= m_history.size()) {
    m_historyPos = -1;
    setText(m_draft);
    return;
  }
  setText(m_history[m_historyPos]);
}

QStringList ShellLineEdit::complete() {
  const Completion completion = completeShellLine(text(), cursorPosition(), m_sources);
  m_completionStart = completion.start;
  m_completionEnd = cursorPosition();
  if (completion.candidates.size() == 1) {
    insertCompletion(completion.candidates.front());
  } else if (completion.candidates.size() > 1) {
    m_candidates->setStringList(completion.candidates);
    QRect rect = cursorRect();
    rect.setWidth(m_completer->popup()->sizeHintForColumn(0) +
                  m_completer->popup()->verticalScrollBar()->sizeHint().width() + 16);
    m_completer->complete(rect);
  }
  return completion.candidates;
}

void ShellLineEdit::insertCompletion(const QString& candidate) {
  QString line = text();
  line.replace(m_completionStart, m_completionEnd - m_completionStart, candidate);
  setText(line);
  setCursorPosition(m_completionStart + static_cast<int>(candidate.size()));
}

bool ShellLineEdit::event(QEvent* event) {
  // Tab completes instead of moving the focus.
  if (event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Tab && key->modifiers() == Qt::NoModifier) {
      complete();
      return true;
    }
  }
  return QLineEdit::event(event);
}

void ShellLineEdit::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Up) {
    historyBack();
    return;
  }
  if (event->key() == Qt::Key_Down) {
    historyForward();
    return;
  }
  QLineEdit::keyPressEvent(event);
}

}  // namespace keyscope
