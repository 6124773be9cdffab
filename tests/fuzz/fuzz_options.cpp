// The command-line options every front end shares (stages/shared_options.hpp) and the strategy names: any
// text gives a value within the option's rule or one UsageError; anything else (another exception, a value
// outside the rule) is a finding. Byte 0 picks the option; for --angle with --sampling and --fit-canvas the
// rest is split at the first two NUL bytes.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "ops/histogram/histogram.hpp"
#include "runtime/error.hpp"
#include "stages/shared_options.hpp"

namespace {

void check(bool holds) {
    if (!holds) std::abort();
}

// The part of `text` before the `index`-th NUL (nullopt when there are fewer NULs).
std::optional<std::string> field(std::string_view text, int index) {
    for (int i = 0; i < index; ++i) {
        const auto nul = text.find('\0');
        if (nul == std::string_view::npos) return std::nullopt;
        text.remove_prefix(nul + 1);
    }
    return std::string(text.substr(0, text.find('\0')));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 5) {
            case 0: {
                const double angle = hs::options::parseAngle(text);
                check(std::isfinite(angle) && angle > -180.0 && angle <= 180.0);
                break;
            }
            case 1: {
                const auto mode = hs::options::parseSampling(text);
                check(mode == hs::rotate::FilterMode::Linear || mode == hs::rotate::FilterMode::Nearest);
                break;
            }
            case 2: {
                const int bins = hs::options::parseBins(text);
                check(bins >= 1 && bins <= 256);
                break;
            }
            case 3: {
                const auto angle = field(text, 0);
                const auto sampling = field(text, 1);
                const bool fitCanvas = field(text, 2).has_value();
                const auto rotation =
                    hs::options::parseRotation(angle->empty() ? std::nullopt : angle, sampling, fitCanvas);
                check(rotation.has_value() == !angle->empty());
                if (rotation)
                    check(std::isfinite(rotation->angleDegrees) && rotation->angleDegrees > -180.0 &&
                          rotation->angleDegrees <= 180.0 && rotation->fitCanvas == fitCanvas);
                break;
            }
            default:
                check(!hs::histogram::findStrategy(text).name().empty());
                break;
        }
    } catch (const hs::UsageError&) {
    }
    return 0;
}
