# Compiles the demo workspace recipe into core: writes OUTPUT, a C++ source
# holding every resources/demo/*.hbase file of DIR, in file-name order, as
# keyscope::demo::detail::kRecipeFiles (src/demo/embedded_recipes.h). So
# keyscope-cli builds the demo without the source tree. Run at build time:
#   cmake -DDIR=resources/demo -DOUTPUT=demo_recipes.cc -P embed_demo_recipes.cmake
# Bytes are written as \xNN escapes, so no file content can end a literal.
file(GLOB names RELATIVE "${DIR}" "${DIR}/*.hbase")
list(SORT names)
if(NOT names)
  message(FATAL_ERROR "no demo recipes (*.hbase) in ${DIR}")
endif()
set(entries "")
foreach(name IN LISTS names)
  file(READ "${DIR}/${name}" hex HEX)
  string(LENGTH "${hex}" digits)
  math(EXPR size "${digits} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" escaped "${hex}")
  # 32 bytes (128 characters of escapes) per line.
  string(REGEX REPLACE "([^\n]{128})" "\\1\"\n     \"" escaped "${escaped}")
  string(APPEND entries "    {\"${name}\",\n     \"${escaped}\",\n     ${size}},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated from resources/demo/*.hbase by core/cmake/embed_demo_recipes.cmake: do not edit.
#include \"demo/embedded_recipes.h\"

namespace keyscope::demo::detail {

const EmbeddedFile kRecipeFiles[] = {
${entries}};
const size_t kRecipeFileCount = sizeof kRecipeFiles / sizeof kRecipeFiles[0];

}  // namespace keyscope::demo::detail
")
# Touch OUTPUT only when it changes, so an unchanged recipe recompiles nothing.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
