#include "keyscope/options.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "utf8.h"

namespace keyscope {

const FamilyOptions* TableOptions::family(std::string_view familyName) const {
  for (const FamilyOptions& f : families) {
    if (f.name == familyName) return &f;
  }
  return nullptr;
}

const char* splitPolicyName(SplitPolicy policy) {
  switch (policy) {
    case SplitPolicy::kConstantSize: return "ConstantSizeRegionSplitPolicy";
    case SplitPolicy::kStepping: return "SteppingSplitPolicy";
    case SplitPolicy::kDisabled: return "DisabledRegionSplitPolicy";
    case SplitPolicy::kIncreasingToUpperBound: break;
  }
  return "IncreasingToUpperBoundRegionSplitPolicy";
}

std::optional<SplitPolicy> parseSplitPolicy(std::string_view name) {
  constexpr std::string_view kPackage = "org.apache.hadoop.hbase.regionserver.";
  if (name.starts_with(kPackage)) name.remove_prefix(kPackage.size());
  for (SplitPolicy p : {SplitPolicy::kIncreasingToUpperBound, SplitPolicy::kConstantSize, SplitPolicy::kStepping,
                        SplitPolicy::kDisabled}) {
    if (name == splitPolicyName(p)) return p;
  }
  // The short forms in any case ("Constant", "DISABLED").
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  if (lower == "increasing") return SplitPolicy::kIncreasingToUpperBound;
  if (lower == "constant") return SplitPolicy::kConstantSize;
  if (lower == "stepping") return SplitPolicy::kStepping;
  if (lower == "disabled") return SplitPolicy::kDisabled;
  return std::nullopt;
}

namespace {

bool isPrintableName(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f;
  });
}

Status checkFamily(const FamilyOptions& f) {
  const std::string where = "family '" + f.name + "': ";
  if (f.name.empty()) return Status::invalidArgument("a family name cannot be empty");
  if (f.name.size() > kMaxFamilyNameSize)
    return Status::invalidArgument(where + "name of " + std::to_string(f.name.size()) +
                                   " bytes is longer than the limit of " + std::to_string(kMaxFamilyNameSize));
  // HBase: printable, no ':' (it separates family from qualifier), not starting with '.'.
  if (!isPrintableName(f.name) || f.name.find(':') != std::string::npos || f.name.front() == '.')
    return Status::invalidArgument(where + "a family name is printable ASCII without ':' or a leading '.'");
  if (f.maxVersions < 1) return Status::invalidArgument(where + "VERSIONS must be at least 1");
  if (f.minVersions < 0) return Status::invalidArgument(where + "MIN_VERSIONS cannot be negative");
  if (f.minVersions > 0 && f.minVersions >= f.maxVersions)
    return Status::invalidArgument(where + "MIN_VERSIONS (" + std::to_string(f.minVersions) +
                                   ") must be less than VERSIONS (" + std::to_string(f.maxVersions) + ")");
  if (f.ttlSeconds < 1) return Status::invalidArgument(where + "TTL must be at least 1 second");
  if (f.blockSize < 1024 || f.blockSize > (16u << 20))
    return Status::invalidArgument(where + "BLOCKSIZE must be between 1024 and 16777216");
  switch (f.keepDeletedCells) {
    case KeepDeletedCells::kFalse: case KeepDeletedCells::kTrue: case KeepDeletedCells::kTtl: break;
    default: return Status::invalidArgument(where + "unknown KEEP_DELETED_CELLS");
  }
  switch (f.compression) {
    case Compression::kNone: case Compression::kZstd: break;
    default: return Status::invalidArgument(where + "unknown COMPRESSION");
  }
  switch (f.bloomFilter) {
    case BloomType::kNone: case BloomType::kRow: case BloomType::kRowCol: break;
    default: return Status::invalidArgument(where + "unknown BLOOMFILTER");
  }
  return Status::ok();
}

}  // namespace

Status validateTableOptions(const TableOptions& options) {
  if (options.name.empty()) return Status::invalidArgument("a table name cannot be empty");
  if (options.name.size() > kMaxTableNameSize)
    return Status::invalidArgument("table name of " + std::to_string(options.name.size()) +
                                   " bytes is longer than the limit of " + std::to_string(kMaxTableNameSize));
  // HBase: [a-zA-Z_0-9-.], not starting with '.' or '-'.
  for (char c : options.name) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '_' || c == '-' || c == '.'))
      return Status::invalidArgument("table name '" + options.name + "': only letters, digits, '_', '-' and '.' are allowed");
  }
  if (options.name.front() == '.' || options.name.front() == '-')
    return Status::invalidArgument("table name '" + options.name + "' cannot start with '.' or '-'");
  if (options.families.empty())
    return Status::invalidArgument("table '" + options.name + "' needs at least one column family");
  std::set<std::string> seen;
  for (const FamilyOptions& f : options.families) {
    if (Status s = checkFamily(f); !s) return s;
    if (!seen.insert(f.name).second)
      return Status::invalidArgument("table '" + options.name + "': family '" + f.name + "' named twice");
  }
  if (options.memstoreFlushSize < (64u << 10))
    return Status::invalidArgument("table '" + options.name + "': MEMSTORE_FLUSHSIZE must be at least 65536");
  if (options.maxFileSize < (64u << 10))
    return Status::invalidArgument("table '" + options.name + "': MAX_FILESIZE must be at least 65536");
  // The catalog keeps these as JSON text, which must be UTF-8.
  auto checkText = [&options](std::string_view what, std::string_view text) -> Status {
    if (std::optional<size_t> bad = firstInvalidUtf8(text))
      return Status::invalidArgument("table '" + options.name + "': " + std::string(what) +
                                     " is not UTF-8 text (byte " + std::to_string(*bad) + ")");
    return Status::ok();
  };
  if (Status s = checkText("KEY_SCHEMA", options.keySchema); !s) return s;
  if (Status s = checkText("DESCRIPTION", options.description); !s) return s;
  for (size_t i = 0; i < options.exampleCommands.size(); ++i) {
    if (Status s = checkText("example " + std::to_string(i + 1), options.exampleCommands[i]); !s) return s;
  }
  return Status::ok();
}

Status validateTimeRange(const TimeRange& range) {
  if (range.min < 0 || range.max < 0)
    return Status::invalidArgument("time range [" + std::to_string(range.min) + ", " + std::to_string(range.max) +
                                   "): timestamps cannot be negative");
  if (range.max < range.min)
    return Status::invalidArgument("time range [" + std::to_string(range.min) + ", " + std::to_string(range.max) +
                                   "): max is less than min");
  return Status::ok();
}

void ScanOptions::setRowPrefix(BytesView prefix) {
  startRow = Bytes(prefix);
  startInclusive = true;
  stopInclusive = false;
  // The closest row after every row starting with prefix: strip trailing
  // 0xFF bytes and increment the last remaining one; none if all are 0xFF.
  Bytes stop(prefix);
  while (!stop.empty() && static_cast<uint8_t>(stop.back()) == 0xff) stop.pop_back();
  if (!stop.empty()) stop.back() = static_cast<char>(static_cast<uint8_t>(stop.back()) + 1);
  stopRow = std::move(stop);
}

}  // namespace keyscope
