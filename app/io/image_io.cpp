#include "io/image_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "io/export.hpp"
#include "io/native_path.hpp"
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

const KnownFormat* writableFormatFor(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const auto& format : knownFormats()) {
        if (format.writable && format.suffixes.contains(suffix)) return &format;
    }
    return nullptr;
}

QString unwritableReason(const QString& path) {
    return path + ": cannot write '" + QFileInfo(path).suffix().toLower() +
           "' images (writable: png, jpg, bmp, tif, webp)";
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

// Why a path that cannot be opened cannot be read, from open()'s `error`: "no such file", or the system's
// words for a folder we may not enter, a symbolic link loop, a file used as a folder.
QString unreachableReason(int error) {
    if (error == ENOENT) return QStringLiteral("no such file");
    return QString::fromLocal8Bit(std::strerror(error));
}

// QImage's 32-bit ARGB32 / RGB32 pixels (0xAARRGGBB words; RGB32 has alpha 0xFF) to RGBA bytes, in place.
void reorderToRgba8(ImageRGBA8& image) {
    std::uint8_t* pixel = image.pixels.data();
    for (std::size_t i = 0; i < image.pixelCount(); ++i, pixel += kBytesPerPixel) {
        QRgb argb;
        std::memcpy(&argb, pixel, sizeof argb);
        pixel[0] = static_cast<std::uint8_t>(qRed(argb));
        pixel[1] = static_cast<std::uint8_t>(qGreen(argb));
        pixel[2] = static_cast<std::uint8_t>(qBlue(argb));
        pixel[3] = static_cast<std::uint8_t>(qAlpha(argb));
    }
}

// Converts in place where Qt can (every 32-bit format), so the host holds the decoded image and the result,
// not a third copy between them; `decoded` is released when this returns.
ImageRGBA8 toRgba8(QImage decoded) {
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
    decoded.convertTo(QImage::Format_RGBA8888);
    for (int y = 0; y < decoded.height(); ++y)
        std::memcpy(image.pixel(0, y), decoded.constScanLine(y), rowBytes);
    return image;
}

}  // namespace

std::uint64_t LoadOptions::defaultMaxDecodedBytes() {
    const QByteArray fromEnvironment = qgetenv("HISTOSCOPE_MAX_IMAGE_BYTES");
    if (fromEnvironment.isEmpty()) return std::uint64_t{1} << 30;
    return parseByteCount(QString::fromLocal8Bit(fromEnvironment));
}

ImageRGBA8 loadImage(const QString& path, const LoadOptions& options) {
    if (path.isEmpty()) throw InputError("an empty path names no image file");
    // Opened by the name's own bytes (io/native_path.hpp), so that a name that is not UTF-8 is found too, and
    // without waiting: a FIFO is refused by what it is, not waited on.
    const int fd = ::open(nativePath(path).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw inputError(path, unreachableReason(errno));
    QFile file;
    struct stat status;
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        ::close(fd);
        throw inputError(path, "not a regular file");
    }
    if (status.st_size == 0) {
        ::close(fd);
        throw inputError(path, "empty file");
    }
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        throw inputError(path, "cannot open: " + file.errorString());
    }
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
    // What the file declares is judged from its bytes before the decoder reads even the header: libpng
    // allocates every chunk before IDAT while reporting the size. (QFile unmaps when it goes, on a throw.)
    const uchar* const bytes = file.map(0, file.size());
    const std::size_t byteCount = bytes ? static_cast<std::size_t>(file.size()) : 0;
    const std::string_view formatName = format->qtName;
    if (bytes && formatName == "png") {
        if (const auto problem = pngChunkProblem(bytes, byteCount))
            throw inputError(path, QString::fromStdString(*problem));
    }
    const QSize size = reader.size();
    // Qt reports no size for a header declaring a width or height of 0; the header itself says so.
    const auto declared = bytes ? declaredSize(formatName, bytes, byteCount) : std::nullopt;
    const QSize shown =
        declared ? QSize(static_cast<int>(declared->width), static_cast<int>(declared->height)) : size;
    if (shown.isValid() && shown.isEmpty())
        throw inputError(path, QString("zero-sized image (%1x%2)").arg(shown.width()).arg(shown.height()));
    // Qt's GIF decoder allocates the logical screen, which may be far larger than the frame it reports.
    const auto screen = bytes && formatName == "gif" ? gifLogicalScreen(bytes, byteCount) : std::nullopt;
    refuseIfTooLarge(path,
                     std::max<std::uint64_t>(size.isValid() ? size.width() : 0, screen ? screen->width : 0),
                     std::max<std::uint64_t>(size.isValid() ? size.height() : 0, screen ? screen->height : 0),
                     options.maxDecodedBytes);
    if (bytes) {
        if (const auto incomplete = incompleteReason(formatName, bytes, byteCount))
            throw inputError(path, QString::fromStdString(*incomplete));
        if (const auto problem = formatName == "png" ? pngPaletteProblem(bytes, byteCount) : std::nullopt)
            throw inputError(path, QString::fromStdString(*problem));
        file.unmap(const_cast<uchar*>(bytes));
    }

    // Qt's handlers decode into the image they are given when it has the size and format they would allocate
    // (QImageIOHandler::allocateImage). For the 32-bit formats that image can be the result's own buffer,
    // which then needs only its bytes reordered: the host holds the pixels once instead of twice.
    ImageRGBA8 direct;
    QImage decoded;
    const QImage::Format announced = reader.imageFormat();
    if (size.isValid() && (announced == QImage::Format_ARGB32 || announced == QImage::Format_RGB32)) {
        direct = ImageRGBA8(size.width(), size.height());
        decoded = QImage(direct.pixels.data(), size.width(), size.height(), size.width() * 4, announced);
    }
    if (!reader.read(&decoded) || decoded.isNull()) {
        const QString why =
            reader.error() == QImageReader::InvalidDataError
                ? QString("corrupt or truncated %1 data").arg(QString(format->qtName).toUpper())
                : QString("cannot decode as %1").arg(QString(format->qtName).toUpper());
        throw inputError(path, why + " (" + reader.errorString() + ")");
    }
    if (decoded.width() <= 0 || decoded.height() <= 0) throw inputError(path, "zero-sized image");
    refuseIfTooLarge(path, static_cast<std::uint64_t>(decoded.width()),
                     static_cast<std::uint64_t>(decoded.height()), options.maxDecodedBytes);
    if (!direct.pixels.empty() && decoded.constBits() == direct.pixels.data()) {
        reorderToRgba8(direct);
        return direct;
    }
    direct = {};  // the handler allocated its own image (or a transform replaced it)
    return toRgba8(std::move(decoded));
}

void checkImageOutput(const QString& path) {
    if (writableFormatFor(path) == nullptr) throw UsageError(unwritableReason(path).toStdString());
    checkReplaceable(path);
}

void saveImage(const QString& path, const ImageRGBA8& image) {
    if (image.pixels.size() != image.byteCount()) throw inputError(path, "no image to write");
    saveImage(path, image.pixels.data(), image.width, image.height);
}

void saveImage(const QString& path, const std::uint8_t* pixels, int width, int height) {
    if (pixels == nullptr || width <= 0 || height <= 0) throw inputError(path, "no image to write");
    saveImage(path, QImage(pixels, width, height, width * static_cast<int>(kBytesPerPixel),
                           QImage::Format_RGBA8888));
}

void saveImage(const QString& path, const QImage& image) {
    if (image.isNull()) throw inputError(path, "no image to write");
    const KnownFormat* writable = writableFormatFor(path);
    if (writable == nullptr) throw InputError(unwritableReason(path).toStdString());
    QByteArray encoded;
    QBuffer buffer(&encoded);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, writable->qtName);
    writer.setQuality(writable->writeQuality);
    if (!writer.write(image)) throw inputError(path, "cannot encode: " + writer.errorString());
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
