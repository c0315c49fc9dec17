// Qt Test for KeyBytesView and its KeyHexModel: tuple → hex and hex → tuple,
// input errors, decode errors at their byte, and the colour of each span.
// GUI thread.
#include <QAbstractItemModelTester>
#include <QBrush>
#include <QLineEdit>
#include <QTest>

#include "key_lab/classic_designs.h"
#include "key_lab/key_bytes_view.h"
#include "key_lab/key_hex_model.h"
#include "key_lab/lab_colors.h"
#include "keyscope/key_schema.h"

using keyscope::KeyBytesView;
using keyscope::KeyHexModel;
using keyscope::KeySchema;

namespace {

KeySchema schemaOf(const char* text) {
  auto parsed = KeySchema::parse(text);
  if (!parsed) qFatal("bad test schema %s: %s", text, parsed.status().toString().c_str());
  return parsed.value();
}

QVariant cell(const KeyHexModel* model, size_t offset, int role) {
  return model->hexIndex(offset).data(role);
}

QColor background(const KeyHexModel* model, size_t offset) {
  return cell(model, offset, Qt::BackgroundRole).value<QBrush>().color();
}

}  // namespace

class TestKeyBytesView : public QObject {
  Q_OBJECT

 private slots:
  void encodingATupleFillsTheHex() {
    KeyBytesView view;
    view.setSchema(schemaOf("metric:utf8 | ts:i64"));
    view.setTupleJson(QStringLiteral(R"(["ab", 0])"));
    QVERIFY2(view.tupleErrorText().isEmpty(), qPrintable(view.tupleErrorText()));
    QCOMPARE(view.keyHex(), QStringLiteral("61620001" "8000000000000000"));
    QVERIFY(view.decodeErrorText().isEmpty());
    QCOMPARE(view.decodedModel()->rowCount(), 2);
    QCOMPARE(view.decodedModel()->index(0, 2).data().toString(), QStringLiteral("\"ab\""));
    QCOMPARE(view.decodedModel()->index(1, 3).data().toString(), QStringLiteral("[4, 12)"));
  }

  void spansCarryTheirComponentAndColour() {
    KeyBytesView view;
    QAbstractItemModelTester tester(view.hexModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setSchema(schemaOf("metric:utf8 | ts:i64"));
    view.setTupleJson(QStringLiteral(R"(["ab", 0])"));
    const KeyHexModel* model = view.hexModel();
    QCOMPARE(model->rowCount(), 1);  // 12 bytes fit one row of 16
    const bool dark = keyscope::isDarkPalette(view.palette());
    for (size_t offset = 0; offset < 12; ++offset) {
      const int component = offset < 4 ? 0 : 1;
      QCOMPARE(cell(model, offset, KeyHexModel::ComponentRole).toInt(), component);
      QCOMPARE(cell(model, offset, KeyHexModel::ByteOffsetRole).toInt(), static_cast<int>(offset));
      QCOMPARE(cell(model, offset, KeyHexModel::ErrorRole).toBool(), false);
      QCOMPARE(background(model, offset),
               keyscope::componentBackground(static_cast<size_t>(component), dark));
    }
    QVERIFY(background(model, 0) != background(model, 4));
    QCOMPARE(cell(model, 0, Qt::DisplayRole).toString(), QStringLiteral("61"));
    // The ASCII half shows the same byte.
    QCOMPARE(model->index(0, KeyHexModel::kFirstAsciiColumn).data().toString(), QStringLiteral("a"));
    QCOMPARE(model->index(0, KeyHexModel::kFirstAsciiColumn + 2).data().toString(), QStringLiteral("."));
  }

  void truncatedHexShowsTheErrorAtItsOffset() {
    KeyBytesView view;
    view.setSchema(schemaOf("a:u32 | ts:i64"));
    view.setKeyHex(QStringLiteral("00000001 8000"));
    QVERIFY(view.hexErrorText().isEmpty());
    QCOMPARE(view.decodeErrorOffset(), std::optional<size_t>(4));
    QVERIFY2(view.decodeErrorText().contains(QStringLiteral("offset 4")), qPrintable(view.decodeErrorText()));
    const KeyHexModel* model = view.hexModel();
    QCOMPARE(cell(model, 4, KeyHexModel::ErrorRole).toBool(), true);
    QCOMPARE(cell(model, 5, KeyHexModel::ErrorRole).toBool(), false);
    QCOMPARE(cell(model, 3, KeyHexModel::ComponentRole).toInt(), 0);
    QCOMPARE(background(model, 4), keyscope::errorBackground(keyscope::isDarkPalette(view.palette())));
    // What did decode goes to the tuple field.
    QCOMPARE(view.tupleJson(), QStringLiteral("[1]"));
    // The decoded table lists the good component and then the failed one.
    QCOMPARE(view.decodedModel()->rowCount(), 2);
    QCOMPARE(view.decodedModel()->index(1, 0).data().toString(), QStringLiteral("ts"));
  }

  void keyEndingEarlyMarksTheEnd() {
    KeyBytesView view;
    QAbstractItemModelTester tester(view.hexModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setSchema(schemaOf("a:u32 | ts:i64"));
    view.setKeyHex(QStringLiteral("00000001"));
    QCOMPARE(view.decodeErrorOffset(), std::optional<size_t>(4));
    const QModelIndex end = view.hexModel()->hexIndex(4);
    QVERIFY(end.isValid());
    QCOMPARE(end.data(KeyHexModel::ErrorRole).toBool(), true);
    QCOMPARE(end.data().toString(), QStringLiteral("··"));
    QVERIFY(!view.hexModel()->hexIndex(5).isValid());
  }

  void decodingAKeyFillsTheTuple() {
    KeyBytesView view;
    view.setSchema(schemaOf("metric:utf8 | ts:i64"));
    view.setKeyHex(QStringLiteral("6162000180000000000000ff"));
    QVERIFY(view.decodeErrorText().isEmpty());
    QCOMPARE(view.tupleJson(), QStringLiteral(R"(["ab",255])"));
  }

  void typingInEitherFieldUpdatesTheOther() {
    KeyBytesView view;
    view.setSchema(schemaOf("n:u16"));
    auto* tuple = view.findChild<QLineEdit*>(QStringLiteral("tupleEdit"));
    auto* hex = view.findChild<QLineEdit*>(QStringLiteral("hexEdit"));
    QTest::keyClicks(tuple, QStringLiteral("[258]"));
    QCOMPARE(hex->text(), QStringLiteral("0102"));
    hex->clear();
    QTest::keyClicks(hex, QStringLiteral("0304"));
    QCOMPARE(tuple->text(), QStringLiteral("[772]"));
  }

  void badInputsSayWhy() {
    KeyBytesView view;
    view.setSchema(schemaOf("metric:utf8 | ts:i64"));
    view.setTupleJson(QStringLiteral(R"(["ab", 1])"));
    QVERIFY(!view.keyHex().isEmpty());
    view.setTupleJson(QStringLiteral(R"(["ab", "x"])"));
    QVERIFY(!view.tupleErrorText().isEmpty());
    // No stale answer: the hex field and the dump are cleared.
    QVERIFY(view.keyHex().isEmpty());
    QCOMPARE(view.hexModel()->rowCount(), 0);
    view.setKeyHex(QStringLiteral("61zz"));
    QVERIFY2(view.hexErrorText().contains(QStringLiteral("'z'")), qPrintable(view.hexErrorText()));
    view.setKeyHex(QStringLiteral("616"));
    QVERIFY2(view.hexErrorText().contains(QStringLiteral("odd")), qPrintable(view.hexErrorText()));
  }

  void newSchemaReencodesTheTuple() {
    KeyBytesView view;
    view.setSchema(schemaOf("n:u16"));
    view.setTupleJson(QStringLiteral("[258]"));
    view.setSchema(schemaOf("n:u32"));
    QCOMPARE(view.keyHex(), QStringLiteral("00000102"));
  }

  void everyClassicDesignExampleEncodesAndDecodes() {
    for (const keyscope::ClassicDesign& design : keyscope::classicDesigns()) {
      KeyBytesView view;
      view.setSchema(schemaOf(design.schema));
      view.setTupleJson(QString::fromUtf8(design.exampleTuple));
      QVERIFY2(view.tupleErrorText().isEmpty(), qPrintable(view.tupleErrorText()));
      QVERIFY2(view.decodeErrorText().isEmpty(), qPrintable(view.decodeErrorText()));
      QVERIFY(!view.keyHex().isEmpty());
    }
  }

  void darkPaletteGetsDarkColours() {
    KeyBytesView view;
    view.setSchema(schemaOf("n:u16"));
    view.setTupleJson(QStringLiteral("[258]"));
    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    view.setPalette(dark);
    QCOMPARE(background(view.hexModel(), 0), keyscope::componentBackground(0, true));
  }
};

QTEST_MAIN(TestKeyBytesView)
#include "tst_key_bytes_view.moc"
