// WorkloadForm: the workload lab's choices - a preset, the key design (the
// simulator's designs, or a key schema with a generator per component),
// clients, the put/get/scan mix, the rate, operations or duration, salt
// buckets, pre-split regions, the seed, and the playback speed - and a
// preview of the first keys the run will write, decoded by the design's
// schema (computed on the job runner).
//
// options() turns the controls into WorkloadOptions or says what is wrong
// and where ("mix: ..."); nothing is run here.
//
// GUI thread only.
#pragma once

#include <QString>
#include <QWidget>

#include "async/job_runner.h"
#include "keyscope/workload.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace keyscope {

class WorkloadForm : public QWidget {
  Q_OBJECT

 public:
  // `runner` is not owned and must outlive the form.
  explicit WorkloadForm(JobRunner* runner, QWidget* parent = nullptr);

  // Sets the controls as the preset does (see applyWorkloadPreset).
  bool applyPreset(const QString& name);
  // The run the controls describe (table left empty), or what is wrong.
  Result<WorkloadOptions> options() const;
  // Simulated seconds per wall-clock second; 0: as fast as possible.
  double speed() const;
  void setSpeed(double speed);
  // The single run's table name ("workload_monotonic" by default).
  QString tableName() const;
  QString previewText() const;
  void setOperations(uint64_t operations);

 signals:
  void changed();

 private:
  void onChanged();
  void updatePreview();
  void setError(const QString& text);

  JobRunner* m_runner;
  JobRunner::ChannelId m_previewChannel;
  WorkloadOptions m_base;  // what the last preset fixed that has no control (batch size, ...)
  bool m_applying = false;

  QComboBox* m_preset = nullptr;
  QComboBox* m_design = nullptr;
  QLineEdit* m_schema = nullptr;
  QLineEdit* m_generators = nullptr;
  QSpinBox* m_clients = nullptr;
  QLineEdit* m_mix = nullptr;
  QDoubleSpinBox* m_rate = nullptr;
  QSpinBox* m_operations = nullptr;
  QSpinBox* m_duration = nullptr;
  QSpinBox* m_saltBuckets = nullptr;
  QSpinBox* m_preSplit = nullptr;
  QSpinBox* m_seed = nullptr;
  QComboBox* m_speed = nullptr;
  QLineEdit* m_table = nullptr;
  QPlainTextEdit* m_preview = nullptr;
  QLabel* m_error = nullptr;
};

}  // namespace keyscope
