#pragma once
// --record, the option group of every command whose runs go into the run archive (archive/archive.hpp):
// one line in a command's declare, one before its work, one after it.
//
//     addRecordOption(parser);                                  // declare
//     const auto archive = recordFrom(parser);                  // run, before any work
//     if (archive) recordRun(*archive, archive::recordOf(...));  // once the run is made

#include <optional>

#include "archive/archive.hpp"
#include "cli/commands/command.hpp"

namespace hs::cli {

void addRecordOption(ArgumentParser& parser);
// The archive's settings when --record is given, read now so that a bad $HISTOSCOPE_ARCHIVE_MAX_RUNS stops
// the command before any work; nothing otherwise.
std::optional<archive::Settings> recordFrom(const ArgumentParser& parser);
// Records `run`. One that the archive cannot take is said in one line on stderr: kept in the pending folder
// (the exit code stays 0: the run is not lost), or lost (InputError: exit code 3).
void recordRun(const archive::Settings& settings, const archive::Record& run);

}  // namespace hs::cli
