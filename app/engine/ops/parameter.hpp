#pragma once
// What every front end needs to present one parameter of a stage kind or of a filter kind: its option, its
// editor, its range and default, its help. One schema for both registries.

#include <string>
#include <vector>

namespace hs::stages {

// One parameter of a stage kind (or of a filter kind), as every front end presents it.
struct Parameter {
    enum class Type { Real, Integer, OddInteger, Flag, Choice, Text };
    std::string name{};         // option (--name), settings key, JSON key: "angle", "size"
    std::string placeholder{};  // in help texts: "DEG", "N"
    std::string label{};        // GUI: "Angle", "σ"
    std::string help{};         // option help and GUI tooltip
    Type type = Type::Real;
    double min = 0;  // Real and the integers
    double max = 1;
    double defaultValue = 0;
    double step = 1;
    // Non-empty: `min` stands for "choose automatically" and the GUI shows this text for it.
    std::string automaticText{};
    std::vector<std::string> choices{};  // Choice: the accepted values, the first the default
    std::string defaultText{};           // Text and Choice: the default as text; empty: none
    // Text: may be given more than once (--param A=1 --param B=2); its values reach the kind joined by '\n'.
    bool repeated = false;
};

}  // namespace hs::stages
