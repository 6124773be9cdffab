#pragma once
// --record, the option group of every command whose runs go into the run archive (archive/archive.hpp):
// one line in a command's declare, one before its work, one after it.
//
//     addRecordOption(parser);                                  // declare
//     const auto archive = recordFrom(parser);                  // run, before any work
//     if (archive) archive::recordOrWarn(*archive, archive::recordOf(...));  // once the run is made

#include <optional>

#include "archive/archive.hpp"
#include "cli/commands/command.hpp"

namespace hs::cli {

void addRecordOption(ArgumentParser& parser);
// The archive's settings when --record is given, read now so that a bad $HISTOSCOPE_ARCHIVE_MAX_RUNS stops
// the command before any work; nothing otherwise.
std::optional<archive::Settings> recordFrom(const ArgumentParser& parser);

}  // namespace hs::cli
