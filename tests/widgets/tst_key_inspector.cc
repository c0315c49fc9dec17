// Qt Test for the key inspector over a real workspace: the neighbours of a
// present and of an absent key, at the table's start and its end; editing a
// component re-encodes the key (bytes, key box and neighbours follow); a bad
// component value is refused, saying which component and why, and changes
// nothing; a key that does not decode shows where; a table without a key
// schema still shows bytes and neighbours; the schema checks; the data
// browser's "Inspect Row Key" action. Every model runs under
// QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

#include "async/job_runner.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "inspector/inspector_hex_model.h"
#include "inspector/key_component_model.h"
#include "inspector/key_inspector.h"
#include "inspector/key_neighbours.h"
#include "inspector/neighbour_model.h"
#include "inspector/schema_checks.h"
#include "test_workspace.h"

using keyscope::Bytes;
using keyscope::KeyComponentModel;
using keyscope::KeyInspector;
using keyscope::KeySchema;
using keyscope::NeighbourModel;
using keyscope::RowKeyInputKind;
using keyscope::test::rowKey;

namespace {

constexpr int kRows = 20;  // t: row00000 .. row00019

struct Fixture {
  Fixture() {
    // Attached before any data arrives, so every change is checked.
    for (QAbstractItemModel* model :
         std::initializer_list<QAbstractItemModel*>{inspector.hexModel(), inspector.componentModel(),
                                                    inspector.neighbourModel()}) {
      testers.push_back(std::make_unique<QAbstractItemModelTester>(
          model, QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    inspector.resize(1100, 800);
  }
  keyscope::JobRunner runner;
  KeyInspector inspector{&runner};
  std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
};

Bytes keyedKey(const char* metric, uint64_t n) {
  const KeySchema schema = KeySchema::parse("metric:utf8 | n:u32").value();
  return keyscope::encodeKey(schema, {std::string(metric), n}).value();
}

}  // namespace

class TestKeyInspector : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<keyscope::Workspace> m_ws;

  std::unique_ptr<Fixture> onTable(const char* table) {
    auto f = std::make_unique<Fixture>();
    f->inspector.setWorkspace(m_ws.get());
    f->inspector.setTable(m_ws->describeTable(table).value());
    settle(*f);
    return f;
  }

  static void settle(Fixture& f) {
    QVERIFY(QTest::qWaitFor([&f] { return !f.inspector.isLoading(); }, 10000));
  }

  static void inspect(Fixture& f, const QString& text) {
    QVERIFY2(f.inspector.inspectText(text), qPrintable(f.inspector.inputErrorText()));
    settle(f);
  }

  // The neighbour rows' keys, in the model's order, the key's own row included.
  static std::vector<Bytes> shownKeys(const Fixture& f) {
    std::vector<Bytes> keys;
    const NeighbourModel* model = f.inspector.neighbourModel();
    for (int row = 0; row < model->rowCount(); ++row) keys.push_back(*model->rowKey(row));
    return keys;
  }

  static std::vector<Bytes> rows(int from, int to) {  // rowKey(from) .. rowKey(to), inclusive
    std::vector<Bytes> keys;
    for (int n = from; n <= to; ++n) keys.push_back(rowKey(n));
    return keys;
  }

  static QString positionOf(const Fixture& f, int row) {
    const NeighbourModel* model = f.inspector.neighbourModel();
    return model->index(row, NeighbourModel::kColPosition).data().toString();
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_ws = keyscope::test::openWorkspace(m_dir.filePath(QStringLiteral("inspector.ksw")));
    keyscope::test::fillNumberedTable(*m_ws, kRows, kRows);
    keyscope::test::fillKeyedTable(*m_ws, 10);
  }

  void cleanupTestCase() { m_ws.reset(); }

  void anEmptyKeyBoxInspectsTheFirstRow() {
    auto f = onTable("t");
    QCOMPARE(f->inspector.key().value_or("?"), rowKey(0));
  }

  void neighboursOfAPresentKey() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00010"));
    std::vector<Bytes> expected = rows(5, 15);
    QCOMPARE(shownKeys(*f), expected);
    const NeighbourModel* model = f->inspector.neighbourModel();
    QCOMPARE(model->keyRow(), 5);
    QVERIFY(model->neighbours().present);
    QCOMPARE(positionOf(*f, 5), QStringLiteral("key: present"));
    QCOMPARE(positionOf(*f, 4), QStringLiteral("\u22121"));
    QCOMPARE(positionOf(*f, 6), QStringLiteral("+1"));
    // row00009 vs row00010: the first difference is at byte 6 ('0' vs '1').
    QCOMPARE(model->index(4, model->differenceColumn()).data(NeighbourModel::DifferenceRole).toInt(), 6);
    QVERIFY2(model->index(4, model->differenceColumn()).data().toString().contains(QStringLiteral("byte 6")),
             qPrintable(model->index(4, model->differenceColumn()).data().toString()));
    QVERIFY2(f->inspector.neighbourStatusText().contains(QStringLiteral("is a row")),
             qPrintable(f->inspector.neighbourStatusText()));
  }

  void neighboursOfAnAbsentKey() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00010x"));  // between row00010 and row00011
    std::vector<Bytes> expected = rows(6, 10);
    expected.push_back("row00010x");
    for (const Bytes& key : rows(11, 15)) expected.push_back(key);
    QCOMPARE(shownKeys(*f), expected);
    QVERIFY(!f->inspector.neighbourModel()->neighbours().present);
    QCOMPARE(positionOf(*f, 5), QStringLiteral("key: would sort here"));
    // row00010 is the key's prefix: they differ where row00010 ends.
    QVERIFY2(positionOf(*f, 4) == QStringLiteral("\u22121"), qPrintable(positionOf(*f, 4)));
    const NeighbourModel* model = f->inspector.neighbourModel();
    QCOMPARE(model->index(4, model->differenceColumn()).data(NeighbourModel::DifferenceRole).toInt(), 8);
    QVERIFY(model->index(4, model->differenceColumn()).data().toString().contains(QStringLiteral("the row ends")));
  }

  void neighboursAtTheTablesStart() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00000"));
    QCOMPARE(shownKeys(*f), rows(0, 5));
    QCOMPARE(f->inspector.neighbourModel()->keyRow(), 0);
    QVERIFY(f->inspector.neighbourModel()->neighbours().atStart);
    QVERIFY(f->inspector.neighbourStatusText().contains(QStringLiteral("table's start")));

    inspect(*f, QStringLiteral("a"));  // absent, sorts before every row
    std::vector<Bytes> expected{"a"};
    for (const Bytes& key : rows(0, 4)) expected.push_back(key);
    QCOMPARE(shownKeys(*f), expected);
    QCOMPARE(positionOf(*f, 0), QStringLiteral("key: would sort here"));

    inspect(*f, QStringLiteral("row00002"));  // fewer than five before: the first is the table's first
    QCOMPARE(shownKeys(*f), rows(0, 7));
    QCOMPARE(positionOf(*f, 0), QStringLiteral("\u22122 (first row)"));
  }

  void neighboursAtTheTablesEnd() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00019"));
    QCOMPARE(shownKeys(*f), rows(14, 19));
    QVERIFY(f->inspector.neighbourModel()->neighbours().atEnd);
    QVERIFY(f->inspector.neighbourStatusText().contains(QStringLiteral("table's end")));

    inspect(*f, QStringLiteral("zzz"));  // absent, sorts after every row
    std::vector<Bytes> expected = rows(15, 19);
    expected.push_back("zzz");
    QCOMPARE(shownKeys(*f), expected);
    QCOMPARE(positionOf(*f, 5), QStringLiteral("key: would sort here"));

    inspect(*f, QStringLiteral("row00018"));
    QCOMPARE(shownKeys(*f), rows(13, 19));
    QCOMPARE(positionOf(*f, 6), QStringLiteral("+1 (last row)"));
  }

  void readNeighboursDirectly() {
    // The same scans without the widget, at a count the widget does not use.
    keyscope::Result<keyscope::KeyNeighbours> n = keyscope::readKeyNeighbours(*m_ws, "t", rowKey(3), 2);
    QVERIFY(n.isOk());
    QCOMPARE(n->before, rows(1, 2));
    QCOMPARE(n->after, rows(4, 5));
    QVERIFY(n->present);
    QVERIFY(!n->atStart);
    QVERIFY(!n->atEnd);
    QVERIFY(!keyscope::readKeyNeighbours(*m_ws, "no_such_table", rowKey(3), 2).isOk());
    QCOMPARE(keyscope::firstDifference("abc", "abd").value(), size_t{2});
    QCOMPARE(keyscope::firstDifference("ab", "abc").value(), size_t{2});
    QVERIFY(!keyscope::firstDifference("abc", "abc").has_value());
  }

  void clickingANeighbourInspectsIt() {
    auto f = onTable("t");
    f->inspector.show();
    inspect(*f, QStringLiteral("row00010"));
    QTableView* view = f->inspector.neighbourView();
    const QRect rect = view->visualRect(f->inspector.neighbourModel()->index(7, NeighbourModel::kColRowKey));
    QVERIFY(rect.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    settle(*f);
    QCOMPARE(f->inspector.key().value_or("?"), rowKey(12));
    QCOMPARE(shownKeys(*f), rows(7, 17));
  }

  void aKeyBoxTextThatIsNoKeyChangesNothing() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00004"));
    f->inspector.setKeyInputKind(RowKeyInputKind::kHex);
    QVERIFY(!f->inspector.inspectText(QStringLiteral("72 6f zz")));
    QVERIFY2(f->inspector.inputErrorText().contains(QStringLiteral("'z'")),
             qPrintable(f->inspector.inputErrorText()));
    QCOMPARE(f->inspector.key().value_or("?"), rowKey(4));
    QCOMPARE(f->inspector.hexModel()->key(), rowKey(4));
    // Hex that is a key works, and so do components where there is no schema: not.
    inspect(*f, QStringLiteral("726f773030303037"));
    QCOMPARE(f->inspector.key().value_or("?"), rowKey(7));
    f->inspector.setKeyInputKind(RowKeyInputKind::kComponents);
    QVERIFY(!f->inspector.inspectText(QStringLiteral("[\"row\"]")));
    QVERIFY(f->inspector.inputErrorText().contains(QStringLiteral("no key schema")));
  }

  void aTableWithoutSchemaShowsBytesAndNeighbours() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00003"));
    QCOMPARE(f->inspector.hexModel()->key(), rowKey(3));
    QCOMPARE(f->inspector.hexModel()->index(0, 0).data().toString(), QStringLiteral("72"));  // 'r'
    QCOMPARE(f->inspector.componentModel()->rowCount(), 0);
    QCOMPARE(shownKeys(*f), rows(0, 8));
    QVERIFY2(f->inspector.checksText().contains(QStringLiteral("No key schema")) &&
                 f->inspector.checksText().contains(QStringLiteral("alter 't', KEY_SCHEMA => '...'")),
             qPrintable(f->inspector.checksText()));
  }

  void componentsAreDecodedAndColoured() {
    auto f = onTable("keyed");
    f->inspector.setKeyInputKind(RowKeyInputKind::kComponents);
    inspect(*f, QStringLiteral("[\"cpu\", 3]"));
    QCOMPARE(f->inspector.key().value_or("?"), keyedKey("cpu", 3));
    const KeyComponentModel* components = f->inspector.componentModel();
    QCOMPARE(components->rowCount(), 2);
    QCOMPARE(components->index(0, KeyComponentModel::kColValue).data().toString(), QStringLiteral("\"cpu\""));
    QCOMPARE(components->index(1, KeyComponentModel::kColValue).data().toString(), QStringLiteral("3"));
    // Byte 0 is in 'metric', the last byte in 'n'; the legend names both.
    const auto* hex = f->inspector.hexModel();
    QCOMPARE(hex->hexIndex(0).data(keyscope::KeyHexModel::ComponentRole).toInt(), 0);
    QCOMPARE(hex->hexIndex(keyedKey("cpu", 3).size() - 1).data(keyscope::KeyHexModel::ComponentRole).toInt(), 1);
    QVERIFY2(f->inspector.legendText().contains(QStringLiteral("metric")) &&
                 f->inspector.legendText().contains(QStringLiteral("n")),
             qPrintable(f->inspector.legendText()));
    // The neighbours' components are columns.
    const NeighbourModel* model = f->inspector.neighbourModel();
    QCOMPARE(model->headerData(NeighbourModel::kFirstComponentColumn, Qt::Horizontal).toString(),
             QStringLiteral("metric"));
    QCOMPARE(model->index(model->keyRow() + 1, NeighbourModel::kFirstComponentColumn + 1).data().toString(),
             QStringLiteral("4"));
    QVERIFY(f->inspector.checksText().contains(QStringLiteral("Byte order matches tuple order")));
  }

  void editingAComponentReencodesTheKey() {
    auto f = onTable("keyed");
    f->inspector.setKeyInputKind(RowKeyInputKind::kComponents);
    inspect(*f, QStringLiteral("[\"cpu\", 3]"));
    KeyComponentModel* components = f->inspector.componentModel();
    QVERIFY(components->isEditable());
    QSignalSpy edited(components, &KeyComponentModel::keyEdited);
    QVERIFY(components->setData(components->index(1, KeyComponentModel::kColValue), QStringLiteral("7")));
    QCOMPARE(edited.count(), 1);
    // At once: the key, the bytes, the components.
    QCOMPARE(f->inspector.key().value_or("?"), keyedKey("cpu", 7));
    QCOMPARE(f->inspector.hexModel()->key(), keyedKey("cpu", 7));
    QCOMPARE(components->index(1, KeyComponentModel::kColValue).data().toString(), QStringLiteral("7"));
    // Then the neighbours, read again around the new key.
    settle(*f);
    const NeighbourModel* model = f->inspector.neighbourModel();
    QCOMPARE(*model->rowKey(model->keyRow()), keyedKey("cpu", 7));
    QCOMPARE(*model->rowKey(model->keyRow() - 1), keyedKey("cpu", 6));
    QCOMPARE(*model->rowKey(model->keyRow() + 1), keyedKey("cpu", 8));
    // A string component takes a bare word too.
    QVERIFY(components->setData(components->index(0, KeyComponentModel::kColValue), QStringLiteral("mem")));
    QCOMPARE(f->inspector.key().value_or("?"), keyedKey("mem", 7));
    settle(*f);
    QVERIFY(f->inspector.neighbourModel()->neighbours().present);
  }

  void aBadComponentValueIsRefusedWithoutChange() {
    auto f = onTable("keyed");
    f->inspector.setKeyInputKind(RowKeyInputKind::kComponents);
    inspect(*f, QStringLiteral("[\"cpu\", 3]"));
    KeyComponentModel* components = f->inspector.componentModel();
    QSignalSpy edited(components, &KeyComponentModel::keyEdited);
    QSignalSpy failed(components, &KeyComponentModel::editFailed);
    const QModelIndex n = components->index(1, KeyComponentModel::kColValue);
    QVERIFY(!components->setData(n, QStringLiteral("abc")));  // not a number
    QVERIFY(!components->setData(n, QStringLiteral("-1")));   // out of a u32's range
    QCOMPARE(edited.count(), 0);
    QCOMPARE(failed.count(), 2);
    QVERIFY2(f->inspector.editErrorText().contains(QStringLiteral("'n'")),
             qPrintable(f->inspector.editErrorText()));
    QVERIFY2(f->inspector.editErrorText().contains(QStringLiteral("Not changed")),
             qPrintable(f->inspector.editErrorText()));
    QCOMPARE(f->inspector.key().value_or("?"), keyedKey("cpu", 3));
    QCOMPARE(f->inspector.hexModel()->key(), keyedKey("cpu", 3));
    QCOMPARE(n.data().toString(), QStringLiteral("3"));
  }

  void aKeyThatDoesNotDecodeShowsWhere() {
    auto f = onTable("keyed");
    // "cpu" complete, then only two of the u32's four bytes: decoding stops
    // at the u32, and its two bytes are left over.
    const Bytes full = keyedKey("cpu", 3);
    const Bytes truncated = full.substr(0, full.size() - 2);
    const keyscope::DecodedKey decoded =
        keyscope::decodeKey(KeySchema::parse("metric:utf8 | n:u32").value(), truncated);
    QVERIFY(decoded.error.has_value());
    const size_t offset = decoded.error->offset;
    QCOMPARE(offset, full.size() - 4);  // where 'n' starts
    f->inspector.inspectKey(truncated);
    settle(*f);
    QVERIFY2(f->inspector.decodeErrorText().contains(QStringLiteral("offset %1").arg(offset)),
             qPrintable(f->inspector.decodeErrorText()));
    QVERIFY(f->inspector.decodeErrorText().contains(QStringLiteral("'n'")));
    const auto* hex = f->inspector.hexModel();
    QVERIFY(hex->hexIndex(offset).data(keyscope::KeyHexModel::ErrorRole).toBool());
    QVERIFY(hex->hexIndex(offset + 1).data(keyscope::InspectorHexModel::UndecodedRole).toBool());
    QVERIFY(!hex->hexIndex(offset - 1).data(keyscope::InspectorHexModel::UndecodedRole).toBool());
    QVERIFY(f->inspector.legendText().contains(QStringLiteral("undecoded")));
    // The components say it too, and cannot be edited until the key decodes.
    const KeyComponentModel* components = f->inspector.componentModel();
    QVERIFY(!components->isEditable());
    QVERIFY(components->index(1, KeyComponentModel::kColValue).data().toString().startsWith(QStringLiteral("✗")));
    QVERIFY(!(components->flags(components->index(0, KeyComponentModel::kColValue)) & Qt::ItemIsEditable));
    // The key box shows what the components cannot: escaped text.
    QCOMPARE(f->inspector.keyInputKind(), RowKeyInputKind::kEscaped);
    // Its neighbours are still read: a prefix of cpu/0's key, it sorts
    // before every row (at the table's start).
    const NeighbourModel* model = f->inspector.neighbourModel();
    QVERIFY(!model->neighbours().present);
    QCOMPARE(model->keyRow(), 0);
    QCOMPARE(*model->rowKey(1), keyedKey("cpu", 0));
    QCOMPARE(model->rowCount(), 6);
  }

  void schemaChecksNameTheComponent() {
    const QList<keyscope::SchemaCheckLine> broken =
        keyscope::schemaCheckLines(KeySchema::parse("ts:i64 hbase | user:utf8 hbase").value());
    bool sawOrder = false;
    bool sawMonotonic = false;
    for (const keyscope::SchemaCheckLine& line : broken) {
      if (line.text.contains(QStringLiteral("does not match tuple order in 'ts'"))) sawOrder = true;
      if (line.text.contains(QStringLiteral("monotonic-lead"))) sawMonotonic = true;
    }
    QVERIFY(sawOrder);
    QVERIFY(sawMonotonic);
    const QList<keyscope::SchemaCheckLine> good =
        keyscope::schemaCheckLines(KeySchema::parse("metric:utf8 | n:u32").value());
    QCOMPARE(good.front().kind, keyscope::SchemaCheckLine::Kind::kGood);
  }

  void switchingTablesStartsAtTheNewTablesFirstRow() {
    auto f = onTable("t");
    inspect(*f, QStringLiteral("row00012"));
    f->inspector.setTable(m_ws->describeTable("keyed").value());
    settle(*f);
    QCOMPARE(f->inspector.key().value_or("?"), keyedKey("cpu", 0));
    f->inspector.setWorkspace(nullptr);  // detaching empties every view
    QVERIFY(!f->inspector.key().has_value());
    QCOMPARE(f->inspector.neighbourModel()->rowCount(), 0);
    QCOMPARE(f->inspector.hexModel()->rowCount(), 0);
  }

  void theBrowsersInspectActionSendsTheRowKey() {
    QSettings settings(m_dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    keyscope::ColumnFormatStore formats(&settings);
    keyscope::JobRunner runner;
    keyscope::DataBrowser browser(&runner, &formats);
    browser.setWorkspace(m_ws.get(), m_dir.filePath(QStringLiteral("inspector.ksw")));
    browser.showTable(m_ws->describeTable("t").value());
    QVERIFY(QTest::qWaitFor([&browser] { return browser.model()->rowCount() == kRows; }, 10000));
    auto* action = browser.view()->findChild<QAction*>(QStringLiteral("inspectRowKeyAction"));
    QVERIFY(action != nullptr);
    QVERIFY(browser.view()->actions().contains(action));  // it is in the rows' context menu
    QSignalSpy requested(&browser, &keyscope::DataBrowser::inspectRowKeyRequested);
    browser.view()->setCurrentIndex(browser.model()->index(6, 0));
    action->trigger();
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.front().front().toByteArray(), QByteArray::fromStdString(rowKey(6)));
  }
};

QTEST_MAIN(TestKeyInspector)
#include "tst_key_inspector.moc"
