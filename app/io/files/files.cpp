#include "io/files/files.hpp"

#include <fstream>
#include <system_error>

#include "runtime/error.hpp"

namespace hs::io {

namespace fs = std::filesystem;

std::string readWholeFile(const fs::path& path, std::size_t maxBytes, std::string_view what) {
    const std::string name = path.string();
    std::error_code error;
    const auto size = fs::file_size(path, error);
    if (error)
        throw InputError(name + ": cannot read the " + std::string(what) + " (" + error.message() + ")");
    if (size > maxBytes)
        throw InputError(name + ": " + std::to_string(size) + " bytes is too large for a " +
                         std::string(what));
    std::ifstream file(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!file || !file.read(text.data(), static_cast<std::streamsize>(size)))
        throw InputError(name + ": cannot read the " + std::string(what));
    return text;
}

ImageRGBA8 readRawRgba(const fs::path& path, int width, int height) {
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw InputError(name + ": cannot open the raw RGBA file");
    const auto expected = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 4;
    const auto actual = static_cast<std::uint64_t>(in.tellg());
    if (actual != expected)
        throw InputError(name + ": holds " + std::to_string(actual) + " bytes, but " + std::to_string(width) +
                         "x" + std::to_string(height) + " RGBA8 pixels need " + std::to_string(expected));
    ImageRGBA8 image(width, height);
    in.seekg(0);
    in.read(reinterpret_cast<char*>(image.pixels.data()), static_cast<std::streamsize>(expected));
    if (!in) throw InputError(name + ": read failed");
    return image;
}

}  // namespace hs::io
