#include "stages/shared_options.hpp"

#include <charconv>
#include <cmath>

#include "ops/convolve/filter.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/error.hpp"

namespace hs::options {

namespace {

// The whole text as a number ("+" and surrounding blanks allowed); nullopt for anything else.
template <typename Number>
std::optional<Number> wholeNumber(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

UsageError badValue(const Spec& option, const std::string& expectation, std::string_view text) {
    return UsageError("--" + std::string(option.name) + " " + expectation + ", got '" + std::string(text) +
                      "'");
}

}  // namespace

const Spec& filterOption() {
    // Built on first use, after every filter kind registered itself.
    static const std::string help = "Convolve with SPEC: " + convolve::filterSpecHelp() +
                                    " (rows of numbers, optional last line '/ DIVISOR').";
    static const Spec spec{"filter", "SPEC", help, ""};
    return spec;
}

double parseAngle(std::string_view text) {
    const auto degrees = wholeNumber<double>(text);
    if (!degrees || !std::isfinite(*degrees))
        throw badValue(kAngle, "expects a finite number of degrees", text);
    return rotate::normalizeAngle(*degrees);
}

rotate::FilterMode parseSampling(std::string_view text) {
    try {
        return rotate::parseFilterMode(text);
    } catch (const UsageError&) {
        throw badValue(kSampling, "must be linear or nearest", text);
    }
}

int parseBins(std::string_view text) {
    const auto bins = wholeNumber<int>(text);
    if (!bins || *bins < 1 || *bins > histogram::kMaxBins)
        throw badValue(kBins, "must be an integer within 1.." + std::to_string(histogram::kMaxBins), text);
    return *bins;
}

std::optional<rotate::Params> parseRotation(const std::optional<std::string>& angle,
                                            const std::optional<std::string>& sampling, bool fitCanvas) {
    if (!angle) {
        if (sampling) throw UsageError("--sampling applies to --angle, which is not given");
        if (fitCanvas) throw UsageError("--fit-canvas applies to --angle, which is not given");
        return std::nullopt;
    }
    return rotate::Params{parseAngle(*angle),
                          sampling ? parseSampling(*sampling) : rotate::FilterMode::Linear, fitCanvas};
}

}  // namespace hs::options
