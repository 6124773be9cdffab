#include "io/image_io.hpp"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <string>

#include "io/decode/image_codecs.hpp"
#include "io/export.hpp"
#include "io/native_path.hpp"
#include "runtime/error.hpp"

namespace hs::io {

namespace {

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

bool writable(const QString& path) {
    const std::string suffix = suffixOf(path).toStdString();
    const auto& suffixes = writableSuffixes();
    return std::find(suffixes.begin(), suffixes.end(), suffix) != suffixes.end();
}

std::string unwritableReason(const QString& path) {
    return (path + ": cannot write '" + suffixOf(path) + "' images (writable: png, jpg, bmp, tif, webp)")
        .toStdString();
}

}  // namespace

std::uint64_t LoadOptions::defaultMaxDecodedBytes() {
    return defaultMaxImageBytes();
}

ImageRGBA8 loadImage(const QString& path, const LoadOptions& options) {
    if (path.isEmpty()) throw InputError("an empty path names no image file");
    // The file system's own bytes for the name (io/native_path.hpp: a name that is not UTF-8 is found too);
    // messages show the name as Qt has it.
    const std::string encoded = nativePath(path).native();
    try {
        return readImageFile(encoded, options.maxDecodedBytes);
    } catch (const InputError& error) {
        const std::string message = error.what();
        if (message.rfind(encoded + ": ", 0) == 0 && encoded != path.toStdString())
            throw InputError(path.toStdString() + message.substr(encoded.size()));
        throw;
    }
}

void checkImageOutput(const QString& path) {
    if (!writable(path)) throw UsageError(unwritableReason(path));
    checkReplaceable(path);
}

void saveImage(const QString& path, const ImageRGBA8& image) {
    if (image.pixels.size() != image.byteCount() || image.pixels.empty())
        throw InputError((path + ": no image to write").toStdString());
    saveImage(path, image.pixels.data(), image.width, image.height);
}

void saveImage(const QString& path, const std::uint8_t* pixels, int width, int height) {
    if (!writable(path)) throw InputError(unwritableReason(path));
    const std::string encoded =
        encodeImage(suffixOf(path).toStdString(), pixels, width, height, path.toStdString());
    writeFileAtomically(path,
                        QByteArray::fromRawData(encoded.data(), static_cast<qsizetype>(encoded.size())));
}

QStringList readableSuffixes() {
    QStringList suffixes;
    for (const auto& suffix : readableSuffixesList()) suffixes += QString::fromStdString(suffix);
    return suffixes;
}

QString openDialogFilter() {
    QStringList patterns;
    for (const auto& suffix : readableSuffixes()) patterns += "*." + suffix;
    return "Images (" + patterns.join(' ') + ")";
}

}  // namespace hs::io
