// WorkloadForm (see workload_form.h). GUI thread only.
#include "workload/workload_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"
#include "keyscope/key_schema.h"

namespace keyscope {

namespace {

constexpr size_t kPreviewKeys = 6;

QSpinBox* spin(QWidget* parent, int minimum, int maximum, const QString& special = {}) {
  auto* box = new QSpinBox(parent);
  box->setRange(minimum, maximum);
  box->setGroupSeparatorShown(true);
  if (!special.isEmpty()) box->setSpecialValueText(special);
  return box;
}

}  // namespace

WorkloadForm::WorkloadForm(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_previewChannel(runner->newChannel()) {
  m_preset = new QComboBox(this);
  for (const WorkloadPreset& preset : workloadPresets()) {
    m_preset->addItem(QString::fromStdString(preset.name), QString::fromStdString(preset.name));
    m_preset->setItemData(m_preset->count() - 1, QString::fromStdString(preset.description), Qt::ToolTipRole);
  }
  m_preset->addItem(tr("(custom)"), QString());
  m_design = new QComboBox(this);
  for (KeyDesign design : keyDesigns()) m_design->addItem(QString::fromLatin1(keyDesignName(design)));
  m_schema = new QLineEdit(this);
  m_schema->setPlaceholderText(tr("salt:salt(4, user) | user:utf8 | ts:revts"));
  m_generators = new QLineEdit(this);
  m_generators->setPlaceholderText(tr("user=zipf(100); ts=now"));
  m_clients = spin(this, 1, 10000);
  m_mix = new QLineEdit(this);
  m_mix->setToolTip(tr("Shares of puts, gets and scans: put=90,get=8,scan=2"));
  m_rate = new QDoubleSpinBox(this);
  m_rate->setRange(0, 10000000);
  m_rate->setDecimals(0);
  m_rate->setGroupSeparatorShown(true);
  m_rate->setSpecialValueText(tr("as fast as possible"));
  m_rate->setSuffix(tr(" ops/s"));
  m_operations = spin(this, 0, 100000000, tr("no limit"));
  m_duration = spin(this, 0, 1000000, tr("no limit"));
  m_duration->setSuffix(tr(" s"));
  m_saltBuckets = spin(this, 1, 256);
  m_preSplit = spin(this, 1, 1000);
  m_seed = spin(this, 0, 2000000000);
  m_speed = new QComboBox(this);
  m_speed->addItem(tr("real time (×1)"), 1.0);
  m_speed->addItem(tr("×5"), 5.0);
  m_speed->addItem(tr("×10"), 10.0);
  m_speed->addItem(tr("×50"), 50.0);
  m_speed->addItem(tr("as fast as possible"), 0.0);
  m_speed->setToolTip(tr("Simulated seconds per second on the clock: slow enough to watch the load form"));
  m_table = new QLineEdit(this);
  m_table->setToolTip(tr("The table a single run writes in the open workspace (a free name is chosen when it exists)"));
  m_preview = new QPlainTextEdit(this);
  m_preview->setReadOnly(true);
  m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_preview->setMaximumHeight(m_preview->fontMetrics().lineSpacing() * static_cast<int>(kPreviewKeys + 2));
  m_preview->setToolTip(tr("The first keys the run will write, decoded by the design's key schema"));
  m_error = new QLabel(this);
  m_error->setWordWrap(true);
  m_error->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_error->setStyleSheet(QStringLiteral("color: #d03030"));
  m_error->hide();

  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("Preset"), m_preset);
  form->addRow(tr("Key design"), m_design);
  form->addRow(tr("Key schema"), m_schema);
  form->addRow(tr("Generators"), m_generators);
  form->addRow(tr("Salt buckets"), m_saltBuckets);
  form->addRow(tr("Pre-split regions"), m_preSplit);
  form->addRow(tr("Clients"), m_clients);
  form->addRow(tr("Mix"), m_mix);
  form->addRow(tr("Rate"), m_rate);
  form->addRow(tr("Operations"), m_operations);
  form->addRow(tr("Duration"), m_duration);
  form->addRow(tr("Seed"), m_seed);
  form->addRow(tr("Speed"), m_speed);
  form->addRow(tr("Table"), m_table);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("First keys:"), this));
  layout->addWidget(m_preview);
  layout->addWidget(m_error);

  connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
    const QString name = m_preset->currentData().toString();
    if (!name.isEmpty()) applyPreset(name);
  });
  for (QComboBox* box : {m_design, m_speed})
    connect(box, &QComboBox::currentIndexChanged, this, &WorkloadForm::onChanged);
  for (QLineEdit* edit : {m_schema, m_generators, m_mix, m_table})
    connect(edit, &QLineEdit::textEdited, this, &WorkloadForm::onChanged);
  for (QSpinBox* box : {m_clients, m_operations, m_duration, m_saltBuckets, m_preSplit, m_seed})
    connect(box, &QSpinBox::valueChanged, this, &WorkloadForm::onChanged);
  connect(m_rate, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::onChanged);

  m_speed->setCurrentIndex(2);  // ×10: the default A/B run takes ten seconds
  applyPreset(QStringLiteral("monotonic"));
}

bool WorkloadForm::applyPreset(const QString& name) {
  WorkloadOptions options;
  if (!applyWorkloadPreset(name.toStdString(), &options)) return false;
  m_applying = true;
  m_base = options;
  m_preset->setCurrentIndex(std::max(0, m_preset->findData(name)));
  m_design->setCurrentText(QString::fromLatin1(keyDesignName(options.keys.design)));
  m_schema->setText(QString::fromStdString(options.keys.keySchema));
  m_saltBuckets->setValue(static_cast<int>(options.keys.saltBuckets));
  m_preSplit->setValue(static_cast<int>(options.newTable.preSplitRegions));
  m_clients->setValue(static_cast<int>(options.clients));
  // operationMixText writes shares as "put=90%"; the form takes plain weights.
  m_mix->setText(QString::fromStdString(operationMixText(options.mix)).remove(QLatin1Char('%')));
  m_rate->setValue(options.rate.value_or(0));
  m_operations->setValue(static_cast<int>(options.operations.value_or(0)));
  m_duration->setValue(static_cast<int>(options.durationMillis.value_or(0) / 1000));
  m_table->setText(QStringLiteral("workload_%1").arg(QString::fromLatin1(keyDesignName(options.keys.design))));
  m_applying = false;
  onChanged();
  return true;
}

void WorkloadForm::onChanged() {
  if (m_applying) return;
  const bool custom = m_design->currentText() == QLatin1String(keyDesignName(KeyDesign::kSchema));
  m_schema->setEnabled(custom);
  m_generators->setEnabled(custom);
  m_saltBuckets->setEnabled(m_design->currentText() == QLatin1String(keyDesignName(KeyDesign::kSalted)));
  updatePreview();
  emit changed();
}

Result<WorkloadOptions> WorkloadForm::options() const {
  WorkloadOptions o = m_base;
  const std::optional<KeyDesign> design = parseKeyDesign(m_design->currentText().toStdString());
  if (!design) return Status::invalidArgument("key design: unknown '" + m_design->currentText().toStdString() + "'");
  o.keys.design = *design;
  o.keys.saltBuckets = static_cast<uint32_t>(m_saltBuckets->value());
  o.keys.keySchema.clear();
  o.keys.generators.clear();
  if (*design == KeyDesign::kSchema) {
    o.keys.keySchema = m_schema->text().trimmed().toStdString();
    if (o.keys.keySchema.empty()) return Status::invalidArgument("key schema: empty (the custom design needs one)");
    for (const QString& item : m_generators->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
      const qsizetype equals = item.indexOf(QLatin1Char('='));
      if (item.trimmed().isEmpty()) continue;
      if (equals <= 0)
        return Status::invalidArgument("generators: '" + item.trimmed().toStdString() + "' is not NAME=SPEC");
      o.keys.generators.emplace_back(item.left(equals).trimmed().toStdString(),
                                     item.mid(equals + 1).trimmed().toStdString());
    }
  }
  o.newTable.preSplitRegions = static_cast<uint32_t>(m_preSplit->value());
  o.clients = static_cast<uint32_t>(m_clients->value());
  Result<OperationMix> mix = parseOperationMix(m_mix->text().toStdString());
  if (!mix) return Status::invalidArgument("mix: " + mix.status().message());
  o.mix = mix.value();
  o.rate = m_rate->value() > 0 ? std::optional<double>(m_rate->value()) : std::nullopt;
  o.operations = m_operations->value() > 0 ? std::optional<uint64_t>(m_operations->value()) : std::nullopt;
  o.durationMillis =
      m_duration->value() > 0 ? std::optional<int64_t>(int64_t{m_duration->value()} * 1000) : std::nullopt;
  o.seed = static_cast<uint64_t>(m_seed->value());
  o.table = "preview";
  if (Status status = validateWorkloadOptions(o); !status) return status;
  o.table.clear();
  return o;
}

double WorkloadForm::speed() const { return m_speed->currentData().toDouble(); }

void WorkloadForm::setSpeed(double speed) {
  const int index = m_speed->findData(speed);
  if (index >= 0) m_speed->setCurrentIndex(index);
}

void WorkloadForm::setOperations(uint64_t operations) { m_operations->setValue(static_cast<int>(operations)); }

QString WorkloadForm::tableName() const { return m_table->text().trimmed(); }

QString WorkloadForm::previewText() const { return m_preview->toPlainText(); }

void WorkloadForm::setError(const QString& text) {
  m_error->setText(text);
  m_error->setVisible(!text.isEmpty());
}

void WorkloadForm::updatePreview() {
  Result<WorkloadOptions> chosen = options();
  if (!chosen) {
    m_runner->cancel(m_previewChannel);
    setError(QString::fromStdString(chosen.status().message()));
    m_preview->clear();
    return;
  }
  setError({});
  WorkloadOptions o = std::move(chosen).value();
  o.table = "preview";
  m_runner->submit(
      m_previewChannel, this,
      [o](JobControl&) -> QString {
        Result<std::vector<Bytes>> keys = previewKeys(o, kPreviewKeys);
        if (!keys) return QStringLiteral("! ") + QString::fromStdString(keys.status().message());
        Result<std::string> schemaText = keyDesignSchema(o.keys);
        std::optional<KeySchema> schema;
        if (schemaText) {
          Result<KeySchema> parsed = KeySchema::parse(schemaText.value());
          if (parsed) schema = parsed.value();
        }
        QStringList lines;
        if (schemaText) lines << QString::fromStdString(schemaText.value());
        for (const Bytes& key : keys.value()) {
          if (schema) {
            const DecodedKey decoded = decodeKey(*schema, key);
            lines << QString::fromStdString(tupleToJson(*schema, decoded.values));
          } else {
            lines << QString::fromStdString(toStringBinary(key));
          }
        }
        return lines.join(QLatin1Char('\n'));
      },
      [this](QString text) {
        if (text.startsWith(QStringLiteral("! "))) {
          setError(text.mid(2));
          m_preview->clear();
        } else {
          m_preview->setPlainText(text);
        }
      });
}

}  // namespace keyscope
