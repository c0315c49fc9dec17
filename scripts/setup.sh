# Sourced by scripts/run and scripts/test: installs whatever Debian packages are
# missing (and nothing else), then offers build helpers. Idempotent and quiet
# when everything is already there.

KEYSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Everything Keyscope needs to build, test and run, by Debian 12 package name.
KEYSCOPE_PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3
  qt6-base-dev libqcustomplot-dev libgl-dev
  libsqlite3-dev libzstd-dev libxxhash-dev libmd-dev nlohmann-json3-dev libedit-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth fonts-dejavu-core
)

keyscope_missing_packages() {
  local pkg missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  echo "${missing[@]}"
}

keyscope_install_packages() {
  local missing
  missing=$(keyscope_missing_packages "$@")
  [ -z "$missing" ] && return 0
  echo "Installing missing packages: $missing"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  # shellcheck disable=SC2086
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

keyscope_jobs() { nproc 2>/dev/null || echo 2; }

# keyscope_build DIR BUILD_TYPE [extra cmake args...]
keyscope_build() {
  local dir="$1" type="$2"; shift 2
  cmake -S "$KEYSCOPE_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
  cmake --build "$dir" --parallel "$(keyscope_jobs)"
}

# keyscope_test_config VARIANT: the test build of VARIANT (plain, sanitize or
# tsan), for scripts/test and scripts/crash-loop alike, so a build directory
# is always configured one way (two ways would rebuild it whole at each
# switch). Sets test_dir and test_cmake_args, for keyscope_build with
# RelWithDebInfo.
keyscope_test_config() {
  # Tests need line numbers in backtraces, not a debugger's full view of
  # every variable: -g1 (line tables) takes a fifth off the compile time.
  local flags="-O2 -g1 -DNDEBUG" extra=()
  case "$1" in
    plain) test_dir="$KEYSCOPE_ROOT/build/test" ;;
    sanitize)
      # -O1, as the sanitizers' own documentation advises: with -g1,
      # compiling takes about half as long as at -O2 -g, the tests ~10%
      # longer. The benchmarks are built (and checked) by the plain build.
      test_dir="$KEYSCOPE_ROOT/build/asan"
      flags="-O1 -g1 -DNDEBUG"
      extra=("-DKEYSCOPE_SANITIZE=address;undefined" -DKEYSCOPE_BUILD_BENCH=OFF)
      ;;
    tsan)
      # Qt is not built with TSan (its own threads would be reported), so the
      # TSan build leaves the GUI out.
      test_dir="$KEYSCOPE_ROOT/build/tsan"
      flags="-O1 -g1 -DNDEBUG"
      extra=("-DKEYSCOPE_SANITIZE=thread" -DKEYSCOPE_BUILD_GUI=OFF -DKEYSCOPE_BUILD_BENCH=OFF)
      ;;
    *) echo "keyscope_test_config: unknown variant '$1'" >&2; return 2 ;;
  esac
  test_cmake_args=(-DKEYSCOPE_BUILD_TESTS=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" "${extra[@]}")
}
