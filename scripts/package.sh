#!/usr/bin/env bash
# Makes the Debian package histoscope_<version>_amd64.deb (in the build folder) and shows its fields and files,
# installing missing Debian packages first. It builds in a folder of its own without the tests
# (HISTOSCOPE_BUILD_DIR, default build-package), where the whole build is what the package installs: CPack
# packages what is built and builds nothing itself.
# Install it with: sudo apt install ./build-package/histoscope_<version>_amd64.deb
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
source scripts/dependencies.sh
install_missing_packages

build=${HISTOSCOPE_BUILD_DIR:-build-package}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_BUILD_TESTS=OFF \
    -DCMAKE_CXX_COMPILER="$histoscope_compiler"
cmake --build "$build" -j"$(nproc)"
(cd "$build" && cpack -G DEB)
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
deb=$build/histoscope_${version}_$(dpkg --print-architecture).deb
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"
echo "made $deb"
