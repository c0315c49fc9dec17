// Qt Test for the data browser's pure pieces: value formats (escaped, hex,
// integer, float, epoch, JSON, and what happens when bytes do not fit), the
// row-key box's three input kinds, and the column format store's round trip
// through QSettings.
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cstdint>
#include <string>

#include "browser/column_format_store.h"
#include "browser/row_key_input.h"
#include "browser/value_format.h"
#include "keyscope/key_schema.h"

using keyscope::Bytes;
using keyscope::ValueFormat;

namespace {

Bytes bigEndian(uint64_t value, size_t width) {
  Bytes out(width, '\0');
  for (size_t i = width; i-- > 0;) {
    out[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  return out;
}

QString shown(const Bytes& bytes, ValueFormat format) {
  return keyscope::formatValue(bytes, format).text;
}
bool fits(const Bytes& bytes, ValueFormat format) {
  return keyscope::formatValue(bytes, format).fits();
}

Bytes parsed(const QString& text, keyscope::RowKeyInputKind kind,
             const std::optional<keyscope::KeySchema>& schema = std::nullopt) {
  keyscope::Result<Bytes> bytes = keyscope::parseRowKeyInput(text, kind, schema);
  if (!bytes) qFatal("did not parse: %s", bytes.status().toString().c_str());
  return bytes.value();
}

QString parseError(const QString& text, keyscope::RowKeyInputKind kind,
                   const std::optional<keyscope::KeySchema>& schema = std::nullopt) {
  keyscope::Result<Bytes> bytes = keyscope::parseRowKeyInput(text, kind, schema);
  return bytes ? QString() : QString::fromStdString(bytes.status().message());
}

}  // namespace

class TestValueFormat : public QObject {
  Q_OBJECT

 private slots:
  void escapedTextShowsUnprintableBytesAsHexEscapes() {
    QCOMPARE(shown(Bytes("a\x00\xff\\", 4), ValueFormat::kEscaped),
             QStringLiteral("a\\x00\\xFF\\x5C"));
    QCOMPARE(shown("", ValueFormat::kEscaped), QString());
  }

  void hexShowsTwoLowercaseDigitsPerByte() {
    QCOMPARE(shown(Bytes("\x00\xab", 2), ValueFormat::kHex), QStringLiteral("00ab"));
  }

  void integersReadBigEndianTwosComplementOfEveryHBaseWidth() {
    QCOMPARE(shown(bigEndian(1709251200000, 8), ValueFormat::kInteger),
             QStringLiteral("1709251200000"));
    QCOMPARE(shown(bigEndian(~uint64_t{0}, 8), ValueFormat::kInteger), QStringLiteral("-1"));
    QCOMPARE(shown(bigEndian(uint64_t{1} << 63, 8), ValueFormat::kInteger),
             QStringLiteral("-9223372036854775808"));
    QCOMPARE(shown(bigEndian(0xfffffffe, 4), ValueFormat::kInteger), QStringLiteral("-2"));
    QCOMPARE(shown(bigEndian(0x7fff, 2), ValueFormat::kInteger), QStringLiteral("32767"));
    QCOMPARE(shown(bigEndian(0x80, 1), ValueFormat::kInteger), QStringLiteral("-128"));
  }

  void bytesThatAreNoIntegerShowEscapedWithTheReason() {
    const keyscope::FormattedValue value = keyscope::formatValue("abc", ValueFormat::kInteger);
    QVERIFY(!value.fits());
    QCOMPARE(value.text, QStringLiteral("abc"));
    QVERIFY2(value.problem.contains(QStringLiteral("3 bytes")), qPrintable(value.problem));
    QVERIFY(!fits("", ValueFormat::kInteger));
  }

  void floatsReadDoublesAndSingles() {
    QCOMPARE(shown(bigEndian(std::bit_cast<uint64_t>(-2.5), 8), ValueFormat::kFloat),
             QStringLiteral("-2.5"));
    QCOMPARE(shown(bigEndian(std::bit_cast<uint32_t>(0.25f), 4), ValueFormat::kFloat),
             QStringLiteral("0.25"));
    QVERIFY(!fits("12345", ValueFormat::kFloat));
  }

  void epochTimestampsReadLongsAndDecimalTextInUtc() {
    QCOMPARE(shown(bigEndian(1709251200000, 8), ValueFormat::kEpochMillis),
             QStringLiteral("2024-03-01 00:00:00.000 UTC"));
    QCOMPARE(shown("1709251200123", ValueFormat::kEpochMillis),
             QStringLiteral("2024-03-01 00:00:00.123 UTC"));
    QVERIFY(!fits("yesterday", ValueFormat::kEpochMillis));
  }

  void timeshiftedTimestampsPrintTheirFiveDigitYear() {
    // The demo's sensor metadata: 2024 + 50,000 years of 365.2425 days.
    const int64_t shifted = 1709251200000 + 50000 * 31556952000LL;
    const QString text = keyscope::formatEpochMillis(shifted);
    QVERIFY2(text.startsWith(QStringLiteral("52024-")), qPrintable(text));
  }

  void jsonIsShownCompactAndBadJsonSaysWhere() {
    QCOMPARE(shown("{ \"a\" : [1, 2] }", ValueFormat::kJson), QStringLiteral("{\"a\":[1,2]}"));
    const keyscope::FormattedValue bad = keyscope::formatValue("{\"a\":", ValueFormat::kJson);
    QVERIFY(!bad.fits());
    QCOMPARE(bad.text, QStringLiteral("{\"a\":"));
    QVERIFY2(bad.problem.startsWith(QStringLiteral("not JSON")), qPrintable(bad.problem));
  }

  void formatNamesRoundTrip() {
    for (ValueFormat format : keyscope::kValueFormats) {
      QCOMPARE(keyscope::valueFormatFromName(keyscope::valueFormatName(format)),
               std::optional(format));
      QVERIFY(!keyscope::valueFormatLabel(format).isEmpty());
    }
    QCOMPARE(keyscope::valueFormatFromName("nonsense"), std::nullopt);
  }

  void theKeyBoxReadsEscapes() {
    using keyscope::RowKeyInputKind;
    QCOMPARE(parsed(QStringLiteral("user\\x00\\x01\\xff"), RowKeyInputKind::kEscaped),
             Bytes("user\x00\x01\xff", 7));
    QCOMPARE(parsed(QStringLiteral("plain"), RowKeyInputKind::kEscaped), Bytes("plain"));
    // A backslash that starts no escape is kept.
    QCOMPARE(parsed(QStringLiteral("a\\b"), RowKeyInputKind::kEscaped), Bytes("a\\b"));
  }

  void theKeyBoxReadsHexWithSpacesAndPrefix() {
    using keyscope::RowKeyInputKind;
    QCOMPARE(parsed(QStringLiteral("75 73 00ff"), RowKeyInputKind::kHex), Bytes("us\x00\xff", 4));
    QCOMPARE(parsed(QStringLiteral("0x7573"), RowKeyInputKind::kHex), Bytes("us"));
    QVERIFY2(parseError(QStringLiteral("75g3"), RowKeyInputKind::kHex)
                 .contains(QStringLiteral("character 3")),
             qPrintable(parseError(QStringLiteral("75g3"), RowKeyInputKind::kHex)));
    QVERIFY(!parseError(QStringLiteral("757"), RowKeyInputKind::kHex).isEmpty());
  }

  void theKeyBoxEncodesComponentsByTheSchema() {
    using keyscope::RowKeyInputKind;
    const auto schema = keyscope::KeySchema::parse("metric:utf8 | n:u32");
    QVERIFY(schema.isOk());
    // utf8 ends in 00 01; u32 is big-endian.
    QCOMPARE(parsed(QStringLiteral(R"(["ab", 5])"), RowKeyInputKind::kComponents, schema.value()),
             Bytes("ab\x00\x01\x00\x00\x00\x05", 8));
    // Fewer elements: the prefix of those components.
    QCOMPARE(parsed(QStringLiteral(R"(["ab"])"), RowKeyInputKind::kComponents, schema.value()),
             Bytes("ab\x00\x01", 4));
    QVERIFY(
        !parseError(QStringLiteral(R"(["ab", "x"])"), RowKeyInputKind::kComponents, schema.value())
             .isEmpty());
    QVERIFY(parseError(QStringLiteral(R"(["ab"])"), RowKeyInputKind::kComponents)
                .contains(QStringLiteral("schema")));
  }

  void keysFormatBackIntoEachKind() {
    using keyscope::RowKeyInputKind;
    const auto schema = keyscope::KeySchema::parse("metric:utf8 | n:u32");
    const Bytes key("ab\x00\x01\x00\x00\x00\x05", 8);
    QCOMPARE(keyscope::formatRowKeyInput(key, RowKeyInputKind::kEscaped),
             QStringLiteral("ab\\x00\\x01\\x00\\x00\\x00\\x05"));
    QCOMPARE(keyscope::formatRowKeyInput(key, RowKeyInputKind::kHex),
             QStringLiteral("6162000100000005"));
    QCOMPARE(keyscope::formatRowKeyInput(key, RowKeyInputKind::kComponents, schema.value()),
             QStringLiteral(R"(["ab",5])"));
    QCOMPARE(keyscope::formatRowKeyInput("ab", RowKeyInputKind::kComponents, schema.value()),
             std::nullopt);
  }

  void columnFormatsPersistPerWorkspaceTableAndColumn() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    const QString workspace = QStringLiteral("/data/a/demo.ksw");
    {
      QSettings settings(file, QSettings::IniFormat);
      keyscope::ColumnFormatStore store(&settings);
      store.setFormat(workspace, QStringLiteral("t"), QStringLiteral("d:count"),
                      ValueFormat::kInteger);
      store.setFormat(workspace, QStringLiteral("t"), QStringLiteral("d:a/b\\x00%"),
                      ValueFormat::kHex);
      store.setFormat(workspace, QStringLiteral("t"), QStringLiteral("row"), ValueFormat::kHex);
      store.setFormat(workspace, QStringLiteral("other"), QStringLiteral("d:count"),
                      ValueFormat::kJson);
      store.setFormat(workspace, QStringLiteral("t"), QStringLiteral("row"),
                      ValueFormat::kEscaped);  // back to default
    }
    QSettings settings(file, QSettings::IniFormat);
    keyscope::ColumnFormatStore store(&settings);
    const QHash<QString, ValueFormat> t = store.formats(workspace, QStringLiteral("t"));
    QCOMPARE(t.size(), 2);
    QCOMPARE(t.value(QStringLiteral("d:count")), ValueFormat::kInteger);
    QCOMPARE(t.value(QStringLiteral("d:a/b\\x00%")), ValueFormat::kHex);
    QCOMPARE(store.formats(workspace, QStringLiteral("other")).value(QStringLiteral("d:count")),
             ValueFormat::kJson);
    QVERIFY(store.formats(QStringLiteral("/data/b/demo.ksw"), QStringLiteral("t")).isEmpty());
  }
};

QTEST_MAIN(TestValueFormat)
#include "tst_value_format.moc"
