#include "md5_digest.h"

#include <sys/types.h>  // libmd's md5.h needs the BSD integer types first
#include <md5.h>

namespace keyscope {

Md5Digest md5(std::string_view data) {
  MD5_CTX ctx;
  MD5Init(&ctx);
  MD5Update(&ctx, reinterpret_cast<const uint8_t*>(data.data()), data.size());
  Md5Digest digest{};
  MD5Final(digest.data(), &ctx);
  return digest;
}

}  // namespace keyscope
