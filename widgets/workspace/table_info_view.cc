// TableInfoView (see table_info_view.h). GUI thread only.
#include "workspace/table_info_view.h"

#include <QEvent>
#include <QUrl>

#include "workspace/workspace_tree_model.h"

namespace keyscope {

namespace {

// Example links carry their index: example:3.
const QString kExampleScheme = QStringLiteral("example");

QString html(const std::string& text) {
  return QString::fromStdString(text).toHtmlEscaped();
}

}  // namespace

TableInfoView::TableInfoView(QWidget* parent) : QTextBrowser(parent) {
  setObjectName(QStringLiteral("tableInfo"));
  setOpenLinks(false);
  setOpenExternalLinks(false);
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() != kExampleScheme || !m_table) return;
    bool ok = false;
    const int index = url.path().toInt(&ok);
    if (ok && index >= 0 && static_cast<size_t>(index) < m_table->exampleCommands.size()) {
      emit exampleActivated(
          QString::fromStdString(m_table->exampleCommands[static_cast<size_t>(index)]));
    }
  });
  render();
}

void TableInfoView::setTable(const std::optional<TableOptions>& table) {
  m_table = table;
  render();
}

void TableInfoView::changeEvent(QEvent* event) {
  QTextBrowser::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) render();  // link and code colours follow the palette
}

void TableInfoView::render() {
  if (!m_table) {
    setHtml(tr("<p><i>Select a table to see what it is for.</i></p>"));
    return;
  }
  const TableOptions& table = *m_table;
  const QString muted = palette().color(QPalette::PlaceholderText).name();
  QString out = QStringLiteral("<h3 style=\"margin-bottom:4px\">%1</h3>").arg(html(table.name));
  if (!table.description.empty()) out += QStringLiteral("<p>%1</p>").arg(html(table.description));
  if (!table.keySchema.empty()) {
    out += tr("<p><b>Key schema</b><br><code>%1</code></p>").arg(html(table.keySchema));
  }
  out += tr("<p><b>Families</b>");
  for (const FamilyOptions& family : table.families) {
    out += QStringLiteral("<br><code>%1</code> <span style=\"color:%2\">%3</span>")
               .arg(html(family.name), muted,
                    WorkspaceTreeModel::familySummary(family).toHtmlEscaped());
  }
  out += QStringLiteral("</p>");
  if (!table.exampleCommands.empty()) {
    out +=
        tr("<p><b>Example commands</b> <span style=\"color:%1\">(click one to copy it)</span></p>")
            .arg(muted);
    for (size_t i = 0; i < table.exampleCommands.size(); ++i) {
      out += QStringLiteral(
                 "<p style=\"margin-top:0px; margin-bottom:6px\"><a "
                 "href=\"%1:%2\"><code>%3</code></a></p>")
                 .arg(kExampleScheme)
                 .arg(i)
                 .arg(html(table.exampleCommands[i]));
    }
  }
  setHtml(out);
}

}  // namespace keyscope
