#include "keyscope/status.h"

namespace keyscope {

const char* codeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "OK";
    case Status::Code::kNotFound: return "NotFound";
    case Status::Code::kInvalidArgument: return "InvalidArgument";
    case Status::Code::kCorruption: return "Corruption";
    case Status::Code::kIOError: return "IOError";
    case Status::Code::kCancelled: return "Cancelled";
    case Status::Code::kBusy: return "Busy";
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (isOk()) return "OK";
  return std::string(codeName(m_code)) + ": " + m_message;
}

}  // namespace keyscope
