// Qt Test for KeySchemaView: parse errors at their column, the component
// table, the byte-order verdict and the advisor list. GUI thread.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include "key_lab/key_schema_view.h"

using keyscope::KeySchemaView;

class TestKeySchemaView : public QObject {
  Q_OBJECT

 private:
  // Column `column` of every row of `model`, as display text.
  static QStringList columnTexts(const QAbstractItemModel* model, int column) {
    QStringList texts;
    for (int row = 0; row < model->rowCount(); ++row) {
      texts << model->index(row, column).data().toString();
    }
    return texts;
  }

 private slots:
  void brokenSchemaShowsErrorWithColumn() {
    KeySchemaView view;
    view.setSchemaText(QStringLiteral("metric:utf8 | ts:int64"));
    QVERIFY(!view.schema().has_value());
    QVERIFY2(view.errorText().contains(QStringLiteral("column")), qPrintable(view.errorText()));
    QVERIFY(view.errorColumn().has_value());
    QCOMPARE(view.componentModel()->rowCount(), 0);
    QVERIFY(view.verdictText().isEmpty());
  }

  void setSchemaTextMovesCaretToErrorColumn() {
    KeySchemaView view;
    view.setSchemaText(QStringLiteral("metric:utf8 | ts:int64"));
    auto* edit = view.findChild<QLineEdit*>(QStringLiteral("schemaEdit"));
    QVERIFY(edit != nullptr);
    QVERIFY(view.errorColumn().has_value());
    QCOMPARE(edit->cursorPosition(), *view.errorColumn() - 1);
  }

  void typingKeepsCaretUntilReturn() {
    KeySchemaView view;
    auto* edit = view.findChild<QLineEdit*>(QStringLiteral("schemaEdit"));
    edit->clear();
    QTest::keyClicks(edit, QStringLiteral("a:u32 | b:nosuchtype"));
    QCOMPARE(edit->cursorPosition(), static_cast<int>(edit->text().size()));
    QVERIFY(view.errorColumn().has_value());
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(edit->cursorPosition(), *view.errorColumn() - 1);
  }

  void hbaseSignedIntegerBreaksByteOrder() {
    KeySchemaView view;
    view.setSchemaText(QStringLiteral("x:i64 hbase"));
    QVERIFY(view.schema().has_value());
    QVERIFY(!view.verdictPreservesOrder());
    const QString verdict = view.verdictText();
    QVERIFY2(verdict.contains(QStringLiteral("≠")), qPrintable(verdict));
    QVERIFY2(verdict.contains(QStringLiteral("'x'")), qPrintable(verdict));
  }

  void sortedSchemaKeepsByteOrder() {
    KeySchemaView view;
    view.setSchemaText(QStringLiteral("metric:utf8 | ts:i64 desc"));
    QVERIFY(view.verdictPreservesOrder());
    QVERIFY2(view.verdictText().contains(QStringLiteral("byte order = value order")),
             qPrintable(view.verdictText()));
    QVERIFY(view.errorText().isEmpty());
  }

  void timestampLeadGetsMonotonicAdvice() {
    KeySchemaView view;
    QAbstractItemModelTester tester(view.adviceModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setSchemaText(QStringLiteral("ts:i64 | user:utf8"));
    QVERIFY(view.adviceModel()->rowCount() > 0);
    const int row = static_cast<int>(columnTexts(view.adviceModel(), 1).indexOf(QStringLiteral("monotonic-lead")));
    QVERIFY2(row >= 0, qPrintable(columnTexts(view.adviceModel(), 1).join(u',')));
    QCOMPARE(view.adviceModel()->index(row, 2).data().toString(), QStringLiteral("ts"));
    QVERIFY(!view.adviceModel()->index(row, 0).data(Qt::DecorationRole).isNull());
  }

  void componentTableShowsSizesAndOffsets() {
    KeySchemaView view;
    QAbstractItemModelTester tester(view.componentModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setSchemaText(QStringLiteral("a:u32 | b:bytes(3) | c:utf8 desc | d:i64 hbase"));
    const QAbstractItemModel* model = view.componentModel();
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(columnTexts(model, 0), (QStringList{"a", "b", "c", "d"}));
    QCOMPARE(columnTexts(model, 2), (QStringList{"asc", "asc", "desc", "asc"}));
    QCOMPARE(columnTexts(model, 4), (QStringList{"4 bytes", "3 bytes", "variable", "8 bytes"}));
    QCOMPARE(columnTexts(model, 5), (QStringList{"0", "4", "7", "after c"}));
    QVERIFY(model->index(3, 3).data().toString().startsWith(QStringLiteral("hbase")));
  }

  void fixingTheSchemaClearsTheError() {
    KeySchemaView view;
    QSignalSpy changed(&view, &KeySchemaView::schemaChanged);
    view.setSchemaText(QStringLiteral("a:u32 |"));
    QVERIFY(!view.errorText().isEmpty());
    view.setSchemaText(QStringLiteral("a:u32"));
    QVERIFY(view.errorText().isEmpty());
    QVERIFY(view.schema().has_value());
    QCOMPARE(changed.count(), 2);
  }

  void loadingAClassicDesignSuggestsAnExampleTuple() {
    KeySchemaView view;
    auto* combo = view.findChild<QComboBox*>(QStringLiteral("designCombo"));
    QVERIFY(combo != nullptr && combo->count() > 2);
    QSignalSpy suggested(&view, &KeySchemaView::exampleTupleSuggested);
    combo->setCurrentIndex(2);
    emit combo->activated(2);
    QCOMPARE(suggested.count(), 1);
    QVERIFY(view.schema().has_value());
    QCOMPARE(view.schemaText(), combo->itemData(2).toString());
    QVERIFY(suggested.at(0).at(0).toString().startsWith(u'['));
  }
};

QTEST_MAIN(TestKeySchemaView)
#include "tst_key_schema_view.moc"
