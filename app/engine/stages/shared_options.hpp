#pragma once
// The options that histoscope (scripted mode), histoscope-cli and histoscope-bench have in common: one name,
// one rule, one message and one help text for each, whichever front end parses its command line. The front
// ends hand the option's text here; a bad value is a UsageError naming the option and the text (exit code 2).

#include <optional>
#include <string>
#include <string_view>

#include "engine/ops/rotate/rotate.hpp"

namespace hs::options {

// An option as every front end presents it: --name VALUE, a help text, and the default value (empty: none;
// a front end that remembers the last choice states its own).
struct Spec {
    std::string_view name;
    std::string_view valueName;
    std::string_view help;
    std::string_view defaultValue;
};

inline constexpr Spec kAngle{
    "angle", "DEG",
    "Rotate by DEG degrees about the centre, counter-clockwise on screen; any finite "
    "number, reduced into (-180, 180] (negative: --angle=-45).",
    ""};
inline constexpr Spec kSampling{"sampling", "MODE", "Rotation sampling: linear or nearest.", "linear"};
// A flag (no value): the output becomes the smallest canvas holding the whole rotated image.
inline constexpr Spec kFitCanvas{
    "fit-canvas", "",
    "Enlarge the output to the smallest canvas that holds the whole rotated image "
    "(ceil(W|cos a| + H|sin a|) x ceil(W|sin a| + H|cos a|)), padded with "
    "transparent black; without it the output keeps the input's size.",
    ""};
inline constexpr Spec kBins{"bins", "N", "Histogram bins, 1..256 (bin = value * N / 256).", "256"};
inline constexpr Spec kStrategy{
    "strategy", "NAME", "Histogram strategy, in any case ('histoscope-cli strategies' lists them).", "auto"};
// A flag (no value); the default counts every pixel, as the channels contract says.
inline constexpr Spec kIgnoreTransparent{
    "ignore-transparent", "", "Leave pixels of alpha 0 out of r, g, b and luma (a still counts them).", ""};
// The region of interest of a measurement (engine/image/region.hpp); none: the whole image.
inline constexpr Spec kRoi{
    "roi", "X,Y,W,H",
    "Count only the pixels of the rectangle at X,Y (from the top left) W wide and H high, "
    "in pixels of the image the stages before made; it must lie inside the image.",
    ""};
// The default is a rule, not a value, so it is stated in the help.
inline constexpr Spec kDevice{"device", "SEL",
                              "Device: P:D indices or part of its name, in any case. Default: "
                              "$HISTOSCOPE_DEVICE, else the first GPU, else the first device.",
                              ""};
// The one meaning of --json in histoscope-cli and histoscope-bench: --json (a flag) prints the results as one
// JSON object on stdout; --json-out PATH, or --json=PATH, writes that object to PATH atomically. (The bench's
// older --json PATH and --json - still work.)
inline constexpr Spec kJson{"json", "", "Print the results as one JSON object on stdout.", ""};
inline constexpr Spec kJsonOut{"json-out", "PATH",
                               "Write the results as one JSON object to PATH, atomically (--json=PATH is the "
                               "same).",
                               ""};
// --filter: its help lists the filter registry's kinds, so it is built at run time.
const Spec& filterOption();

// --angle: any finite number of degrees, returned reduced into (-180, 180] (rotate::normalizeAngle), so
// "400" is 40. NaN, infinities and anything but a number: UsageError "--angle expects ...".
double parseAngle(std::string_view text);
// --sampling: linear or nearest, in any case.
rotate::FilterMode parseSampling(std::string_view text);
// --bins: an integer within 1..256.
int parseBins(std::string_view text);
// The rotation that --angle, --sampling and --fit-canvas ask for (each as given, nullopt when absent);
// nullopt without --angle. --sampling or --fit-canvas without --angle is a UsageError: it would silently do
// nothing.
std::optional<rotate::Params> parseRotation(const std::optional<std::string>& angle,
                                            const std::optional<std::string>& sampling,
                                            bool fitCanvas = false);

}  // namespace hs::options
