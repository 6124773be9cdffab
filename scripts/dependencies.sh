# Sourced by run.sh and test.sh: installs the Debian 12 packages HistoScope needs, only those missing.
# qt6-svg-dev is the real package behind the name libqt6svg6-dev (a virtual one that dpkg never lists as
# installed, so the check below would run apt-get on every call).
histoscope_packages=(
    # clang-15 is the compiler the scripts build with (histoscope_compiler below); g++ brings the C++ library it
    # uses, and builds the engine alone on machines without Clang (the GPU machine's).
    # lld-15 links Clang's builds (CMakeLists.txt), 3.5 times as fast as GNU ld.
    cmake ninja-build clang-15 lld-15 g++ ccache pkg-config
    qt6-base-dev libqt6opengl6-dev qt6-svg-dev qt6-image-formats-plugins libgl-dev
    ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd clinfo
    libqcustomplot-dev libqcustomplot2.1-qt6 libglew-dev
    libgtest-dev xvfb xauth
    # The OpenCL simulator the kernels are checked under (tests/oclgrind, ctest label oclgrind).
    oclgrind
    # The tests' independent references in Debian's python3: numpy, and Pillow to write and read PNG files.
    # OpenCV's results are recorded in tests/cli/data (python3-opencv would bring 181 packages, 119 MB).
    python3-numpy python3-pil
    # The Debian package (cpack -G DEB, scripts/package.sh): man pages from the programs' --help, and
    # dpkg-shlibdeps, which finds the package's dependencies in the binaries; CPack's DEB generator asks
    # `file` which files are binaries (without it the package_deb test fails on a minimal Debian 12).
    help2man dpkg-dev file
    # The image codecs io/decode decodes and encodes with, for the command line and the app alike (Qt's image
    # plugins remain for the tests, which write some fixtures with Qt's encoders).
    libpng-dev libjpeg62-turbo-dev libtiff-dev libwebp-dev libgif-dev zlib1g-dev
    # The archive (app/archive): every recorded run in one SQLite database; saved sessions read with nlohmann/json.
    libsqlite3-dev nlohmann-json3-dev
    # Installed without recommends, Qt may find no fonts at all: DejaVu gives the sans font of the widgets and
    # the fixed-pitch font of the kernel view (fontconfig's "monospace"), also under Xvfb.
    fontconfig fonts-dejavu-core
)

# The C++ compiler run.sh, test.sh and scripts/package.sh configure their builds with: Clang 15 builds the whole
# tree in about half the time GCC 12 takes (docs/ARCHITECTURE.md, "Build time"), and pocl-opencl-icd depends on
# clang-15 anyway. A build folder configured with another compiler is configured anew (CMake clears its cache)
# and built again, once.
histoscope_compiler=clang++-15

install_missing_packages() {
    local missing=()
    for package in "${histoscope_packages[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
