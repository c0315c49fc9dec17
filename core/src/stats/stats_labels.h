// Labels for the statistics' key buckets: a row key decoded by the table's
// key schema ("salt=7 › user=alice › ts=2026-11-20 10:00:00"), or its bytes
// escaped as HBase's Bytes.toStringBinary does when there is no schema.
// A key that does not fit the schema shows what decodes, then the rest of
// its bytes escaped; nothing here fails.
//
// Timestamps: a revts component, and an integer component whose name says
// time ("ts", "*_ts", "*time*", "*date*") holding milliseconds or seconds
// between the years 2000 and 2100, are shown as UTC date and time.
//
// Threads: pure functions; a KeyLabeler is an immutable value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "keyscope/bytes.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope::stats {

// The table's schema: nullopt for empty text; InvalidArgument (naming the
// table's schema) when the text does not parse.
Result<std::optional<KeySchema>> parseTableSchema(std::string_view text);

class KeyLabeler {
 public:
  explicit KeyLabeler(std::optional<KeySchema> schema) : m_schema(std::move(schema)) {}

  const std::optional<KeySchema>& schema() const { return m_schema; }

  // The row's label, from component `firstComponent` on (the components
  // before it are skipped: foldSalt labels leave out the salt).
  std::string row(BytesView row, size_t firstComponent = 0) const;
  // One component's value as text, without its name.
  std::string value(size_t component, const ComponentValue& value) const;

 private:
  std::optional<KeySchema> m_schema;
};

// "2026-11-20 10:00:00" (UTC), with ".123" when the milliseconds are not zero.
std::string formatUtcMillis(int64_t millis);

}  // namespace keyscope::stats
