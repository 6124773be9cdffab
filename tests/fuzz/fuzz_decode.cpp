// Image decode -> RGBA8 on arbitrary bytes: an image of the size it declares, or one InputError line.
#include <unistd.h>

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "io/image_io.hpp"
#include "runtime/error.hpp"

namespace {

std::unique_ptr<QTemporaryDir> folder;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    // Image-format plugins load through the application. It lives until the process ends: libFuzzer leaves
    // through exit(), after the argc it was given is gone, so destroying it then would crash.
    new QCoreApplication(*argc, *argv);
    folder = std::make_unique<QTemporaryDir>();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString path = folder->filePath("input");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) std::abort();
    file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    file.close();
    try {
        // 16 MiB decoded at most: bombs are refused from the header, and the fuzzer's memory stays small.
        const hs::ImageRGBA8 image = hs::io::loadImage(path, hs::io::LoadOptions{16u << 20});
        if (image.width <= 0 || image.height <= 0 || image.pixels.size() != image.byteCount()) std::abort();
    } catch (const hs::InputError&) {
    }
    return 0;
}
