// The transforms behind the domain, quadkey and md5 component types: host
// label reversal, Z-order tile packing, and md5 digest prefixes. Pure; thread-safe.
#include <algorithm>
#include <vector>

#include "keyscope/key_codec.h"
#include "md5_digest.h"

namespace keyscope {

namespace {
constexpr uint32_t kMaxQuadkeyZoom = 29;  // 58 digit bits + 6 zoom bits fill a u64
}  // namespace

Bytes md5Prefix(const KeyComponent& component, BytesView input) {
  Md5Digest digest = md5(input);
  size_t n = std::min<size_t>(component.width ? component.width : digest.size(), digest.size());
  return Bytes(reinterpret_cast<const char*>(digest.data()), n);
}

std::string reverseDomain(std::string_view host) {
  const size_t hostEnd = std::min(host.find_first_of("/:"), host.size());
  const std::string_view labels = host.substr(0, hostEnd);
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t dot = labels.find('.', start);
    parts.push_back(labels.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  std::string out;
  out.reserve(host.size());
  for (size_t i = parts.size(); i-- > 0;) {
    out.append(parts[i]);
    if (i) out.push_back('.');
  }
  out.append(host.substr(hostEnd));
  return out;
}

uint64_t packQuadkey(const Tile& tile) {
  uint64_t digits = 0;
  for (uint32_t level = 1; level <= tile.zoom; ++level) {
    uint32_t shift = tile.zoom - level;
    uint64_t digit = (((tile.y >> shift) & 1U) << 1) | ((tile.x >> shift) & 1U);
    digits |= digit << (64 - 2 * level);
  }
  return digits | tile.zoom;
}

std::optional<Tile> unpackQuadkey(uint64_t packed) {
  Tile tile;
  tile.zoom = static_cast<uint32_t>(packed & 0x3f);
  if (tile.zoom > kMaxQuadkeyZoom) return std::nullopt;
  uint64_t digits = packed & ~uint64_t{0x3f};
  // Digits beyond the zoom level must be zero, or the key is not a tile.
  uint64_t usedMask = tile.zoom == 0 ? 0 : ~uint64_t{0} << (64 - 2 * tile.zoom);
  if (digits & ~usedMask) return std::nullopt;
  for (uint32_t level = 1; level <= tile.zoom; ++level) {
    auto digit = static_cast<uint32_t>((digits >> (64 - 2 * level)) & 3U);
    tile.x = (tile.x << 1) | (digit & 1U);
    tile.y = (tile.y << 1) | (digit >> 1);
  }
  return tile;
}

std::string quadkeyDigits(const Tile& tile) {
  std::string out;
  for (uint32_t level = 1; level <= tile.zoom; ++level) {
    uint32_t shift = tile.zoom - level;
    out.push_back(static_cast<char>('0' + ((((tile.y >> shift) & 1U) << 1) | ((tile.x >> shift) & 1U))));
  }
  return out;
}

}  // namespace keyscope
