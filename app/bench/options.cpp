#include "bench/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <string_view>
#include <utility>

#include "bench/suite.hpp"
#include "engine/ops/strategy.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/shared_options.hpp"

namespace hs::bench {

namespace {

// "  --name VALUE   text", the text wrapped into a column as Qt lays out the other tools' help.
std::string helpLine(const std::string& head, const std::string& text) {
    constexpr std::size_t kColumn = 24;
    constexpr std::size_t kWidth = 79;
    std::string out = "  " + head;
    if (out.size() + 1 > kColumn)
        out += "\n" + std::string(kColumn, ' ');
    else
        out.resize(kColumn, ' ');
    std::size_t column = kColumn;
    std::istringstream words(text);
    std::string word;
    bool lineStart = true;
    while (words >> word) {
        if (!lineStart && column + 1 + word.size() > kWidth) {
            out += "\n" + std::string(kColumn, ' ');
            column = kColumn;
            lineStart = true;
        }
        if (!lineStart) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        lineStart = false;
    }
    return out + "\n";
}

// The options shared with histoscope and histoscope-cli take their help from the shared specs.
std::string sharedLine(const options::Spec& spec, std::string_view shownDefault) {
    std::string text(spec.help);
    if (!shownDefault.empty()) text += " Default: " + std::string(shownDefault) + ".";
    return helpLine("--" + std::string(spec.name) + " " + std::string(spec.valueName), text);
}

// The registered suites, so that the help names every one.
std::string suiteNames() {
    std::string names;
    for (const auto& suite : suites()) names += (names.empty() ? "" : ", ") + suite.name;
    return names;
}

std::string usage() {
    return "Usage: histoscope-bench [options]\n"
           "Measures the histogram strategies, rotation and convolution on generated or given pixels.\n\n"
           "Options (a value as --name VALUE or --name=VALUE):\n" +
           helpLine("-h, --help", "Show this help.") + sharedLine(options::kDevice, "") +
           helpLine("--sizes LIST",
                    "Input sizes in MiB, comma-separated, fractions allowed. Default: 1,16,64,256.") +
           helpLine(
               "--patterns LIST",
               "uniform, all-equal, gaussian, gradient, natural (a photograph-like frame). Default: all.") +
           helpLine("--strategies LIST", "Strategies to measure, in any case. Default: all.") +
           helpLine("--suites LIST",
                    suiteNames() +
                        ". Default: all. The bow suite measures the book's descriptor counts "
                        "whose matrix fits the largest size (16: all three).") +
           sharedLine(options::kBins, options::kBins.defaultValue) + sharedLine(options::kAngle, "33.3") +
           sharedLine(options::kSampling, "both") +
           helpLine("--repetitions N", "Timed repetitions after one untimed warm-up. Default: 10.") +
           helpLine("--quick", "Sizes 1,16 MiB and 5 repetitions, unless given explicitly.") +
           helpLine("--record",
                    "Record every row measured repetition by repetition (histogram, scope, rotate, convolve) "
                    "in the run archive ($HISTOSCOPE_ARCHIVE, else $XDG_DATA_HOME/histoscope/runs.sqlite), "
                    "with each repetition's timings: see 'histoscope-cli runs'.") +
           helpLine("--frame WxH",
                    "The frame, live and scope suites' frame of a pattern. Default: 3840x2160.") +
           helpLine("--json", std::string(options::kJson.help).append(" The table then goes to stderr.")) +
           sharedLine(options::kJsonOut, "") +
           helpLine("--json PATH|-",
                    "The older form of --json-out PATH (-: stdout, as --json), still accepted.") +
           helpLine("--raw-rgba FILE --width W --height H",
                    "Measure on these raw RGBA8 pixels instead of generated patterns.");
}

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
    // Written so that NaN, which compares false with everything, is outside the range too.
    if (error != std::errc() || end != text.data() + text.size() || !(value >= low && value <= high)) {
        std::ostringstream message;
        message << option << " expects a number within " << low << ".." << high << ", got '" << text << "'";
        throw UsageError(message.str());
    }
    return value;
}

// "--name", as the shared spec names the option.
std::string flag(const options::Spec& spec) {
    return "--" + std::string(spec.name);
}

}  // namespace

void Options::setJsonPath(const std::string& path) {
    if (path == "-")
        jsonOnStdout = true;
    else
        jsonPath = path;
}

bool Options::selected(const std::vector<std::string>& list, const std::string& name) {
    return list.empty() || std::any_of(list.begin(), list.end(), [&](const std::string& entry) {
               return sameNameIgnoringCase(entry, name);
           });
}

std::optional<Options> parseOptions(int argc, char** argv) {
    Options options;
    bool quick = false, sizesGiven = false, repetitionsGiven = false;
    std::optional<std::string> rawPath;
    int width = 0, height = 0;
    for (int i = 1; i < argc; ++i) {
        // "--name VALUE" or "--name=VALUE", as histoscope-cli (Qt's parser) takes them.
        std::string option = argv[i];
        std::optional<std::string> inlineValue;
        if (const auto equals = option.find('='); option.starts_with("--") && equals != std::string::npos) {
            inlineValue = option.substr(equals + 1);
            option.resize(equals);
        }
        const auto argument = [&]() -> std::string {
            if (inlineValue) return *std::exchange(inlineValue, std::nullopt);
            if (i + 1 >= argc) throw UsageError(option + " needs a value");
            return argv[++i];
        };
        if (option == flag(options::kJson)) {
            // A flag, unless a path follows: the older --json PATH (and --json - for stdout) keep working.
            const bool pathFollows =
                inlineValue || (i + 1 < argc && (std::string_view(argv[i + 1]) == "-" ||
                                                 !std::string_view(argv[i + 1]).starts_with("-")));
            options.setJsonPath(pathFollows ? argument() : "-");
            continue;
        }
        if (option == flag(options::kJsonOut)) {
            options.setJsonPath(argument());
            continue;
        }
        if (inlineValue &&
            (option == "--help" || option == "-h" || option == "--quick" || option == "--record"))
            throw UsageError(option + " takes no value, got '" + option + "=" + *inlineValue + "'");
        if (option == "--help" || option == "-h") {
            std::fputs(usage().c_str(), stdout);
            return std::nullopt;
        } else if (option == flag(options::kDevice)) {
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
        } else if (option == flag(options::kBins)) {
            options.bins = options::parseBins(argument());
        } else if (option == flag(options::kAngle)) {
            options.angleDegrees = options::parseAngle(argument());
        } else if (option == flag(options::kSampling)) {
            options.sampling = options::parseSampling(argument());
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
        } else if (option == "--record") {
            // Read now: a bad $HISTOSCOPE_ARCHIVE_MAX_RUNS stops the bench before any measuring.
            options.record = recorderFromEnvironment();
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
