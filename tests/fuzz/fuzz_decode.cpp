// Image decode -> RGBA8 on arbitrary bytes (io/decode, every format): an image of the size it declares, or
// one InputError line.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/runtime/error.hpp"
#include "io/decode/image_codecs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        // 16 MiB decoded at most: bombs are refused from the header, and the fuzzer's memory stays small.
        const hs::ImageRGBA8 image = hs::io::decodeImage(data, size, "input", 16u << 20);
        if (image.width <= 0 || image.height <= 0 || image.pixels.size() != image.byteCount()) std::abort();
    } catch (const hs::InputError& error) {
        // One line naming the input.
        const std::string message = error.what();
        if (message.rfind("input: ", 0) != 0 || message.find('\n') != std::string::npos) std::abort();
    }
    return 0;
}
