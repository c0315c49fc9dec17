// libFuzzer target: decodeKey on arbitrary bytes.
//
// Input: byte 0 picks a schema from a fixed list, the rest is the key.
// Checks: decoding never crashes or reads out of bounds (ASan/UBSan); an error
// points inside the key and at a component of the schema; a key that decodes
// cleanly re-encodes to exactly the same bytes (decode is the inverse of encode).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"

namespace {

// Every type, order and encoding; md5 without fields is left out because its
// value (the input to hash) cannot be recovered from the key.
const char* const kSchemas[] = {
    "a:i8 | b:i16 desc | c:i32 | d:i64 desc",
    "a:u8 | b:u16 | c:u32 desc | d:u64",
    "a:f32 | b:f64 desc | c:bool | d:bool desc",
    "a:utf8 | b:bytes desc | c:utf8 desc",
    "a:bytes | b:bytes(3) | c:bytes(2) desc",
    "user:utf8 | ts:revts | ts2:revts desc",
    "s:salt(16, ts) | ts:i64",
    "s:salt(7) | a:utf8 | b:f64",
    "h:md5(4, user) | user:utf8 | x:u8",
    "site:domain | tile:quadkey | t2:quadkey desc | d2:domain desc",
    "a:i64 hbase | b:f64 hbase | c:f32 hbase | d:bool hbase | e:revts hbase | f:utf8 hbase",
    "a:i32 hbase | b:bytes hbase",
    "a:domain hbase",
};

const std::vector<keyscope::KeySchema>& schemas() {
  static const std::vector<keyscope::KeySchema> parsed = [] {
    std::vector<keyscope::KeySchema> out;
    for (const char* text : kSchemas) {
      auto schema = keyscope::KeySchema::parse(text);
      if (!schema) {
        std::fprintf(stderr, "fuzz schema does not parse: %s: %s\n", text, schema.status().toString().c_str());
        std::abort();
      }
      out.push_back(*schema);
    }
    return out;
  }();
  return parsed;
}

[[noreturn]] void fail(const char* what, const keyscope::KeySchema& schema, keyscope::BytesView key) {
  std::fprintf(stderr, "%s\n  schema: %s\n  key: %s\n", what, schema.toString().c_str(), keyscope::toHex(key).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& all = schemas();
  const keyscope::KeySchema& schema = all[data[0] % all.size()];
  const keyscope::BytesView key(reinterpret_cast<const char*>(data + 1), size - 1);

  const keyscope::DecodedKey decoded = keyscope::decodeKey(schema, key);
  if (decoded.values.size() > schema.size()) fail("more values than components", schema, key);
  for (const auto& [begin, end] : decoded.spans) {
    if (begin > end || end > key.size()) fail("span outside the key", schema, key);
  }
  if (!decoded.ok()) {
    if (decoded.error->offset > key.size()) fail("error offset beyond the key", schema, key);
    if (decoded.error->component > schema.size()) fail("error component beyond the schema", schema, key);
    (void)decoded.error->toString(schema);
    return 0;
  }
  if (decoded.values.size() != schema.size()) fail("clean decode with missing values", schema, key);
  auto again = keyscope::encodeKey(schema, decoded.values);
  if (!again) {
    std::fprintf(stderr, "re-encode failed: %s\n", again.status().toString().c_str());
    fail("decoded values do not encode", schema, key);
  }
  if (*again != key) {
    std::fprintf(stderr, "re-encoded: %s\n", keyscope::toHex(*again).c_str());
    fail("decode then encode changed the key", schema, key);
  }
  if (keyscope::compareTuples(schema, decoded.values, decoded.values) != 0) fail("tuple unequal to itself", schema, key);
  return 0;
}
