// DecompressionDictionary: blocks of every size decode to their bytes, in
// the decoders' room behind the dictionary or (larger than the room) straight
// into the caller's buffer; many threads at once; and a frame that does not
// fit the caller's size never writes past it.
#include "engine/block_dictionary.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace keyscope::engine {
namespace {

// Text like the benchmark's values: words and numbers, so that the
// dictionary and the blocks share many short matches.
std::string textBlock(std::mt19937& rng, size_t size) {
  static const char* const kWords[] = {"cpu", "load", "idle", "host", "rack", "temp", "fan", "disk", "net"};
  std::string block;
  while (block.size() < size) {
    block += kWords[rng() % 9];
    block += std::to_string(rng() % 10000);
    block += ' ';
  }
  block.resize(size);
  return block;
}

struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};
using DCtx = std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter>;

class BlockDictionaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(7);
    std::vector<std::string> samples;
    for (int i = 0; i < 64; ++i) samples.push_back(textBlock(rng, 4096));
    std::vector<BytesView> views(samples.begin(), samples.end());
    m_bytes = trainBlockDictionary(views, 16 * 1024, 3);
    ASSERT_FALSE(m_bytes.empty());
    ASSERT_TRUE(m_compressor.useDictionary(m_bytes, 3));
    m_dictionary = DecompressionDictionary::load(m_bytes);
    ASSERT_NE(m_dictionary, nullptr);
  }

  std::string compress(const std::string& raw) {
    std::string frame, error;
    EXPECT_TRUE(m_compressor.compress(raw, 3, &frame, &error)) << error;
    return frame;
  }

  std::string m_bytes;
  BlockCompressor m_compressor;
  std::unique_ptr<DecompressionDictionary> m_dictionary;
};

TEST_F(BlockDictionaryTest, BlocksOfEverySizeDecodeToTheirBytes) {
  std::mt19937 rng(11);
  DCtx ctx(ZSTD_createDCtx());
  const size_t room = DecompressionDictionary::kDecoderRoom;
  for (const size_t size : {size_t{0}, size_t{1}, size_t{100}, size_t{4096}, room - 1, room, room + 1,
                            size_t{100'000}}) {
    const std::string raw = textBlock(rng, size);
    const std::string frame = compress(raw);
    // A guard after the block: nothing may be written past rawSize.
    std::string out(size + 64, '#');
    const size_t n = m_dictionary->decompress(ctx.get(), frame, out.data(), size);
    ASSERT_FALSE(ZSTD_isError(n)) << size << " bytes: " << ZSTD_getErrorName(n);
    EXPECT_EQ(n, size);
    EXPECT_EQ(out.substr(0, size), raw) << size << " bytes";
    EXPECT_EQ(out.substr(size), std::string(64, '#')) << size << " bytes";
  }
}

// Frames whose literals are left raw (store-file format 6) grow, and still
// decode to their bytes, with the dictionary and without one.
TEST_F(BlockDictionaryTest, FramesWithRawLiteralsAreLargerAndDecodeToTheirBytes) {
  std::mt19937 rng(13);
  DCtx ctx(ZSTD_createDCtx());
  const std::string raw = textBlock(rng, 1400);
  BlockCompressor rawLiterals;
  ASSERT_TRUE(rawLiterals.leaveLiteralsRaw());
  ASSERT_TRUE(rawLiterals.useDictionary(m_bytes, 3));
  BlockCompressor plain;
  BlockCompressor plainRawLiterals;
  ASSERT_TRUE(plainRawLiterals.leaveLiteralsRaw());
  std::string huffman, unencoded, plainFrame, plainUnencoded, error;
  ASSERT_TRUE(m_compressor.compress(raw, 3, &huffman, &error)) << error;
  ASSERT_TRUE(rawLiterals.compress(raw, 3, &unencoded, &error)) << error;
  ASSERT_TRUE(plain.compress(raw, 3, &plainFrame, &error)) << error;
  ASSERT_TRUE(plainRawLiterals.compress(raw, 3, &plainUnencoded, &error)) << error;
  EXPECT_GT(unencoded.size(), huffman.size());
  EXPECT_GT(plainUnencoded.size(), plainFrame.size());
  std::string out(raw.size(), '\0');
  EXPECT_EQ(m_dictionary->decompress(ctx.get(), unencoded, out.data(), out.size()), raw.size());
  EXPECT_EQ(out, raw);
  EXPECT_EQ(ZSTD_decompressDCtx(ctx.get(), out.data(), out.size(), plainUnencoded.data(), plainUnencoded.size()),
            raw.size());
  EXPECT_EQ(out, raw);
}

TEST_F(BlockDictionaryTest, ManyThreadsDecodeAtOnce) {
  std::mt19937 rng(13);
  std::vector<std::string> raws;
  std::vector<std::string> frames;
  for (int i = 0; i < 64; ++i) {
    raws.push_back(textBlock(rng, 1000 + rng() % 3500));
    frames.push_back(compress(raws.back()));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      DCtx ctx(ZSTD_createDCtx());
      std::string out;
      for (int round = 0; round < 200; ++round) {
        const size_t i = static_cast<size_t>(t * 31 + round) % raws.size();
        out.assign(raws[i].size(), '\0');
        const size_t n = m_dictionary->decompress(ctx.get(), frames[i], out.data(), out.size());
        if (ZSTD_isError(n) || n != raws[i].size() || out != raws[i]) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(BlockDictionaryTest, AFrameLargerThanTheCallersSizeWritesNothingPastIt) {
  std::mt19937 rng(17);
  DCtx ctx(ZSTD_createDCtx());
  const std::string raw = textBlock(rng, 3000);
  const std::string frame = compress(raw);
  // As a damaged index would claim: fewer raw bytes than the frame holds.
  // Within the room the frame decodes whole behind the dictionary and its
  // true size comes back (zstd straight into the caller's buffer would stop
  // with an error instead), with nothing copied past the claim.
  for (const size_t claimed : {size_t{2000}, size_t{2999}}) {
    std::string out(claimed + 64, '#');
    const size_t n = m_dictionary->decompress(ctx.get(), frame, out.data(), claimed);
    ASSERT_FALSE(ZSTD_isError(n)) << claimed << ": " << ZSTD_getErrorName(n);
    EXPECT_EQ(n, raw.size()) << claimed;
    EXPECT_EQ(out.substr(claimed), std::string(64, '#')) << claimed;
  }
  // A large block whose claimed size is smaller still: zstd's own bound.
  const std::string large = textBlock(rng, 50'000);
  const std::string largeFrame = compress(large);
  std::string out(20'000 + 64, '#');
  const size_t n = m_dictionary->decompress(ctx.get(), largeFrame, out.data(), 20'000);
  EXPECT_TRUE(ZSTD_isError(n));
  EXPECT_EQ(out.substr(20'000), std::string(64, '#'));
}

TEST_F(BlockDictionaryTest, DamagedDictionaryBytesAreRefused) {
  EXPECT_EQ(DecompressionDictionary::load("not a dictionary"), nullptr);
  std::string truncated = m_bytes.substr(0, 40);
  EXPECT_EQ(DecompressionDictionary::load(truncated), nullptr);
}

}  // namespace
}  // namespace keyscope::engine
