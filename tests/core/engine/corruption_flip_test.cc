// One byte flipped at a random place, many times over: in a store file's
// page, in a store file's metadata, or anywhere in the SQLite file. Each
// trial reopens the damaged copy and reads everything (a raw scan of every
// version of every table, gets, the tables' descriptions, regions, store
// files and region history). Every read must end in a clean Corruption or
// IOError, or give exactly the answer of the undamaged workspace: never a
// crash (this file also runs under ASan+UBSan) and never another answer.
//
// KEYSCOPE_FLIP_TRIALS=N runs N trials (a soak); KEYSCOPE_FLIP_SEED=S another
// sequence of places. The outcome is printed and recorded as test properties
// (trials, detected, harmless).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "engine_test_util.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

// About 15 s in a RelWithDebInfo build on a busy 2-core machine.
constexpr int kDefaultTrials = 400;
constexpr uint64_t kDefaultSeed = 20261121;

int64_t envNumber(const char* name, int64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoll(text, nullptr, 10);
}

std::string rowName(const char* prefix, int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%04d", prefix, i);
  return buf;
}

std::string familyText(const FamilyOptions& f) {
  std::ostringstream out;
  out << f.name << " v" << f.maxVersions << " min" << f.minVersions << " ttl" << f.ttlSeconds << " kdc"
      << static_cast<int>(f.keepDeletedCells) << " c" << static_cast<int>(f.compression) << " bloom"
      << static_cast<int>(f.bloomFilter) << " bs" << f.blockSize;
  return out.str();
}

// One step of reading everything: its answer, or the error that ended it.
struct Step {
  std::string answer;
  Status status;
};

// Reads everything there is to read, one step per query, in a fixed order.
std::vector<Step> readEverything(Workspace& ws) {
  std::vector<Step> steps;
  const auto add = [&](std::string answer, Status status = Status::ok()) {
    steps.push_back({std::move(answer), std::move(status)});
  };
  std::string list;
  for (const std::string& name : ws.listTables()) list += name + ",";
  add(list);
  for (const std::string& table : ws.listTables()) {
    if (auto options = ws.describeTable(table); !options) {
      add({}, options.status());
    } else {
      std::string text = options->name + " split" + std::to_string(static_cast<int>(options->splitPolicy)) + " flush" +
                         std::to_string(options->memstoreFlushSize) + " max" + std::to_string(options->maxFileSize) +
                         " schema[" + options->keySchema + "] desc[" + options->description + "]";
      for (const FamilyOptions& f : options->families) text += " {" + familyText(f) + "}";
      add(text);
    }
    if (auto regions = ws.regions(table); !regions) {
      add({}, regions.status());
    } else {
      std::string text;
      Status damage;
      for (const RegionInfo& r : *regions) {
        text += std::to_string(r.id) + "[" + toStringBinary(r.startRow) + "," + toStringBinary(r.endRow) + ") s" +
                std::to_string(r.server) + " m" + std::to_string(r.memstoreBytes) + " f" +
                std::to_string(r.storeFiles) + " c" + std::to_string(r.cells) + " r" + std::to_string(r.rawBytes) +
                " st" + std::to_string(r.storedBytes) + ";";
        if (r.damagedStoreFiles > 0) damage = Status::corruption("region " + std::to_string(r.id) + " has damaged files");
      }
      add(text, damage);
    }
    if (auto files = ws.storeFiles(table); !files) {
      add({}, files.status());
    } else {
      std::string text;
      Status damage;
      for (const StoreFileInfo& f : *files) {
        text += std::to_string(f.id) + "@" + std::to_string(f.regionId) + f.family + " c" + std::to_string(f.cells) +
                " p" + std::to_string(f.pages) + " t" + std::to_string(f.minTimestamp) + "-" +
                std::to_string(f.maxTimestamp) + " " + toStringBinary(f.firstRow) + ".." + toStringBinary(f.lastRow) +
                ";";
        if (!f.damage.empty()) damage = Status::corruption(f.damage);
      }
      add(text, damage);
    }
    if (auto history = ws.regionHistory(table); !history) {
      add({}, history.status());
    } else {
      std::string text;
      for (const RegionHistoryEntry& h : *history) {
        text += std::to_string(h.regionId) + "[" + toStringBinary(h.startRow) + "," + toStringBinary(h.endRow) + ") " +
                std::to_string(h.createdMillis) + " " + (h.retiredMillis ? std::to_string(*h.retiredMillis) : "-") +
                " o" + std::to_string(static_cast<int>(h.origin)) + " p" + std::to_string(h.parents.size()) + ";";
      }
      add(text);
    }
    // Every version of every cell, delete markers included.
    ScanOptions raw;
    raw.raw = true;
    raw.maxVersions = 100;
    std::string cells;
    Status scanStatus;
    if (auto scanner = ws.scan(table, raw); !scanner) {
      scanStatus = scanner.status();
    } else {
      RowResult row;
      while ((*scanner)->next(&row)) {
        for (const Cell& c : row.cells)
          cells += toStringBinary(c.row) + "/" + c.family + ":" + toStringBinary(c.qualifier) + "@" +
                   std::to_string(c.timestamp) + "#" + std::to_string(static_cast<int>(c.type)) + "=" +
                   toStringBinary(c.value) + "\n";
      }
      scanStatus = (*scanner)->status();
    }
    add(cells, scanStatus);
    // Point reads through the bloom filters and the block index.
    for (const char* row : {"a0003", "k0150", "t0299", "w0007", "absent"}) {
      GetOptions get;
      get.row = row;
      get.maxVersions = 3;
      if (auto result = ws.get(table, get); !result) {
        add({}, result.status());
      } else {
        add(describeFull(result->cells).empty() ? "-" : ::testing::PrintToString(describeFull(result->cells)));
      }
    }
  }
  return steps;
}

class CorruptionFlip : public ::testing::Test {
 protected:
  // Table events: three regions (split at "k" and "t"); family d ZSTD in 4 KiB
  // blocks over 8 KiB pages, family m uncompressed with a ROWCOL bloom filter
  // and three versions; some rows with two versions and a delete marker.
  // Table small: one region, 1 KiB pages. Flushed; then writes in the log only.
  static void build(const std::string& path) {
    OpenOptions options;
    options.backgroundCompaction = false;
    auto ws = Workspace::open(path, options);
    ASSERT_TRUE(ws) << ws.status().toString();
    TableOptions events;
    events.name = "events";
    events.families = {familyOf("d").compression(Compression::kZstd).blockSize(8192),
                       familyOf("m").versions(3).bloom(BloomType::kRowCol).blockSize(4096)};
    ASSERT_TRUE((*ws)->createTable(events, {Bytes("k"), Bytes("t")}));
    TableOptions small;
    small.name = "small";
    small.families = {familyOf("f").blockSize(1024)};
    ASSERT_TRUE((*ws)->createTable(small));
    for (const char* prefix : {"a", "k", "t"}) {
      for (int i = 0; i < 300; ++i) {
        const std::string row = rowName(prefix, i);
        Put put{row, {PutCell{"d", "payload", 10, "event " + row + " " + std::string(static_cast<size_t>(i % 40), 'x')},
                      PutCell{"m", "state", 10, std::to_string(i % 7)}}};
        if (i % 5 == 0) put.cells.push_back(PutCell{"m", "state", 20, std::to_string(i % 3)});
        ASSERT_TRUE((*ws)->put("events", put));
      }
    }
    Delete del{rowName("k", 150), 15, {DeleteSpec{DeleteScope::kColumnAll, "m", "state", 15}}};
    ASSERT_TRUE((*ws)->remove("events", del));
    for (int i = 0; i < 120; ++i) {
      ASSERT_TRUE((*ws)->put("small", Put{rowName("w", i), {PutCell{"f", "n", 1, std::to_string(i * i)}}}));
    }
    ASSERT_TRUE((*ws)->flush("events"));
    ASSERT_TRUE((*ws)->flush("small"));
    // In the log only: new rows, a newer version, a delete.
    ASSERT_TRUE((*ws)->put("events", Put{rowName("a", 3), {PutCell{"m", "state", 30, "logged"}}}));
    ASSERT_TRUE((*ws)->put("events", Put{"zzz", {PutCell{"d", "payload", 30, "only in the log"}}}));
    ASSERT_TRUE((*ws)->remove("small", Delete{rowName("w", 7), 40, {}}));
  }
};

enum class Target { kPage, kMetadata, kAnyByte };
const char* targetName(Target t) {
  return t == Target::kPage ? "page" : t == Target::kMetadata ? "metadata" : "file";
}

// Flips one byte (XOR with a random non-zero mask) of the workspace file at
// `path` and says where.
std::string flip(const std::string& path, Target target, std::mt19937_64& rng) {
  const auto mask = static_cast<char>(1 + rng() % 255);
  if (target == Target::kAnyByte) {
    std::string bytes = readFile(path);
    const size_t at = rng() % bytes.size();
    bytes[at] = static_cast<char>(bytes[at] ^ mask);
    writeFile(path, bytes);
    return "file byte " + std::to_string(at);
  }
  RawDb db(path);
  const bool page = target == Target::kPage;
  const std::string table = page ? "pages" : "store_files";
  const std::string key = page ? "page_id" : "file_id";
  const std::string column = page ? "data" : "meta";
  const int64_t rows = db.integer("SELECT count(*) FROM " + table);
  const int64_t id =
      db.integer("SELECT " + key + " FROM " + table + " ORDER BY " + key + " LIMIT 1 OFFSET " + std::to_string(rng() % static_cast<uint64_t>(rows)));
  std::string blob = db.blob("SELECT " + column + " FROM " + table + " WHERE " + key + " = ?", id);
  const size_t at = rng() % blob.size();
  blob[at] = static_cast<char>(blob[at] ^ mask);
  db.setBlob("UPDATE " + table + " SET " + column + " = ? WHERE " + key + " = ?", blob, id);
  return table + " " + std::to_string(id) + " byte " + std::to_string(at);
}

void removeWorkspace(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

bool cleanError(const Status& s) {
  return s.code() == Status::Code::kCorruption || s.code() == Status::Code::kIOError;
}

TEST_F(CorruptionFlip, EveryFlippedByteIsACleanErrorOrTheSameAnswer) {
  TempDir dir;
  const std::string pristinePath = dir.file("pristine.ksw");
  build(pristinePath);
  ASSERT_FALSE(HasFailure());
  ASSERT_FALSE(std::filesystem::exists(pristinePath + "-wal")) << "closing checkpoints the log into the file";
  const std::string pristine = readFile(pristinePath);
  std::vector<Step> expected;
  {
    auto ws = Workspace::open(pristinePath);
    ASSERT_TRUE(ws);
    expected = readEverything(**ws);
    for (const Step& step : expected) ASSERT_TRUE(step.status) << step.status.toString();
  }
  ASSERT_GT(expected.size(), 20u);

  const int64_t trials = envNumber("KEYSCOPE_FLIP_TRIALS", kDefaultTrials);
  const auto seed = static_cast<uint64_t>(envNumber("KEYSCOPE_FLIP_SEED", static_cast<int64_t>(kDefaultSeed)));
  std::mt19937_64 rng(seed);
  const std::string path = dir.file("trial.ksw");
  std::map<std::string, int> detected;  // by target
  std::map<std::string, int> harmless;
  std::map<std::string, int> errors;    // first error's code, for the summary
  OpenOptions options;
  options.createIfMissing = false;
  options.backgroundCompaction = false;
  for (int64_t trial = 0; trial < trials; ++trial) {
    // Half of the trials anywhere in the file, a quarter each in pages and metadata.
    const Target target = trial % 4 == 0 ? Target::kPage : trial % 4 == 1 ? Target::kMetadata : Target::kAnyByte;
    removeWorkspace(path);
    writeFile(path, pristine);
    const std::string where = flip(path, target, rng);
    SCOPED_TRACE("trial " + std::to_string(trial) + " (seed " + std::to_string(seed) + "): " + where);
    auto ws = Workspace::open(path, options);
    if (!ws) {
      // Refusing the file is clean when it names it: a Corruption, or a
      // header that no longer reads as a workspace of this format.
      const Status& s = ws.status();
      EXPECT_TRUE(cleanError(s) || s.code() == Status::Code::kInvalidArgument) << s.toString();
      EXPECT_NE(s.message().find(path), std::string::npos) << s.toString();
      ++detected[targetName(target)];
      ++errors[std::string("open: ") + codeName(s.code())];
      continue;
    }
    const std::vector<Step> got = readEverything(**ws);
    ASSERT_EQ(got.size(), expected.size()) << "the workspace lists other tables";
    bool anyError = false;
    for (size_t i = 0; i < got.size(); ++i) {
      if (!got[i].status) {
        EXPECT_TRUE(cleanError(got[i].status)) << "step " << i << ": " << got[i].status.toString();
        if (!anyError) ++errors[std::string("read: ") + codeName(got[i].status.code())];
        anyError = true;
        continue;
      }
      ASSERT_EQ(got[i].answer, expected[i].answer) << "step " << i << " answered differently from a damaged file";
    }
    ++(anyError ? detected : harmless)[targetName(target)];
  }
  removeWorkspace(path);

  int totalDetected = 0;
  int totalHarmless = 0;
  std::string byTarget;
  for (const Target t : {Target::kPage, Target::kMetadata, Target::kAnyByte}) {
    const char* name = targetName(t);
    totalDetected += detected[name];
    totalHarmless += harmless[name];
    byTarget += std::string(byTarget.empty() ? "" : "; ") + name + ": " + std::to_string(detected[name]) +
                " detected, " + std::to_string(harmless[name]) + " harmless";
  }
  std::string codes;
  for (const auto& [code, n] : errors) codes += (codes.empty() ? "" : ", ") + code + " " + std::to_string(n);
  std::printf("%lld trials (seed %llu): %d detected, %d harmless (same answer)\n  %s\n  errors: %s\n",
              static_cast<long long>(trials), static_cast<unsigned long long>(seed), totalDetected, totalHarmless,
              byTarget.c_str(), codes.c_str());
  RecordProperty("trials", static_cast<int>(trials));
  RecordProperty("detected", totalDetected);
  RecordProperty("harmless", totalHarmless);
  RecordProperty("seed", std::to_string(seed));
  EXPECT_EQ(totalDetected + totalHarmless, trials);
  EXPECT_GT(detected["page"], 0);
  EXPECT_GT(detected["metadata"], 0);
}

}  // namespace
}  // namespace keyscope::test
