#include "cli/commands/record_option.hpp"

namespace hs::cli {

void addRecordOption(ArgumentParser& parser) {
    parser.addFlag("record",
                   "Record the run in the run archive ($HISTOSCOPE_ARCHIVE, else "
                   "$XDG_DATA_HOME/histoscope/runs.sqlite): see 'histoscope-cli runs'.");
}

std::optional<archive::Settings> recordFrom(const ArgumentParser& parser) {
    if (!parser.isSet("record")) return std::nullopt;
    return parser.withCommand([] { return archive::Settings::fromEnvironment(); });
}

}  // namespace hs::cli
