// The key-design advisor: reads a schema, and optionally sample keys in the
// order they were written, and warns about designs that hurt in production.
//
// Warnings (each names the guilty component where there is one):
//   monotonic-lead    a timestamp or sequence leads the key: every write lands
//                     on the last region (or, reversed, the first)
//   byte-order        byte order differs from value order (see key_order.h)
//   number-as-string  a number stored as decimal text: longer than its 8-byte
//                     binary form, and "10" sorts before "9"
//   oversized         a component or the whole key is long; every cell repeats it
//   salt-fan-out      a salted or hashed lead: range scans become N scans, or
//                     are impossible across the hashed field
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"

namespace keyscope {

enum class AdviceSeverity : uint8_t { kInfo, kWarning };

struct Advice {
  std::string code;                  // stable identifier, e.g. "monotonic-lead"
  AdviceSeverity severity = AdviceSeverity::kWarning;
  std::optional<size_t> component;  // the guilty component, when there is one
  std::string message;               // one or two sentences for people
};

// `samples` are encoded keys in write order (may be empty).
std::vector<Advice> adviseKeyDesign(const KeySchema& schema, std::span<const Bytes> samples = {});

// Human-readable explanation: the byte layout of each component, whether byte
// order equals value order (with the counterexample), and the advice. This is
// what `keyscope-cli key explain` prints.
std::string explainKeySchema(const KeySchema& schema, std::span<const Bytes> samples = {});

}  // namespace keyscope
