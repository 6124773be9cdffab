#pragma once
// The run archive: every recorded run (record.hpp) in one SQLite database, which the app and several
// histoscope-cli processes write at once (WAL, a busy timeout, one transaction per run).
//
//     const archive::Settings settings = archive::Settings::fromEnvironment();
//     const archive::Recorded done = archive::record(settings, run);   // never throws
//     if (!done.problem.empty()) warn(done.problem);
//
// The schema is versioned (PRAGMA user_version) and migrated on open; a database newer than this build is
// refused, not touched. A cap on the number of runs and on the bytes the database's pages hold evicts the
// oldest runs first. A run that cannot be written (a damaged, locked, read-only or full database) is kept in
// a pending file beside the database and written by the next run recorded there, or said to be lost.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "archive/record.hpp"

struct sqlite3;

namespace hs::archive {

inline constexpr int kSchemaVersion = 3;

struct Settings {
    std::filesystem::path path;
    std::int64_t maxRuns = 10'000;
    std::uint64_t maxBytes = 256ull << 20;
    // How long a writer waits for another's transaction before the database counts as locked.
    int busyTimeoutMs = 10'000;

    // $HISTOSCOPE_ARCHIVE, else $XDG_DATA_HOME/histoscope/runs.sqlite, else ~/.local/share/histoscope/...;
    // the caps from $HISTOSCOPE_ARCHIVE_MAX_RUNS and $HISTOSCOPE_ARCHIVE_MAX_MB where set (a value that is
    // not a positive integer is a UsageError naming the variable).
    static Settings fromEnvironment();
    // Where runs that could not be written wait: "<path>.pending/", one file per run.
    std::filesystem::path pendingFolder() const;
};

// One run as `runs list` shows it.
struct Listed {
    std::int64_t id = 0;
    std::string recordedAt;
    std::string command;
    std::string device;
    ImageIdentity image;
    std::string strategies;
    int repetitions = 0;
};

// What `runs list` keeps; an empty member keeps every run.
struct Filter {
    std::string image{};     // part of the image's path, or its content hash
    std::string device{};    // part of the device's name
    std::string strategy{};  // a strategy that ran (exact name)
    std::string since{};     // recorded at or after this UTC time or date ("2026-11-27")
    std::string until{};     // recorded before it
};

class Archive {
  public:
    // Opens (creating the folder and the database where absent) and migrates to kSchemaVersion. Throws
    // InputError "<path>: cannot open the run archive: <reason>".
    explicit Archive(Settings settings);
    ~Archive();
    Archive(const Archive&) = delete;
    Archive& operator=(const Archive&) = delete;

    // Records `run` (a run whose uid is already there is not written twice) and evicts the oldest runs beyond
    // the caps, in one transaction; then writes the pending runs. Returns its number. Throws InputError
    // "<path>: cannot record the run: <reason>".
    std::int64_t add(const Record& run);
    std::vector<Listed> list(const Filter& filter = {}) const;
    // Throws InputError "<path>: no run <id>" when there is none.
    Record load(std::int64_t id) const;
    // False when there was no such run.
    bool remove(std::int64_t id);
    // Writes the runs waiting in the pending folder, each removed once written; returns how many were. One
    // that cannot be read stays, said once through hs::warn.
    int writePending();

    const Settings& settings() const { return settings_; }

  private:
    Settings settings_;
    sqlite3* db_ = nullptr;
};

// What record() did: the run's number, or the one line that says why it is not in the archive and where it
// is kept (or that it is lost).
struct Recorded {
    std::int64_t id = 0;            // 0: not in the archive
    std::string problem;            // empty when recorded
    std::filesystem::path pending;  // the file keeping it; empty when recorded or lost
};

// Records `run` in the archive of `settings`, never silently losing it: where the archive cannot take it,
// the run is written (atomically) to a file of its own in the pending folder, which the next add() there
// writes in; where even that fails, the line says the run is lost. Never throws.
Recorded record(const Settings& settings, const Record& run);
// record() as a command line reports it (histoscope-cli --record, histoscope-bench --record): a run kept in
// the pending folder is said in one line through hs::warn; a lost one throws InputError with that line.
void recordOrWarn(const Settings& settings, const Record& run);

}  // namespace hs::archive
