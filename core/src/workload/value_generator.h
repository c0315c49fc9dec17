// Value generators for the schema design: where each key component's value
// comes from (docs/WORKLOAD.md "Generators").
//
//   now               the operation's simulated time, in ms
//   seq               the run's put number (0, 1, 2, ...)
//   client            the client's number (0 .. clients - 1)
//   step              the client's own put number (lock-step through sorted input)
//   uniform(LO, HI)   an integer, uniformly in [LO, HI]
//   zipf(N[, S])      a rank in [0, N), rank r with weight 1 / (r + 1)^S (S default 1.1);
//                     rank 0 is the most popular
//   random            64 random bits (a float: uniform in [0, 1))
//   choice(A, B, ...) one of the values, uniformly; a value is a number, a
//                     word, or a "quoted string" (for commas and spaces)
//
// A generator draws a Drawn; toComponentValue turns it into a value of the
// component's type: integers as they are, text components as the component's
// name plus the number zero-padded ("user0042"), bytes(N) as the number's
// low N bytes, a quadkey as the tile at zoom 16 with x and y from the low
// 32 bits. Immutable once parsed; draw() uses only the Rng it is given.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"
#include "workload/key_design.h"
#include "workload/workload_rng.h"

namespace keyscope::workload {

struct Drawn {
  enum class Kind : uint8_t { kNumber, kBits, kText } kind = Kind::kNumber;
  int64_t number = 0;   // kNumber
  uint64_t bits = 0;    // kBits
  std::string text;     // kText
};

class ValueGenerator {
 public:
  enum class Kind : uint8_t { kNow, kSeq, kClient, kStep, kUniform, kZipf, kRandom, kChoice };

  // Parses SPEC; errors say what is wrong in it ("zipf(N[, S]): N must be 1 to 10,000,000").
  static Result<ValueGenerator> parse(std::string_view spec);
  // The generator a component gets when none is named (docs/WORKLOAD.md).
  static ValueGenerator defaultFor(const KeyComponent& component, uint64_t entities);

  Kind kind() const { return m_kind; }
  Drawn draw(const KeyContext& ctx, Rng& rng) const;
  // The smallest and largest number it can draw in `plan` (number kinds only).
  std::optional<std::pair<int64_t, int64_t>> range(const RunPlan& plan) const;
  // choice: the values listed.
  const std::vector<std::string>& choices() const { return m_choices; }
  std::string text() const;  // canonical spec: "uniform(0, 99)"

 private:
  Kind m_kind = Kind::kSeq;
  int64_t m_low = 0;
  int64_t m_high = 0;
  double m_exponent = 1.1;
  std::shared_ptr<const ZipfTable> m_zipf;
  std::vector<std::string> m_choices;
};

// `drawn` as a value of `component` (whose schema the key is encoded with).
// `maxNumber` is the largest number the generator draws, for zero-padding.
// InvalidArgument says what does not fit, without naming the component.
Result<ComponentValue> toComponentValue(const KeyComponent& component, const Drawn& drawn, int64_t maxNumber);

}  // namespace keyscope::workload
