#include "io/decode/image_codecs.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "engine/runtime/error.hpp"
#include "io/decode/decoders.hpp"

namespace hs::io {

namespace decode {

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

std::string byteText(std::uint64_t bytes) {
    char text[64];
    if (bytes >= kMiB)
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / kMiB);
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

}  // namespace

void checkSize(std::uint64_t width, std::uint64_t height, std::uint64_t limit) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    if (width == 0 || height == 0) refuse("zero-sized image (" + size + ")");
    // Either side below 2^32 here (every format's header says so), so the product cannot overflow.
    const std::uint64_t bytes = width * height * 4;
    if (bytes > limit)
        refuse("image of " + size + " pixels needs " + byteText(bytes) + " decoded, over the limit of " +
               byteText(limit) + " (HISTOSCOPE_MAX_IMAGE_BYTES)");
    if (width > INT_MAX || height > INT_MAX) refuse("image of " + size + " pixels: a side beyond 2^31 - 1");
}

ImageRGBA8 allocate(std::uint64_t width, std::uint64_t height, std::uint64_t limit) {
    checkSize(width, height, limit);
    return ImageRGBA8(static_cast<int>(width), static_cast<int>(height));
}

ImageRGBA8 applyOrientation(ImageRGBA8 image, int orientation) {
    if (orientation < 2 || orientation > 8) return image;
    const int w = image.width;
    const int h = image.height;
    const bool swaps = orientation >= 5;
    ImageRGBA8 shown(swaps ? h : w, swaps ? w : h);
    for (int y = 0; y < shown.height; ++y) {
        for (int x = 0; x < shown.width; ++x) {
            // Where the stored pixel shown at (x, y) is (TIFF 6.0, Orientation; EXIF 2.3, same values).
            int sx = x;
            int sy = y;
            switch (orientation) {
                case 2:
                    sx = w - 1 - x;
                    break;
                case 3:
                    sx = w - 1 - x, sy = h - 1 - y;
                    break;
                case 4:
                    sy = h - 1 - y;
                    break;
                case 5:
                    sx = y, sy = x;
                    break;
                case 6:
                    sx = y, sy = h - 1 - x;
                    break;
                case 7:
                    sx = w - 1 - y, sy = h - 1 - x;
                    break;
                default:
                    sx = w - 1 - y, sy = x;
                    break;  // 8
            }
            std::memcpy(shown.pixel(x, y), image.pixel(sx, sy), 4);
        }
    }
    return shown;
}

}  // namespace decode

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

std::uint64_t parseByteCount(const std::string& text) {
    // Plain bytes, or a K/M/G suffix in powers of 1024 (an optional B after it).
    std::string digits;
    for (const char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) digits += static_cast<char>(std::toupper(c));
    std::uint64_t unit = 1;
    if (!digits.empty() && digits.back() == 'B') digits.pop_back();
    if (!digits.empty()) {
        const char suffix = digits.back();
        unit = suffix == 'K' ? 1024 : suffix == 'M' ? kMiB : suffix == 'G' ? kMiB * 1024 : 1;
        if (unit != 1) digits.pop_back();
    }
    const bool allDigits =
        !digits.empty() && digits.size() <= 20 && digits.find_first_not_of("0123456789") == std::string::npos;
    errno = 0;
    const unsigned long long value = allDigits ? std::strtoull(digits.c_str(), nullptr, 10) : 0;
    if (!allDigits || errno != 0 || value == 0 || value > UINT64_MAX / unit)
        throw UsageError("HISTOSCOPE_MAX_IMAGE_BYTES: '" + text +
                         "' is not a positive byte count (such as 1073741824 or 512M)");
    return value * unit;
}

bool startsWith(const std::uint8_t* data, std::size_t size, std::string_view prefix, std::size_t at = 0) {
    return size >= at + prefix.size() && std::memcmp(data + at, prefix.data(), prefix.size()) == 0;
}

// A file mapped read-only for as long as it is decoded: the decoders read the bytes where they are, so the
// host holds the file's pages (which the kernel can drop) and the result, never a heap copy of the file.
// The price: a file that another process truncates while it is decoded ends this one with SIGBUS.
class MappedFile {
  public:
    MappedFile(const std::string& path) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a regular file.
        descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (descriptor_ < 0) fail(path, errno == ENOENT ? "no such file" : std::strerror(errno));
        struct stat status {};
        if (::fstat(descriptor_, &status) != 0) fail(path, std::strerror(errno));
        if (!S_ISREG(status.st_mode)) fail(path, "not a regular file");
        if (status.st_size == 0) fail(path, "empty file");
        size_ = static_cast<std::size_t>(status.st_size);
        void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, descriptor_, 0);
        if (mapped == MAP_FAILED) fail(path, std::string("cannot read: ") + std::strerror(errno));
        data_ = static_cast<const std::uint8_t*>(mapped);
    }
    ~MappedFile() {
        if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
        if (descriptor_ >= 0) ::close(descriptor_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }

  private:
    [[noreturn]] void fail(const std::string& path, const std::string& reason) {
        if (descriptor_ >= 0) ::close(descriptor_);
        descriptor_ = -1;
        throw InputError(path + ": " + reason);
    }

    int descriptor_ = -1;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace

std::uint64_t defaultMaxImageBytes() {
    const char* fromEnvironment = std::getenv("HISTOSCOPE_MAX_IMAGE_BYTES");
    if (fromEnvironment == nullptr || *fromEnvironment == '\0') return std::uint64_t{1} << 30;
    return parseByteCount(fromEnvironment);
}

ImageRGBA8 decodeImage(const std::uint8_t* data, std::size_t size, std::string_view name,
                       std::uint64_t maxDecodedBytes) {
    const std::string prefix = std::string(name) + ": ";
    using Decoder = ImageRGBA8 (*)(const std::uint8_t*, std::size_t, std::uint64_t);
    Decoder decoder = nullptr;
    const char* what = "not an image file";
    if (startsWith(data, size, "\x89PNG\r\n\x1a\n"))
        decoder = decode::decodePng;
    else if (startsWith(data, size, "\xFF\xD8\xFF"))
        decoder = decode::decodeJpeg;
    else if (startsWith(data, size, "GIF87a") || startsWith(data, size, "GIF89a"))
        decoder = decode::decodeGif;
    else if (startsWith(data, size, "BM"))
        decoder = decode::decodeBmp;
    else if (startsWith(data, size, "II*\0") || startsWith(data, size, "MM\0*") ||
             startsWith(data, size, "II+\0") || startsWith(data, size, "MM\0+"))
        decoder = decode::decodeTiff;
    else if (startsWith(data, size, "RIFF") && startsWith(data, size, "WEBP", 8))
        decoder = decode::decodeWebp;
    else if (size >= 3 && data[0] == 'P' && data[1] >= '1' && data[1] <= '7' && std::isspace(data[2]))
        what =
            "a ppm image";  // the Netpbm family, which Qt once read: named, so its refusal is not a mystery
    if (decoder == nullptr)
        throw InputError(prefix + what + " (readable formats: PNG, JPEG, BMP, GIF, TIFF, WebP)");
    try {
        return decoder(data, size, maxDecodedBytes);
    } catch (const decode::Refusal& refusal) {
        // One line: the libraries' own words may hold line breaks (libtiff's do).
        std::string reason = refusal.what();
        for (char& c : reason)
            if (static_cast<unsigned char>(c) < 0x20) c = ' ';
        throw InputError(prefix + reason);
    } catch (const std::bad_alloc&) {
        throw InputError(prefix + "out of memory while decoding");
    }
}

ImageRGBA8 readImageFile(const std::string& path, std::uint64_t maxDecodedBytes) {
    if (path.empty()) throw InputError("an empty path names no image file");
    const MappedFile file(path);
    return decodeImage(file.data(), file.size(), path, maxDecodedBytes);
}

const std::vector<std::string>& readableSuffixesList() {
    static const std::vector<std::string> suffixes{"png", "jpg", "jpeg", "bmp", "gif", "tif", "tiff", "webp"};
    return suffixes;
}

const std::vector<std::string>& writableSuffixes() {
    static const std::vector<std::string> suffixes{"png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp"};
    return suffixes;
}

}  // namespace hs::io
