// Byte renderings for CSV fields (see byte_format.h).
#include "keyscope/byte_format.h"

#include <array>
#include <cctype>

namespace keyscope {

namespace {

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> base64Values() {
  std::array<int8_t, 256> values{};
  for (auto& v : values) v = -1;
  for (int i = 0; i < 64; ++i) values[static_cast<uint8_t>(kBase64Alphabet[i])] = static_cast<int8_t>(i);
  return values;
}
constexpr std::array<int8_t, 256> kBase64Values = base64Values();

std::string describeChar(char c) { return "'" + toStringBinary(std::string_view(&c, 1)) + "'"; }

}  // namespace

const char* byteFormatName(ByteFormat format) {
  switch (format) {
    case ByteFormat::kEscaped: return "escaped";
    case ByteFormat::kHex: return "hex";
    case ByteFormat::kBase64: return "base64";
    case ByteFormat::kRaw: return "raw";
  }
  return "?";
}

std::optional<ByteFormat> byteFormatFromName(std::string_view name) {
  for (ByteFormat f : {ByteFormat::kEscaped, ByteFormat::kHex, ByteFormat::kBase64, ByteFormat::kRaw}) {
    if (name == byteFormatName(f)) return f;
  }
  return std::nullopt;
}

std::string formatBytes(BytesView bytes, ByteFormat format) {
  switch (format) {
    case ByteFormat::kEscaped: return toStringBinary(bytes);
    case ByteFormat::kHex: return toHex(bytes);
    case ByteFormat::kBase64: return toBase64(bytes);
    case ByteFormat::kRaw: return std::string(bytes);
  }
  return std::string(bytes);
}

Result<Bytes> parseBytes(std::string_view text, ByteFormat format) {
  size_t at = 0;
  switch (format) {
    case ByteFormat::kEscaped: return fromStringBinary(text);
    case ByteFormat::kRaw: return Bytes(text);
    case ByteFormat::kHex: {
      std::optional<Bytes> bytes = fromHex(text, &at);
      if (bytes) return std::move(*bytes);
      if (at < text.size() && std::isxdigit(static_cast<unsigned char>(text[at])) != 0)
        return Status::invalidArgument("odd number of hex digits");
      return Status::invalidArgument("bad hex digit " + describeChar(text[at]) + " at character " + std::to_string(at + 1));
    }
    case ByteFormat::kBase64: {
      std::optional<Bytes> bytes = fromBase64(text, &at);
      if (bytes) return std::move(*bytes);
      if (at >= text.size()) return Status::invalidArgument("base64 text of " + std::to_string(text.size()) +
                                                            " characters: the length must be a multiple of 4");
      return Status::invalidArgument("bad base64 character " + describeChar(text[at]) + " at character " +
                                     std::to_string(at + 1));
    }
  }
  return Status::invalidArgument("unknown byte format");
}

std::string toBase64(BytesView bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = (uint32_t{byteAt(bytes, i)} << 16) | (uint32_t{byteAt(bytes, i + 1)} << 8) | byteAt(bytes, i + 2);
    out.push_back(kBase64Alphabet[(n >> 18) & 63]);
    out.push_back(kBase64Alphabet[(n >> 12) & 63]);
    out.push_back(kBase64Alphabet[(n >> 6) & 63]);
    out.push_back(kBase64Alphabet[n & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t n = uint32_t{byteAt(bytes, i)} << 16;
    if (rest == 2) n |= uint32_t{byteAt(bytes, i + 1)} << 8;
    out.push_back(kBase64Alphabet[(n >> 18) & 63]);
    out.push_back(kBase64Alphabet[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::optional<Bytes> fromBase64(std::string_view text, size_t* errorAt) {
  auto fail = [&](size_t at) -> std::optional<Bytes> {
    if (errorAt) *errorAt = at;
    return std::nullopt;
  };
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') ++padding;
  if (text.size() >= 2 && text[text.size() - 2] == '=') ++padding;
  const size_t data = text.size() - padding;
  for (size_t i = 0; i < data; ++i) {
    if (kBase64Values[static_cast<uint8_t>(text[i])] < 0) return fail(i);
  }
  if (text.size() % 4 != 0) return fail(text.size());
  Bytes out;
  out.reserve(text.size() / 4 * 3);
  uint32_t bits = 0;
  int count = 0;
  for (size_t i = 0; i < data; ++i) {
    bits = (bits << 6) | static_cast<uint32_t>(kBase64Values[static_cast<uint8_t>(text[i])]);
    if (++count == 4) {
      out.push_back(static_cast<char>((bits >> 16) & 0xff));
      out.push_back(static_cast<char>((bits >> 8) & 0xff));
      out.push_back(static_cast<char>(bits & 0xff));
      bits = 0;
      count = 0;
    }
  }
  if (count == 3) {  // one '=': two bytes
    out.push_back(static_cast<char>((bits >> 10) & 0xff));
    out.push_back(static_cast<char>((bits >> 2) & 0xff));
  } else if (count == 2) {  // "==": one byte
    out.push_back(static_cast<char>((bits >> 4) & 0xff));
  }
  return out;
}

}  // namespace keyscope
