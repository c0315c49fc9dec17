// KEYSCOPE_VERSION is defined for this file alone by widgets/CMakeLists.txt,
// so a version bump rebuilds one file.
#include "version.h"

namespace keyscope {

QString keyscopeVersion() { return QStringLiteral(KEYSCOPE_VERSION); }

}  // namespace keyscope
