// StorageReport's plain-value helpers: sums, scopes, the overhead ratio in
// words, the what-ifs, and binaryKeyOf. The report itself is read by
// WorkspaceImpl::storageReport (engine/storage_report_read.cc).
#include "keyscope/storage_report.h"

#include <cmath>
#include <cstdio>

namespace keyscope {

const char* storageCategoryName(StorageCategory category) {
  switch (category) {
    case StorageCategory::kRowKey: return "row key";
    case StorageCategory::kFamily: return "family name";
    case StorageCategory::kQualifier: return "qualifier";
    case StorageCategory::kTimestamp: return "timestamp + type";
    case StorageCategory::kValue: return "value";
    case StorageCategory::kFraming: return "framing";
  }
  return "?";
}

uint64_t ByteBreakdown::total() const {
  uint64_t sum = 0;
  for (uint64_t b : bytes) sum += b;
  return sum;
}

ByteBreakdown& ByteBreakdown::operator+=(const ByteBreakdown& other) {
  for (size_t i = 0; i < kStorageCategoryCount; ++i) bytes[i] += other.bytes[i];
  return *this;
}

StorageSlice& StorageSlice::operator+=(const StorageSlice& o) {
  if (family != o.family) family.clear();
  if (regionId != o.regionId) regionId = 0;
  storeFiles += o.storeFiles;
  blocks += o.blocks;
  cells += o.cells;
  raw += o.raw;
  prefixSharedBytes += o.prefixSharedBytes;
  rawBytes += o.rawBytes;
  storedBytes += o.storedBytes;
  blockHeaderBytes += o.blockHeaderBytes;
  pageIndexBytes += o.pageIndexBytes;
  bloomBytes += o.bloomBytes;
  dictionaryBytes += o.dictionaryBytes;
  stored += o.stored;
  memstoreBytes += o.memstoreBytes;
  hbase += o.hbase;
  hbaseShortFamily += o.hbaseShortFamily;
  keyscopeBinaryKey += o.keyscopeBinaryKey;
  hbaseBinaryKey += o.hbaseBinaryKey;
  cellsWithBinaryKey += o.cellsWithBinaryKey;
  return *this;
}

StorageSlice StorageReport::scope(const std::string& family, int64_t regionId) const {
  StorageSlice sum;
  bool first = true;
  for (const StorageSlice& s : slices) {
    if ((!family.empty() && s.family != family) || (regionId != 0 && s.regionId != regionId)) continue;
    if (first) {
      sum = s;
      first = false;
    } else {
      sum += s;
    }
  }
  return sum;
}

double overheadRatio(const StorageSlice& s) {
  const uint64_t value = s.raw[StorageCategory::kValue];
  return value == 0 ? 0.0 : static_cast<double>(s.keyscopeTotal() - value) / static_cast<double>(value);
}

double hbaseOverheadRatio(const StorageSlice& s) {
  const uint64_t value = s.hbase[StorageCategory::kValue];
  return value == 0 ? 0.0 : static_cast<double>(s.hbase.nonValue()) / static_cast<double>(value);
}

namespace {

std::string oneDecimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string overheadSentence(const StorageSlice& s) {
  if (s.cells == 0) return "No cells in store files yet.";
  if (s.raw[StorageCategory::kValue] == 0) return "The cells hold no value bytes: every stored byte is coordinates.";
  return "For every byte of value, " + oneDecimal(overheadRatio(s)) +
         " bytes of row key, qualifier, timestamp and framing here (page index and bloom filters included); as "
         "HBase KeyValues, " +
         oneDecimal(hbaseOverheadRatio(s)) + " bytes of coordinates.";
}

std::string percentChange(uint64_t before, uint64_t after) {
  if (before == 0) return "-0%";
  const double pct = 100.0 * (static_cast<double>(after) - static_cast<double>(before)) / static_cast<double>(before);
  const long rounded = std::lround(pct);
  if (rounded == 0) return pct < 0 || after == before ? "-0%" : "+0%";
  return (rounded > 0 ? "+" : "") + std::to_string(rounded) + "%";
}

std::vector<StorageWhatIf> storageWhatIfs(const StorageSlice& s, const std::vector<std::string>& familyNames) {
  std::vector<StorageWhatIf> out;
  const uint64_t here = s.keyscopeTotal();
  const uint64_t hbase = s.hbase.total();

  StorageWhatIf family;
  bool allShort = true;
  for (const std::string& name : familyNames) allShort = allShort && name.size() <= 1;
  if (familyNames.size() == 1) {
    family.change = allShort ? "family '" + familyNames[0] + "' is one letter already"
                             : "family '" + familyNames[0] + "' → '" + familyNames[0].substr(0, 1) + "'";
  } else {
    family.change = allShort ? "family names are one letter already" : "every family renamed to one letter";
  }
  family.keyscopeBefore = family.keyscopeAfter = here;
  family.hbaseBefore = hbase;
  family.hbaseAfter = s.hbaseShortFamily;
  family.explanation =
      "here a store file holds one family, so its name is stored once in the catalog, never per cell; an HBase "
      "KeyValue repeats it in every cell";
  out.push_back(family);

  StorageWhatIf key;
  key.keyscopeBefore = here;
  key.hbaseBefore = hbase;
  if (s.cellsWithBinaryKey == 0) {
    key.change = "row key as binary: not applicable";
    key.keyscopeAfter = here;
    key.hbaseAfter = hbase;
    key.explanation = "the row keys hold no decimal numbers or ISO timestamps as text";
  } else {
    key.change = "row key's numbers and timestamps as binary integers";
    key.keyscopeAfter = here - s.raw.total() + s.keyscopeBinaryKey;
    key.hbaseAfter = s.hbaseBinaryKey;
    key.explanation =
        "digit runs become 4- or 8-byte integers, ISO timestamps 8-byte epoch milliseconds; here keys are "
        "prefix-compressed, so a row repeated by its next cell costs little in either form, while HBase stores "
        "the full row in every cell";
  }
  out.push_back(key);
  return out;
}

// --- binaryKeyOf --------------------------------------------------------------

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Days from 1970-01-01 to y-m-d (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Parses `n` digits at text[i]; false when they are not all digits.
bool digits(std::string_view text, size_t i, size_t n, int64_t* v) {
  if (i + n > text.size()) return false;
  int64_t r = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!isDigit(text[i + k])) return false;
    r = r * 10 + (text[i + k] - '0');
  }
  *v = r;
  return true;
}

// An ISO-8601 timestamp at text[i] (YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|+HH:MM]):
// its length and epoch milliseconds, or 0.
size_t isoTimestamp(std::string_view t, size_t i, int64_t* millis) {
  int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  if (!digits(t, i, 4, &y) || i + 16 > t.size() || t[i + 4] != '-' || !digits(t, i + 5, 2, &mo) ||
      t[i + 7] != '-' || !digits(t, i + 8, 2, &d) || (t[i + 10] != 'T' && t[i + 10] != ' ') ||
      !digits(t, i + 11, 2, &h) || t[i + 13] != ':' || !digits(t, i + 14, 2, &mi))
    return 0;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return 0;
  size_t end = i + 16;
  if (end < t.size() && t[end] == ':' && digits(t, end + 1, 2, &s)) {
    end += 3;
    if (end < t.size() && t[end] == '.') {
      size_t k = end + 1;
      int64_t scale = 100;
      while (k < t.size() && isDigit(t[k])) {
        if (scale > 0) ms += (t[k] - '0') * scale;
        scale /= 10;
        ++k;
      }
      if (k > end + 1) end = k;
    }
  }
  int64_t offsetMinutes = 0;
  if (end < t.size() && t[end] == 'Z') {
    ++end;
  } else if (end < t.size() && (t[end] == '+' || t[end] == '-')) {
    int64_t oh = 0, om = 0;
    if (digits(t, end + 1, 2, &oh) && end + 3 < t.size() && t[end + 3] == ':' && digits(t, end + 4, 2, &om)) {
      offsetMinutes = (t[end] == '+' ? 1 : -1) * (oh * 60 + om);
      end += 6;
    }
  }
  *millis = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi - offsetMinutes) * 60000 + s * 1000 + ms;
  return end - i;
}

void appendBigEndian(Bytes* out, uint64_t v, int bytes) {
  for (int b = bytes - 1; b >= 0; --b) out->push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

}  // namespace

std::optional<Bytes> binaryKeyOf(BytesView row) {
  if (row.empty()) return std::nullopt;
  for (char c : row) {
    if (c < 0x20 || c > 0x7e) return std::nullopt;  // not text: already binary, or partly
  }
  Bytes out;
  bool changed = false;
  for (size_t i = 0; i < row.size();) {
    if (!isDigit(row[i]) || (i > 0 && isDigit(row[i - 1]))) {
      out.push_back(row[i++]);
      continue;
    }
    int64_t millis = 0;
    if (const size_t n = isoTimestamp(row, i, &millis); n > 0) {
      appendBigEndian(&out, static_cast<uint64_t>(millis), 8);
      i += n;
      changed = true;
      continue;
    }
    size_t n = 0;
    uint64_t v = 0;
    while (i + n < row.size() && isDigit(row[i + n]) && n < 19) v = v * 10 + static_cast<uint64_t>(row[i + n++] - '0');
    const bool runGoesOn = i + n < row.size() && isDigit(row[i + n]);
    const int width = n <= 9 ? 4 : 8;
    if (n >= 3 && !runGoesOn && static_cast<size_t>(width) < n) {
      appendBigEndian(&out, v, width);
      changed = true;
    } else {
      out.append(row.data() + i, n);
    }
    i += n;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace keyscope
