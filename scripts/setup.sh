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
