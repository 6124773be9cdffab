#include "io/image_io.hpp"

#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "io/export.hpp"
#include "io/stream_check.hpp"
#include "runtime/error.hpp"

namespace hs::io {

namespace {

constexpr std::uint64_t kBytesPerPixel = 4;
constexpr std::uint64_t kMiB = 1024 * 1024;

struct KnownFormat {
    const char* qtName;  // QImageReader::format() after content detection
    QStringList suffixes;
    bool writable;
    // Exports are for analysis: WebP at 100 is lossless, JPEG (necessarily lossy) stays close; -1: Qt's
    // default.
    int writeQuality = -1;
};

// The formats we promise; Qt's plugins may read more (XPM, SVG, ...), which we deliberately refuse.
const std::vector<KnownFormat>& knownFormats() {
    static const std::vector<KnownFormat> formats{
        {"png", {"png"}, true},  {"jpeg", {"jpg", "jpeg"}, true, 95}, {"bmp", {"bmp"}, true},
        {"gif", {"gif"}, false}, {"tiff", {"tif", "tiff"}, true},     {"webp", {"webp"}, true, 100},
    };
    return formats;
}

bool qtSupports(const QList<QByteArray>& supported, const KnownFormat& format) {
    return std::any_of(format.suffixes.begin(), format.suffixes.end(),
                       [&](const QString& suffix) { return supported.contains(suffix.toLatin1()); }) ||
           supported.contains(QByteArray(format.qtName));
}

// Qt's plugins answer to several keys ("jpg" and "jpeg"), and content detection may report any of them.
const KnownFormat* formatNamed(const QByteArray& qtName) {
    const QString name = QString::fromLatin1(qtName).toLower();
    for (const auto& format : knownFormats()) {
        if (name == format.qtName || format.suffixes.contains(name)) return &format;
    }
    return nullptr;
}

InputError inputError(const QString& path, const QString& reason) {
    return InputError((path + ": " + reason).toStdString());
}

std::uint64_t parseByteCount(const QString& text) {
    // Plain bytes, or a K/M/G suffix in powers of 1024.
    QString digits = text.trimmed().toUpper();
    std::uint64_t unit = 1;
    if (digits.endsWith('B')) digits.chop(1);
    if (digits.endsWith('K')) unit = 1024;
    if (digits.endsWith('M')) unit = kMiB;
    if (digits.endsWith('G')) unit = kMiB * 1024;
    if (unit != 1) digits.chop(1);
    bool ok = false;
    const qulonglong value = digits.toULongLong(&ok);
    if (!ok || value == 0 || value > UINT64_MAX / unit)
        throw UsageError("HISTOSCOPE_MAX_IMAGE_BYTES: '" + text.toStdString() +
                         "' is not a positive byte count (such as 1073741824 or 512M)");
    return value * unit;
}

QString byteText(std::uint64_t bytes) {
    return bytes >= kMiB ? QString("%1 MiB").arg(static_cast<double>(bytes) / kMiB, 0, 'f', 1)
                         : QString("%1 bytes").arg(bytes);
}

void refuseIfTooLarge(const QString& path, std::uint64_t width, std::uint64_t height, std::uint64_t limit) {
    const std::uint64_t bytes = width * height * kBytesPerPixel;
    if (bytes > limit)
        throw inputError(path, QString("image of %1x%2 pixels needs %3 decoded, over the limit of %4 "
                                       "(HISTOSCOPE_MAX_IMAGE_BYTES)")
                                   .arg(width)
                                   .arg(height)
                                   .arg(byteText(bytes), byteText(limit)));
}

// Qt's own limit applies to its intermediate image, which is 8 bytes per pixel for 16-bit files.
int qtAllocationLimitMiB(std::uint64_t maxDecodedBytes) {
    const std::uint64_t doubled = maxDecodedBytes > UINT64_MAX / 2 ? UINT64_MAX - kMiB : maxDecodedBytes * 2;
    const std::uint64_t mib = (doubled + kMiB - 1) / kMiB;
    return static_cast<int>(std::clamp<std::uint64_t>(mib, 1, INT_MAX));
}

bool hasWideChannels(const QImage& image) {
    return image.format() == QImage::Format_Grayscale16 || image.depth() >= 64;
}

ImageRGBA8 toRgba8(const QImage& decoded) {
    ImageRGBA8 image(decoded.width(), decoded.height());
    const std::size_t rowBytes = static_cast<std::size_t>(decoded.width()) * kBytesPerPixel;
    if (hasWideChannels(decoded)) {
        // Rounded to nearest ourselves (v / 257 never lands on .5), not left to Qt's conversion.
        const QImage wide = decoded.convertToFormat(QImage::Format_RGBA64);
        for (int y = 0; y < wide.height(); ++y) {
            const auto* source = reinterpret_cast<const quint16*>(wide.constScanLine(y));
            std::uint8_t* target = image.pixel(0, y);
            for (std::size_t i = 0; i < rowBytes; ++i)
                target[i] = static_cast<std::uint8_t>((source[i] + 128u) / 257u);
        }
        return image;
    }
    const QImage narrow = decoded.convertToFormat(QImage::Format_RGBA8888);
    for (int y = 0; y < narrow.height(); ++y)
        std::memcpy(image.pixel(0, y), narrow.constScanLine(y), rowBytes);
    return image;
}

}  // namespace

std::uint64_t LoadOptions::defaultMaxDecodedBytes() {
    const QByteArray fromEnvironment = qgetenv("HISTOSCOPE_MAX_IMAGE_BYTES");
    if (fromEnvironment.isEmpty()) return std::uint64_t{1} << 30;
    return parseByteCount(QString::fromLocal8Bit(fromEnvironment));
}

ImageRGBA8 loadImage(const QString& path, const LoadOptions& options) {
    const QFileInfo info(path);
    if (!info.exists()) throw inputError(path, "no such file");
    if (!info.isFile()) throw inputError(path, "not a regular file");
    if (info.size() == 0) throw inputError(path, "empty file");

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) throw inputError(path, "cannot open: " + file.errorString());
    QImageReader reader(&file);
    reader.setDecideFormatFromContent(true);
    reader.setAutoTransform(true);
    reader.setAllocationLimit(qtAllocationLimitMiB(options.maxDecodedBytes));

    const QByteArray detected = reader.format();
    const KnownFormat* format = formatNamed(detected);
    if (format == nullptr) {
        const QString what = detected.isEmpty() ? QString("not an image file") : "a " + detected + " image";
        throw inputError(path, what + " (readable formats: PNG, JPEG, BMP, GIF, TIFF, WebP)");
    }
    const QSize size = reader.size();
    if (size.isValid()) {
        if (size.isEmpty())
            throw inputError(path, QString("zero-sized image (%1x%2)").arg(size.width()).arg(size.height()));
        refuseIfTooLarge(path, static_cast<std::uint64_t>(size.width()),
                         static_cast<std::uint64_t>(size.height()), options.maxDecodedBytes);
    }
    if (const uchar* bytes = file.map(0, file.size())) {
        const auto incomplete =
            incompleteReason(format->qtName, bytes, static_cast<std::size_t>(file.size()));
        file.unmap(const_cast<uchar*>(bytes));
        if (incomplete) throw inputError(path, QString::fromStdString(*incomplete));
    }

    const QImage decoded = reader.read();
    if (decoded.isNull()) {
        const QString why =
            reader.error() == QImageReader::InvalidDataError
                ? QString("corrupt or truncated %1 data").arg(QString(format->qtName).toUpper())
                : QString("cannot decode as %1").arg(QString(format->qtName).toUpper());
        throw inputError(path, why + " (" + reader.errorString() + ")");
    }
    if (decoded.width() <= 0 || decoded.height() <= 0) throw inputError(path, "zero-sized image");
    refuseIfTooLarge(path, static_cast<std::uint64_t>(decoded.width()),
                     static_cast<std::uint64_t>(decoded.height()), options.maxDecodedBytes);
    return toRgba8(decoded);
}

void saveImage(const QString& path, const ImageRGBA8& image) {
    if (image.width <= 0 || image.height <= 0 || image.pixels.size() != image.byteCount())
        throw inputError(path, "no image to write");
    const QString suffix = QFileInfo(path).suffix().toLower();
    const auto writable = std::find_if(
        knownFormats().begin(), knownFormats().end(),
        [&](const KnownFormat& format) { return format.writable && format.suffixes.contains(suffix); });
    if (writable == knownFormats().end())
        throw inputError(path, "cannot write '" + suffix + "' images (writable: png, jpg, bmp, tif, webp)");

    const QImage view(image.pixels.data(), image.width, image.height,
                      image.width * static_cast<int>(kBytesPerPixel), QImage::Format_RGBA8888);
    QByteArray encoded;
    QBuffer buffer(&encoded);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, writable->qtName);
    writer.setQuality(writable->writeQuality);
    if (!writer.write(view)) throw inputError(path, "cannot encode: " + writer.errorString());
    writeFileAtomically(path, encoded);
}

QStringList readableSuffixes() {
    const QList<QByteArray> supported = QImageReader::supportedImageFormats();
    QStringList suffixes;
    for (const auto& format : knownFormats()) {
        if (qtSupports(supported, format)) suffixes += format.suffixes;
    }
    return suffixes;
}

QString openDialogFilter() {
    QStringList patterns;
    for (const auto& suffix : readableSuffixes()) patterns += "*." + suffix;
    return "Images (" + patterns.join(' ') + ")";
}

}  // namespace hs::io
