// QueryForm: the console's form for a get or a scan, with every read option
// the engine has (QuerySpec, query_line.h): table, row or start/stop rows
// (each inclusive or not) or a row prefix, columns, TIMESTAMP or TIMERANGE,
// VERSIONS, RAW, REVERSED, LIMIT, BATCH, results per family and their offset,
// FILTER, CACHE_BLOCKS, the "now" for TTL what-ifs and the value FORMATTER.
// Tables, families and filter names are offered in combo boxes.
// Byte fields read HBase's toStringBinary text (\xNN escapes).
//
// Thread rules: GUI thread only.
#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <optional>

#include "console/query_line.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace keyscope {

class QueryForm : public QWidget {
  Q_OBJECT

 public:
  explicit QueryForm(QWidget* parent = nullptr);

  // The tables offered, and each one's families.
  void setTables(const QStringList& tables, const QHash<QString, QStringList>& families);

  // The form's query; nullopt when a field does not read (then `problem`
  // says which and why).
  std::optional<QuerySpec> spec(QString* problem = nullptr) const;
  // Fills every field (no changed() signal).
  void setSpec(const QuerySpec& spec);
  void setTable(const QString& table);
  QString table() const;

 signals:
  // A field changed (by the user or a setter other than setSpec).
  void changed();

 private:
  void updateEnabled();
  void refreshFamilies();

  QComboBox* m_kind = nullptr;
  QComboBox* m_table = nullptr;
  QLineEdit* m_row = nullptr;
  QLineEdit* m_prefix = nullptr;
  QLineEdit* m_start = nullptr;
  QCheckBox* m_startInclusive = nullptr;
  QLineEdit* m_stop = nullptr;
  QCheckBox* m_stopInclusive = nullptr;
  QLineEdit* m_columns = nullptr;
  QComboBox* m_addFamily = nullptr;
  QComboBox* m_timeMode = nullptr;
  QLineEdit* m_timeMin = nullptr;
  QLineEdit* m_timeMax = nullptr;
  QSpinBox* m_versions = nullptr;
  QCheckBox* m_raw = nullptr;
  QCheckBox* m_reversed = nullptr;
  QCheckBox* m_cacheBlocks = nullptr;
  QSpinBox* m_limit = nullptr;
  QSpinBox* m_batch = nullptr;
  QSpinBox* m_maxPerFamily = nullptr;
  QSpinBox* m_offsetPerFamily = nullptr;
  QLineEdit* m_filter = nullptr;
  QComboBox* m_addFilter = nullptr;
  QLineEdit* m_now = nullptr;
  QLabel* m_nowDate = nullptr;
  QComboBox* m_formatter = nullptr;
  QHash<QString, QStringList> m_families;
  bool m_filling = false;
};

}  // namespace keyscope
