#include "bench/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>

#include "runtime/error.hpp"

namespace hs::bench {

namespace {

constexpr const char* kUsage =
    "usage: histoscope-bench [OPTIONS]\n"
    "  --device SEL          P:D or part of a device name (default: $HISTOSCOPE_DEVICE, else the first GPU,\n"
    "                        else the first device)\n"
    "  --sizes LIST          input sizes in MiB, comma-separated (default 1,16,64,256; fractions allowed)\n"
    "  --patterns LIST       uniform, all-equal, gaussian, gradient (default: all)\n"
    "  --strategies LIST     histogram strategies to measure (default: all)\n"
    "  --suites LIST         suites to run (default: all)\n"
    "  --bins N              histogram bins, 1..256 (default 256)\n"
    "  --repetitions N       timed repetitions after one untimed warm-up (default 10)\n"
    "  --quick               sizes 1,16 MiB and 5 repetitions, unless given explicitly\n"
    "  --frame WxH           the frame and live suites' frame of a pattern (default 3840x2160)\n"
    "  --json FILE|-         also write the results as JSON (- : stdout; the table then goes to stderr)\n"
    "  --raw-rgba FILE --width W --height H\n"
    "                        measure on these raw RGBA8 pixels instead of generated patterns\n";

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

template <typename Number>
Number parseNumber(const std::string& option, const std::string& text, Number low, Number high) {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
        std::ostringstream message;
        message << option << " expects a number within " << low << ".." << high << ", got '" << text << "'";
        throw UsageError(message.str());
    }
    return value;
}

}  // namespace

bool Options::selected(const std::vector<std::string>& list, const std::string& name) {
    return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

std::optional<Options> parseOptions(int argc, char** argv) {
    Options options;
    bool quick = false, sizesGiven = false, repetitionsGiven = false;
    std::optional<std::string> rawPath;
    int width = 0, height = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        const auto argument = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(option + " needs a value");
            return argv[++i];
        };
        if (option == "--help" || option == "-h") {
            std::fputs(kUsage, stdout);
            return std::nullopt;
        } else if (option == "--device") {
            options.device = argument();
        } else if (option == "--sizes") {
            options.sizesMiB.clear();
            for (const auto& size : splitList(argument()))
                options.sizesMiB.push_back(parseNumber(option, size, 1.0 / 1024, 4095.0));
            if (options.sizesMiB.empty()) throw UsageError("--sizes needs at least one size");
            sizesGiven = true;
        } else if (option == "--patterns") {
            options.patterns = splitList(argument());
        } else if (option == "--strategies") {
            options.strategies = splitList(argument());
        } else if (option == "--suites") {
            options.suites = splitList(argument());
        } else if (option == "--bins") {
            options.bins = parseNumber(option, argument(), 1, 256);
        } else if (option == "--repetitions") {
            options.repetitions = parseNumber(option, argument(), 1, 100000);
            repetitionsGiven = true;
        } else if (option == "--frame") {
            const std::string size = argument();
            const auto x = size.find('x');
            if (x == std::string::npos) throw UsageError("--frame expects WxH, got '" + size + "'");
            options.frameWidth = parseNumber(option, size.substr(0, x), 1, 1 << 15);
            options.frameHeight = parseNumber(option, size.substr(x + 1), 1, 1 << 15);
        } else if (option == "--quick") {
            quick = true;
        } else if (option == "--json") {
            options.jsonPath = argument();
        } else if (option == "--raw-rgba") {
            rawPath = argument();
        } else if (option == "--width") {
            width = parseNumber(option, argument(), 1, 1 << 20);
        } else if (option == "--height") {
            height = parseNumber(option, argument(), 1, 1 << 20);
        } else {
            throw UsageError("unknown option '" + option + "' (see --help)");
        }
    }
    if (quick && !sizesGiven) options.sizesMiB = {1, 16};
    if (quick && !repetitionsGiven) options.repetitions = 5;
    if (rawPath) {
        if (width == 0 || height == 0) throw UsageError("--raw-rgba needs --width and --height");
        options.raw = RawInput{*rawPath, width, height};
    } else if (width != 0 || height != 0) {
        throw UsageError("--width and --height go with --raw-rgba");
    }
    return options;
}

}  // namespace hs::bench
