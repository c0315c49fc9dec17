// The Keyscope version, as set by project() in the top-level CMakeLists.txt.
// Thread-safe.
#pragma once

#include <QString>

namespace keyscope {

QString keyscopeVersion();  // "0.1.0"

}  // namespace keyscope
