// MD5 digests for salt and hash-prefix key components, via Debian's libmd.
// MD5 is used because it is what HBase key designs traditionally use
// (MD5Hash, DigestUtils.md5), so users can reproduce a prefix anywhere.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace keyscope {

using Md5Digest = std::array<uint8_t, 16>;
Md5Digest md5(std::string_view data);

}  // namespace keyscope
