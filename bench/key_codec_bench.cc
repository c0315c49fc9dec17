// Key codec throughput: encode and decode of typical key designs.
// Run: build/<dir>/bench/keyscope_key_bench
#include <benchmark/benchmark.h>

#include <random>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"

namespace {

using keyscope::ComponentValue;
using keyscope::KeySchema;
using keyscope::KeyTuple;

KeySchema schemaOf(const char* text) { return KeySchema::parse(text).value(); }

std::vector<KeyTuple> userEvents(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<KeyTuple> tuples;
  for (size_t i = 0; i < n; ++i)
    tuples.push_back({ComponentValue{}, std::string("user") + std::to_string(rng() % 100000),
                      static_cast<int64_t>(1700000000000 + static_cast<int64_t>(rng() % 1000000000))});
  return tuples;
}

constexpr const char* kSalted = "salt:salt(16, user) | user:utf8 | ts:i64 desc";

void BM_EncodeSaltedUserEvent(benchmark::State& state) {
  KeySchema schema = schemaOf(kSalted);
  auto tuples = userEvents(1024);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(keyscope::encodeKey(schema, tuples[i++ & 1023]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeSaltedUserEvent);

void BM_DecodeSaltedUserEvent(benchmark::State& state) {
  KeySchema schema = schemaOf(kSalted);
  std::vector<keyscope::Bytes> keys;
  for (const auto& t : userEvents(1024)) keys.push_back(keyscope::encodeKey(schema, t).value());
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(keyscope::decodeKey(schema, keys[i++ & 1023]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeSaltedUserEvent);

}  // namespace

BENCHMARK_MAIN();
