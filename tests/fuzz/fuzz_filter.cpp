// Filter specs, filter text and filter files (read through io): a filter every strategy can hold (validate
// passes) or one UsageError/InputError line. The first byte picks which parser reads the rest.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"
#include "io/files/filter_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        hs::convolve::Filter filter;
        switch (data[0] % 3) {
            case 0:
                // A spec that is not a built-in name is read as a path: only names without a folder part,
                // which the fuzzer's working folder does not hold, so no real file is touched.
                if (text.find('/') != std::string_view::npos || text.find('\0') != std::string_view::npos)
                    return 0;
                filter = hs::io::filterFromSpec(text);
                break;
            case 1:
                filter = hs::convolve::parseFilterText(text);
                break;
            default: {
                static const std::string path = (std::filesystem::temp_directory_path() /
                                                 ("histoscope-fuzz-filter-" + std::to_string(getpid())))
                                                    .string();
                std::ofstream(path, std::ios::binary | std::ios::trunc)
                    .write(text.data(), static_cast<std::streamsize>(text.size()));
                filter = hs::io::readFilterFile(path).filter;
                break;
            }
        }
        hs::convolve::validate(filter);  // whatever a parser returns must be a filter the kernels can run
        (void)hs::convolve::separate(filter);
    } catch (const hs::Error&) {
    }
    return 0;
}
