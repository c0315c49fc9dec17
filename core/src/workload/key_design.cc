// The built-in key designs (key_design.h): monotonic, sequence, salted,
// field-swapped, hashed, uniform, Zipf and lock-step. The schema design,
// driven by generators, lives in schema_design.cc.
#include "workload/key_design.h"

#include <algorithm>
#include <cstdio>

#include "md5_digest.h"

namespace keyscope::workload {

namespace {

constexpr uint64_t kMaxEntities = 10000000;

KeySchema parsed(const std::string& text) {
  Result<KeySchema> schema = KeySchema::parse(text);
  // The built-in schemas are fixed text; a failure here is a bug in this file.
  return schema ? *schema : KeySchema();
}

std::string hexByte(uint64_t value) {
  char buf[3];
  std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(value & 0xff));
  return buf;
}

// Indexes k * count / regions for k = 1 .. regions - 1, distinct and above 0.
std::vector<uint64_t> evenCuts(uint64_t count, uint32_t regions) {
  std::vector<uint64_t> cuts;
  for (uint64_t k = 1; k < regions; ++k) {
    // count * k / regions without overflow (regions is small).
    const uint64_t cut = count / regions * k + count % regions * k / regions;
    if (cut > 0 && cut < count && (cuts.empty() || cuts.back() != cut)) cuts.push_back(cut);
  }
  return cuts;
}

// Keys of the form (time, ...): monotonic.
class MonotonicDesign final : public KeyDesignModel {
 public:
  explicit MonotonicDesign(const RunPlan& plan) : KeyDesignModel(parsed("ts:i64 | event:u64")), m_plan(plan) {}
  Result<Bytes> writeKey(const KeyContext& ctx, Rng&) const override { return encode({ctx.nowMillis, ctx.event}); }
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng&) const override {
    Result<Bytes> start = encode({ctx.nowMillis - kRecentMillis});
    Result<Bytes> stop = encode({ctx.nowMillis + 1});
    if (!start) return start.status();
    if (!stop) return stop.status();
    return std::vector<ScanRange>{{*start, *stop}};
  }
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    std::vector<Bytes> keys;
    const auto span = static_cast<uint64_t>(m_plan.endMillis - m_plan.startMillis + 1);
    for (uint64_t cut : evenCuts(span, regions)) {
      Result<Bytes> key = encode({m_plan.startMillis + static_cast<int64_t>(cut)});
      if (!key) return key.status();
      keys.push_back(*key);
    }
    return keys;
  }

 private:
  RunPlan m_plan;
};

class SequenceDesign final : public KeyDesignModel {
 public:
  explicit SequenceDesign(const RunPlan& plan) : KeyDesignModel(parsed("seq:u64")), m_plan(plan) {}
  Result<Bytes> writeKey(const KeyContext& ctx, Rng&) const override { return encode({ctx.event}); }
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng&) const override {
    Result<Bytes> start = encode({ctx.event - std::min<uint64_t>(ctx.event, m_plan.scanRows)});
    if (!start) return start.status();
    return std::vector<ScanRange>{{*start, {}}};
  }
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    std::vector<Bytes> keys;
    for (uint64_t cut : evenCuts(std::max<uint64_t>(m_plan.puts, 1), regions)) {
      Result<Bytes> key = encode({cut});
      if (!key) return key.status();
      keys.push_back(*key);
    }
    return keys;
  }

 private:
  RunPlan m_plan;
};

std::string saltedSchema(const KeyDesignOptions& o) {
  const std::string salt = o.saltFormat == SaltFormat::kHex
                               ? std::string("salt:bytes(2)")
                               : "salt:salt(" + std::to_string(o.saltBuckets) +
                                     (o.saltSource == SaltSource::kEntity ? ", entity)" : ", ts)");
  return salt + (o.saltSource == SaltSource::kEntity ? " | ts:i64 | entity:utf8 | event:u64" : " | ts:i64 | event:u64");
}

class SaltedDesign final : public KeyDesignModel {
 public:
  explicit SaltedDesign(const KeyDesignOptions& o) : KeyDesignModel(parsed(saltedSchema(o))), m_options(o) {}

  Result<Bytes> writeKey(const KeyContext& ctx, Rng& rng) const override {
    if (m_options.saltSource == SaltSource::kTimestamp) {
      if (m_options.saltFormat == SaltFormat::kByte) return encode({std::monostate{}, ctx.nowMillis, ctx.event});
      Result<Bytes> hashed = hbaseBytes(schema()[1], ctx.nowMillis);
      if (!hashed) return hashed.status();
      return encode({hexByte(saltBucket(*hashed, m_options.saltBuckets)), ctx.nowMillis, ctx.event});
    }
    std::string entity = entityName("user", rng.below(m_options.entities), m_options.entities);
    if (m_options.saltFormat == SaltFormat::kByte)
      return encode({std::monostate{}, ctx.nowMillis, std::move(entity), ctx.event});
    const std::string salt = hexByte(saltBucket(entity, m_options.saltBuckets));
    return encode({salt, ctx.nowMillis, std::move(entity), ctx.event});
  }

  // The latest second in every bucket: one scan per bucket (the salt's price).
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng&) const override {
    std::vector<ScanRange> ranges;
    for (uint32_t b = 0; b < m_options.saltBuckets; ++b) {
      Result<Bytes> start = encodeRaw({salt(b), ctx.nowMillis - kRecentMillis});
      Result<Bytes> stop = encodeRaw({salt(b), ctx.nowMillis + 1});
      if (!start) return start.status();
      if (!stop) return stop.status();
      ranges.push_back({*start, *stop});
    }
    return ranges;
  }

  // At the bucket boundaries, as salted tables are pre-split in practice.
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    std::vector<Bytes> keys;
    for (uint64_t cut : evenCuts(m_options.saltBuckets, regions)) {
      Result<Bytes> key = encodeRaw({salt(static_cast<uint32_t>(cut))});
      if (!key) return key.status();
      keys.push_back(*key);
    }
    return keys;
  }

 private:
  ComponentValue salt(uint32_t bucket) const {
    if (m_options.saltFormat == SaltFormat::kHex) return hexByte(bucket);
    return uint64_t{bucket};
  }
  KeyDesignOptions m_options;
};

// A design whose keys start with an entity name: field-swapped (metrics) and Zipf (users).
class EntityLeadDesign final : public KeyDesignModel {
 public:
  EntityLeadDesign(const KeyDesignOptions& o, bool zipf)
      : KeyDesignModel(parsed(zipf ? "entity:utf8 | ts:i64 | event:u64" : "metric:utf8 | ts:i64 | event:u64")),
        m_entities(o.entities),
        m_prefix(zipf ? "user" : "metric") {
    if (zipf) m_zipf = std::make_shared<const ZipfTable>(o.entities, o.zipfExponent);
  }

  Result<Bytes> writeKey(const KeyContext& ctx, Rng& rng) const override {
    return encode({pick(rng), ctx.nowMillis, ctx.event});
  }
  // One entity's latest second: one range (a metric's recent points, a user's recent events).
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng& rng) const override {
    const std::string entity = pick(rng);
    Result<Bytes> start = encode({entity, ctx.nowMillis - kRecentMillis});
    Result<Bytes> stop = encode({entity, ctx.nowMillis + 1});
    if (!start) return start.status();
    if (!stop) return stop.status();
    return std::vector<ScanRange>{{*start, *stop}};
  }
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    std::vector<Bytes> keys;
    for (uint64_t cut : evenCuts(m_entities, regions)) {
      Result<Bytes> key = encode({entityName(m_prefix, cut, m_entities)});
      if (!key) return key.status();
      keys.push_back(*key);
    }
    return keys;
  }

 private:
  // A Zipf rank becomes a user by a fixed permutation of the users
  // (scatter()), so that popularity does not follow the key order: the
  // popular users are spread over the key space, as in real data.
  std::string pick(Rng& rng) const {
    if (!m_zipf) return entityName(m_prefix, rng.below(m_entities), m_entities);
    return entityName(m_prefix, scatter(m_zipf->sample(rng), m_entities), m_entities);
  }
  uint64_t m_entities;
  std::string m_prefix;
  std::shared_ptr<const ZipfTable> m_zipf;
};

class HashedDesign final : public KeyDesignModel {
 public:
  explicit HashedDesign(const KeyDesignOptions& o)
      : KeyDesignModel(parsed("hash:md5(4, entity) | entity:utf8 | ts:i64 | event:u64")), m_entities(o.entities) {}
  Result<Bytes> writeKey(const KeyContext& ctx, Rng& rng) const override {
    return encode({std::monostate{}, entity(rng), ctx.nowMillis, ctx.event});
  }
  // Every event of one user: the hash keeps them together.
  Result<std::vector<ScanRange>> scanRanges(const KeyContext&, Rng& rng) const override {
    Result<Bytes> prefix = encode({std::monostate{}, entity(rng)});
    if (!prefix) return prefix.status();
    return std::vector<ScanRange>{{*prefix, prefixEnd(*prefix)}};
  }
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override { return evenByteSplits(regions); }

 private:
  std::string entity(Rng& rng) const { return entityName("user", rng.below(m_entities), m_entities); }
  uint64_t m_entities;
};

class UniformDesign final : public KeyDesignModel {
 public:
  UniformDesign() : KeyDesignModel(parsed("key:u64")) {}
  Result<Bytes> writeKey(const KeyContext&, Rng& rng) const override { return encode({rng.next()}); }
  Result<std::vector<ScanRange>> scanRanges(const KeyContext&, Rng& rng) const override {
    Result<Bytes> start = encode({rng.next()});
    if (!start) return start.status();
    return std::vector<ScanRange>{{*start, {}}};
  }
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override { return evenByteSplits(regions); }
};

// The lock-step import: every client reads its own sorted input from the
// same first row, and all advance together (client c's n-th put is row n).
class LockstepDesign final : public KeyDesignModel {
 public:
  explicit LockstepDesign(const RunPlan& plan) : KeyDesignModel(parsed("row:u64 | client:u16")), m_plan(plan) {}
  Result<Bytes> writeKey(const KeyContext& ctx, Rng&) const override {
    return encode({ctx.step, uint64_t{ctx.client}});
  }
  // Where the import is now: the rows just written.
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng&) const override {
    Result<Bytes> start = encode({ctx.step > 0 ? ctx.step - 1 : 0});
    if (!start) return start.status();
    return std::vector<ScanRange>{{*start, {}}};
  }
  // Evenly over the rows the clients will reach, as a table pre-split for
  // the import would be: the import then walks from region to region.
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    const uint64_t rows = std::max<uint64_t>(1, (m_plan.puts + m_plan.clients - 1) / m_plan.clients);
    std::vector<Bytes> keys;
    for (uint64_t cut : evenCuts(rows, regions)) {
      Result<Bytes> key = encode({cut});
      if (!key) return key.status();
      keys.push_back(*key);
    }
    return keys;
  }

 private:
  RunPlan m_plan;
};

Status checkOptions(const KeyDesignOptions& o) {
  if (o.design == KeyDesign::kSalted && (o.saltBuckets < 1 || o.saltBuckets > 256))
    return Status::invalidArgument("salt buckets: " + std::to_string(o.saltBuckets) +
                                   " is out of range (1 to 256: the salt is one byte)");
  if (o.entities < 1 || o.entities > kMaxEntities)
    return Status::invalidArgument("entities: " + std::to_string(o.entities) + " is out of range (1 to 10,000,000)");
  if (!(o.zipfExponent > 0 && o.zipfExponent <= 10))
    return Status::invalidArgument("zipf exponent: " + std::to_string(o.zipfExponent) +
                                   " is out of range (above 0, at most 10)");
  if (o.design != KeyDesign::kSchema && (!o.keySchema.empty() || !o.generators.empty()))
    return Status::invalidArgument(std::string("a key schema and generators go with the schema design, not ") +
                                   keyDesignName(o.design));
  return Status::ok();
}

}  // namespace

// A bijection of [0, 2^k) (multiplying by an odd constant and xor-shifting
// right are each one), walked until it lands below n: a permutation of [0, n).
uint64_t scatter(uint64_t index, uint64_t n) {
  if (n <= 2) return index;
  int bits = 1;
  while ((uint64_t{1} << bits) < n) ++bits;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  const int shift = bits / 2 + 1;
  uint64_t x = index;
  do {
    x = (x * 0x9e3779b97f4a7c15ull) & mask;
    x ^= x >> shift;
    x = (x * 0xbf58476d1ce4e5b9ull) & mask;
    x ^= x >> shift;
  } while (x >= n);
  return x;
}

Result<Bytes> KeyDesignModel::encode(const KeyTuple& tuple) const { return encodeKey(m_schema, tuple); }

Result<Bytes> KeyDesignModel::encodeRaw(const KeyTuple& tuple) const {
  Bytes out;
  for (size_t i = 0; i < tuple.size() && i < m_schema.size(); ++i) {
    Result<Bytes> part = encodeComponent(m_schema[i], tuple[i]);
    if (!part) return Status::invalidArgument("component '" + m_schema[i].name + "': " + part.status().message());
    out += *part;
  }
  return out;
}

std::string entityName(const std::string& prefix, uint64_t index, uint64_t count) {
  int width = 1;
  for (uint64_t n = count > 0 ? count - 1 : 0; n >= 10; n /= 10) ++width;
  char digits[32];
  std::snprintf(digits, sizeof digits, "%0*llu", std::max(width, 4), static_cast<unsigned long long>(index));
  return prefix + digits;
}

Bytes prefixEnd(BytesView prefix) {
  Bytes end(prefix);
  while (!end.empty() && static_cast<uint8_t>(end.back()) == 0xff) end.pop_back();
  if (!end.empty()) end.back() = static_cast<char>(static_cast<uint8_t>(end.back()) + 1);
  return end;
}

std::vector<Bytes> evenByteSplits(uint32_t regions) {
  std::vector<Bytes> keys;
  for (uint64_t cut : evenCuts(65536, regions)) {
    keys.push_back(Bytes{static_cast<char>(cut >> 8), static_cast<char>(cut & 0xff)});
  }
  return keys;
}

uint64_t saltBucket(BytesView hashed, uint32_t buckets) {
  const Md5Digest digest = md5(hashed);
  const uint64_t head = (uint64_t{digest[0]} << 24) | (uint64_t{digest[1]} << 16) | (uint64_t{digest[2]} << 8) | digest[3];
  return head % buckets;
}

Result<std::unique_ptr<KeyDesignModel>> makeKeyDesign(const KeyDesignOptions& options, const RunPlan& plan) {
  if (Status s = checkOptions(options); !s) return s;
  switch (options.design) {
    case KeyDesign::kMonotonic: return std::unique_ptr<KeyDesignModel>(new MonotonicDesign(plan));
    case KeyDesign::kSequence: return std::unique_ptr<KeyDesignModel>(new SequenceDesign(plan));
    case KeyDesign::kSalted: return std::unique_ptr<KeyDesignModel>(new SaltedDesign(options));
    case KeyDesign::kFieldSwapped: return std::unique_ptr<KeyDesignModel>(new EntityLeadDesign(options, false));
    case KeyDesign::kHashed: return std::unique_ptr<KeyDesignModel>(new HashedDesign(options));
    case KeyDesign::kUniform: return std::unique_ptr<KeyDesignModel>(new UniformDesign());
    case KeyDesign::kZipf: return std::unique_ptr<KeyDesignModel>(new EntityLeadDesign(options, true));
    case KeyDesign::kLockstep: return std::unique_ptr<KeyDesignModel>(new LockstepDesign(plan));
    case KeyDesign::kSchema: return makeSchemaDesign(options, plan);
  }
  return Status::invalidArgument("unknown key design");
}

}  // namespace keyscope::workload
