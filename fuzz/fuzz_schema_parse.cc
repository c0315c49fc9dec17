// libFuzzer target: KeySchema::parse on arbitrary text.
//
// Checks: parsing never crashes (ASan/UBSan); an error names a column within
// the text (or one past its end); a schema that parses has a canonical text
// that parses again to the same canonical text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "keyscope/key_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto schema = keyscope::KeySchema::parse(text);
  if (!schema) {
    const std::string message = schema.status().message();  // status() returns a copy
    const size_t at = message.find("column ");
    if (at == std::string::npos) {
      std::fprintf(stderr, "error without a column: %s\n", message.c_str());
      std::abort();
    }
    const unsigned long column = std::strtoul(message.c_str() + at + 7, nullptr, 10);
    if (column < 1 || column > size + 1) {
      std::fprintf(stderr, "column %lu outside text of %zu bytes: %s\n", column, size, message.c_str());
      std::abort();
    }
    return 0;
  }
  const std::string canonical = schema->toString();
  auto again = keyscope::KeySchema::parse(canonical);
  if (!again) {
    std::fprintf(stderr, "canonical text does not parse: '%s': %s\n", canonical.c_str(),
                 again.status().toString().c_str());
    std::abort();
  }
  if (again->toString() != canonical) {
    std::fprintf(stderr, "canonical text not stable: '%s' -> '%s'\n", canonical.c_str(), again->toString().c_str());
    std::abort();
  }
  if (again->size() != schema->size()) std::abort();
  return 0;
}
