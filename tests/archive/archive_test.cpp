// The run archive: the schema created and migrated from a version-1 database made here with raw SQL; runs
// written back whole; several writers at once; a damaged, read-only, locked, newer or full database, each
// reported in one line with the run kept pending and written once the database is back; the caps; and a
// record mapped from a real run on PoCL.
#include "archive/archive.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::archive {
namespace {

namespace fs = std::filesystem;

// A folder of the test's own, emptied first (tests of one executable may run side by side under ctest -j).
fs::path freshFolder() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path folder = fs::temp_directory_path() / ("histoscope-archive-" + std::to_string(getpid())) /
                            (std::string(test->test_suite_name()) + "." + test->name());
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder;
}

// "r7": GCC 12's -Wrestrict misfires on "r" + std::to_string(7).
std::string numbered(std::string prefix, int number) {
    prefix += std::to_string(number);
    return prefix;
}

Settings settingsIn(const fs::path& folder) {
    Settings settings;
    settings.path = folder / "runs.sqlite";
    return settings;
}

// A run as a front end would record it, with `label` in its image path so that runs can be told apart.
Record sampleRun(const std::string& label, std::uint64_t kernelNs = 1000) {
    static int made = 0;
    Record run;
    run.uid = numbered("uid-" + label + "-", ++made);
    run.recordedAt = "2026-11-27T05:00:00Z";
    run.version = "0.1.0 (test)";
    run.command = "test";
    run.device = "pthread-cpu";
    run.driver = "5.0";
    run.platform = "Portable Computing Language";
    run.image = {"/images/" + label + ".png", 4, 2, "00112233"};
    run.stages = {
        {"rotate", "image-sampler", "image-sampler", "", {{"angle", "30"}}, {{"rotate", "-D LINEAR", "ab"}}},
        {"histogram",
         "local-atomic",
         "local-atomic",
         "",
         {{"bins", "4"}},
         {{"histogram", "-D BINS=4", "cd"}}}};
    run.repetitions = 2;
    for (int repetition = 1; repetition <= 2; ++repetition) {
        run.timings.push_back(
            {repetition, "rotate", "rotate: rotate_image", "kernel", "pthread-cpu", kernelNs});
        run.timings.push_back(
            {repetition, "histogram", "histogram: count", "kernel", "pthread-cpu", 2 * kernelNs});
        run.timings.push_back({repetition, "histogram", "histogram: read", "readback", "pthread-cpu", 7});
    }
    run.bins = 4;
    run.histogram = {{"r", {1, 2, 3, 2}}, {"luma", {8, 0, 0, 0}}};
    run.outputHash = "feedface";
    // Bytes, not text: a NUL inside and bytes that are no UTF-8 come back as they went in.
    run.outputPng = std::string("\x89PNG\0\xff kept", 11);
    return run;
}

// The database as a raw connection, for what the archive does not say (its version, its journal mode).
struct Raw {
    sqlite3* db = nullptr;
    explicit Raw(const fs::path& path) { EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK); }
    ~Raw() { sqlite3_close(db); }
    std::string text(const char* sql) {
        sqlite3_stmt* statement = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
        std::string value;
        if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0))
            value = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
        sqlite3_finalize(statement);
        return value;
    }
    void exec(const char* sql) {
        ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    }
};

std::vector<std::string> pendingFiles(const Settings& settings) {
    std::vector<std::string> files;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(settings.pendingFolder(), error))
        files.push_back(entry.path().filename().string());
    return files;
}

TEST(Archive, ANewArchiveHasTheCurrentSchemaInWalModeAndGivesARunBackWhole) {
    const Settings settings = settingsIn(freshFolder());
    const Record run = sampleRun("a");
    std::int64_t id = 0;
    {
        Archive archive(settings);
        id = archive.add(run);
        Record loaded = archive.load(id);
        EXPECT_EQ(loaded.id, id);
        loaded.id = 0;
        EXPECT_EQ(loaded, run) << "every member written and read back";
        EXPECT_EQ(archive.add(run), id) << "a run already there (its uid) is not written twice";
        EXPECT_EQ(archive.list().size(), 1u);
    }
    Raw raw(settings.path);
    EXPECT_EQ(raw.text("PRAGMA user_version"), std::to_string(kSchemaVersion));
    EXPECT_EQ(raw.text("PRAGMA journal_mode"), "wal");
    EXPECT_EQ(raw.text("SELECT strategies FROM runs"), "image-sampler,local-atomic");
}

TEST(Archive, CountsEditedIntoSomethingElseAreAnInputErrorNamingTheArchive) {
    const Settings settings = settingsIn(freshFolder());
    Archive archive(settings);
    const std::int64_t id = archive.add(sampleRun("a"));
    Raw(settings.path).exec("UPDATE histograms SET counts = '1,x' WHERE channel = 'r'");
    try {
        archive.load(id);
        ADD_FAILURE() << "loaded";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()),
                  settings.path.string() + ": histogram counts '1,x' are not numbers separated by commas");
    }
}

// Version 1 as the first archive wrote it, typed out here rather than taken from the archive's code, so that
// a change to the archive's idea of version 1 cannot pass unnoticed.
TEST(Archive, AVersion1DatabaseIsMigratedAndItsRunsRead) {
    const Settings settings = settingsIn(freshFolder());
    {
        Raw raw(settings.path);
        raw.exec(R"SQL(
CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE, recorded_at TEXT NOT NULL,
    version TEXT NOT NULL, command TEXT NOT NULL, device TEXT NOT NULL, driver TEXT NOT NULL,
    platform TEXT NOT NULL, image_path TEXT NOT NULL, image_width INTEGER NOT NULL,
    image_height INTEGER NOT NULL, image_hash TEXT NOT NULL, repetitions INTEGER NOT NULL,
    bins INTEGER NOT NULL, output_hash TEXT NOT NULL);
CREATE TABLE stages(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    kind TEXT NOT NULL, requested TEXT NOT NULL, strategy TEXT NOT NULL, note TEXT NOT NULL,
    PRIMARY KEY(run_id, position));
CREATE TABLE stage_values(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE builds(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    source TEXT NOT NULL, options TEXT NOT NULL, source_hash TEXT NOT NULL);
CREATE TABLE timings(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    repetition INTEGER NOT NULL, step TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    device TEXT NOT NULL, duration_ns INTEGER NOT NULL);
CREATE TABLE histograms(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, channel TEXT NOT NULL,
    counts TEXT NOT NULL);
INSERT INTO runs VALUES(7, 'old-run', '2025-01-02T03:04:05Z', '0.0.9 (old)', 'histoscope-cli pipeline', 'gpu', '1.2',
    'NVIDIA CUDA', '/old.png', 3, 1, 'abc', 1, 2, '');
INSERT INTO stages VALUES(7, 1, 'histogram', 'auto', 'private-uchar', 'auto chose it');
INSERT INTO stages VALUES(7, 0, 'convolve', 'separable', 'buffer-naive', 'not rank 1');
INSERT INTO stage_values VALUES(7, 0, 'filter', 'box:3');
INSERT INTO builds VALUES(7, 1, 'histogram', '-D BINS=2', 'ff');
INSERT INTO timings VALUES(7, 1, 'convolve', 'convolve: convolve_naive', 'kernel', 'gpu', 5000);
INSERT INTO histograms VALUES(7, 'g', '2,1');
PRAGMA user_version = 1;
)SQL");
    }
    Archive archive(settings);
    EXPECT_EQ(Raw(settings.path).text("PRAGMA user_version"), std::to_string(kSchemaVersion));
    // The column version 2 added, filled from the stages in their order.
    const auto listed = archive.list({.strategy = "private-uchar"});
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].id, 7);
    EXPECT_EQ(listed[0].strategies, "buffer-naive,private-uchar");
    EXPECT_TRUE(archive.list({.strategy = "separable"}).empty())
        << "the strategy that ran, not the one asked for";
    const Record old = archive.load(7);
    ASSERT_EQ(old.stages.size(), 2u);
    EXPECT_EQ(old.stages[0].kind, "convolve");
    EXPECT_EQ(old.stages[0].values.at("filter"), "box:3");
    EXPECT_EQ(old.stages[1].note, "auto chose it");
    EXPECT_EQ(old.stages[1].builds, (std::vector<Build>{{"histogram", "-D BINS=2", "ff"}}));
    EXPECT_EQ(old.histogram.at("g"), (std::vector<std::uint64_t>{2, 1}));
    ASSERT_EQ(old.timings.size(), 1u);
    EXPECT_EQ(old.timings[0].durationNs, 5000u);
    EXPECT_TRUE(old.outputPng.empty()) << "version 3's outputs: none kept for an older run";
    // And new runs go in beside it.
    EXPECT_GT(archive.add(sampleRun("new")), 7);
    EXPECT_EQ(archive.list().size(), 2u);
}

TEST(Archive, ADatabaseOfANewerSchemaIsRefusedUntouchedAndTheRunKept) {
    const Settings settings = settingsIn(freshFolder());
    Raw(settings.path).exec("CREATE TABLE future(x); PRAGMA user_version = 4;");
    const Recorded done = record(settings, sampleRun("a"));
    EXPECT_EQ(done.id, 0);
    EXPECT_NE(
        done.problem.find(settings.path.string() + ": cannot open the run archive: its schema version 4 is "
                                                   "newer than this HistoScope's 3"),
        std::string::npos)
        << done.problem;
    EXPECT_EQ(pendingFiles(settings).size(), 1u);
    EXPECT_EQ(Raw(settings.path).text("PRAGMA user_version"), "4");
}

TEST(Archive, WritersInSeveralThreadsLoseNoRun) {
    const Settings settings = settingsIn(freshFolder());
    constexpr int kWriters = 6, kRuns = 15;
    std::vector<std::thread> writers;
    std::vector<std::string> problems(kWriters);
    for (int w = 0; w < kWriters; ++w)
        writers.emplace_back([&, w] {
            for (int r = 0; r < kRuns; ++r) {
                // Each run through its own connection, as separate processes would.
                const Recorded done = record(settings, sampleRun(numbered(numbered("w", w) + "r", r)));
                if (!done.problem.empty()) problems[static_cast<std::size_t>(w)] = done.problem;
            }
        });
    for (auto& writer : writers) writer.join();
    for (const auto& problem : problems) EXPECT_EQ(problem, "");
    Archive archive(settings);
    const auto listed = archive.list();
    ASSERT_EQ(listed.size(), static_cast<std::size_t>(kWriters * kRuns));
    std::set<std::string> images;
    for (const auto& run : listed) images.insert(run.image.path);
    EXPECT_EQ(images.size(), listed.size());
}

// A broken database: one line naming the file and the reason, the run in the pending folder; once the
// database can be written again the next run recorded writes it too, and the pending file goes.
void expectKeptThenWritten(const Settings& settings, const Recorded& done, const std::string& reason,
                           const std::function<void()>& repair) {
    EXPECT_EQ(done.id, 0);
    EXPECT_EQ(done.problem.find('\n'), std::string::npos) << done.problem;
    EXPECT_EQ(done.problem.rfind(settings.path.string() + ": ", 0), 0u) << done.problem;
    EXPECT_NE(done.problem.find(reason), std::string::npos) << done.problem;
    EXPECT_NE(done.problem.find("kept in " + done.pending.string()), std::string::npos) << done.problem;
    EXPECT_TRUE(fs::is_regular_file(done.pending));
    repair();
    const Recorded next = record(settings, sampleRun("after"));
    EXPECT_EQ(next.problem, "");
    EXPECT_TRUE(pendingFiles(settings).empty());
    Archive archive(settings);
    std::vector<std::string> images;
    for (const auto& run : archive.list()) images.push_back(run.image.path);
    EXPECT_NE(std::find(images.begin(), images.end(), "/images/kept.png"), images.end());
    EXPECT_NE(std::find(images.begin(), images.end(), "/images/after.png"), images.end());
}

TEST(Archive, ADamagedDatabaseIsReportedAndTheRunWrittenOnceItIsReplaced) {
    const Settings settings = settingsIn(freshFolder());
    std::ofstream(settings.path, std::ios::binary) << std::string(8192, '\x5a');
    const Recorded done = record(settings, sampleRun("kept"));
    expectKeptThenWritten(settings, done, "file is not a database", [&] { fs::remove(settings.path); });
}

// Tests may run as root, whom a mode of 0444 does not stop: the database is made read-only to SQLite itself
// by its header's write version (byte 18) above 2, which SQLite opens read-only for every user, as it would a
// format newer than it writes.
TEST(Archive, AReadOnlyDatabaseIsReportedAndTheRunWrittenOnceItIsWritable) {
    const Settings settings = settingsIn(freshFolder());
    record(settings, sampleRun("first"));
    const auto setWriteVersion = [&](char version) {
        std::fstream file(settings.path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(18);
        file.put(version);
    };
    setWriteVersion(3);
    const Recorded done = record(settings, sampleRun("kept"));
    expectKeptThenWritten(settings, done, "readonly database", [&] { setWriteVersion(2); });
}

TEST(Archive, AFolderInPlaceOfTheDatabaseIsReported) {
    const Settings settings = settingsIn(freshFolder());
    fs::create_directories(settings.path);
    const Recorded done = record(settings, sampleRun("kept"));
    expectKeptThenWritten(settings, done, "unable to open database file", [&] { fs::remove(settings.path); });
}

TEST(Archive, ALockedDatabaseIsReportedAfterTheBusyTimeout) {
    Settings settings = settingsIn(freshFolder());
    settings.busyTimeoutMs = 50;
    record(settings, sampleRun("first"));
    auto holder = std::make_unique<Raw>(settings.path);
    holder->exec(
        "BEGIN EXCLUSIVE; INSERT INTO runs(uid, recorded_at, version, command, device, driver, platform, "
        "image_path, image_width, image_height, image_hash, repetitions, bins, output_hash) "
        "VALUES('x', '', '', '', '', '', '', '', 0, 0, '', 0, 0, '')");
    const Recorded done = record(settings, sampleRun("kept"));
    expectKeptThenWritten(settings, done, "database is locked", [&] { holder.reset(); });
}

TEST(Archive, ARunLargerThanTheDatabaseMayGrowIsReportedAsFull) {
    Settings settings = settingsIn(freshFolder());
    settings.maxBytes = 64 << 10;  // the file may grow to 2 × 64 KiB + 4 MiB (max_page_count)
    Record huge = sampleRun("huge");
    huge.timings.assign(200'000,
                        {1, "histogram", "histogram: a rather long kernel name", "kernel", "pthread-cpu", 1});
    const Recorded done = record(settings, huge);
    EXPECT_EQ(done.id, 0);
    EXPECT_NE(done.problem.find(settings.path.string() + ": cannot record the run: database or disk is full"),
              std::string::npos)
        << done.problem;
    EXPECT_TRUE(fs::is_regular_file(done.pending));
    // An ordinary run still goes in; the huge one stays pending, said once.
    std::vector<std::string> warnings;
    static std::vector<std::string>* sink = nullptr;
    sink = &warnings;
    setWarningSink([](std::string_view line) { sink->emplace_back(line); });
    const Recorded next = record(settings, sampleRun("small"));
    setWarningSink(nullptr);
    EXPECT_GT(next.id, 0) << next.problem;
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(done.pending.string() + ": "), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("is too large for a pending run (the pending run stays where it is)"),
              std::string::npos)
        << warnings[0];
    EXPECT_EQ(pendingFiles(settings).size(), 1u);
}

TEST(Archive, WhereNeitherTheDatabaseNorThePendingFolderCanBeWrittenTheLineSaysTheRunIsLost) {
    const Settings settings = settingsIn(freshFolder());
    fs::create_directories(settings.path);
    std::ofstream(settings.pendingFolder()) << "a file where the folder would be";
    const Recorded done = record(settings, sampleRun("lost"));
    EXPECT_EQ(done.id, 0);
    EXPECT_TRUE(done.pending.empty());
    EXPECT_NE(done.problem.find("unable to open database file; the run is lost ("), std::string::npos)
        << done.problem;
    EXPECT_NE(done.problem.find(settings.pendingFolder().string()), std::string::npos) << done.problem;
}

TEST(Archive, TheRunCapEvictsTheOldestRunsFirst) {
    Settings settings = settingsIn(freshFolder());
    settings.maxRuns = 3;
    Archive archive(settings);
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 5; ++i) ids.push_back(archive.add(sampleRun(numbered("r", i))));
    const auto listed = archive.list();
    ASSERT_EQ(listed.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(listed[i].id, ids[i + 2]);
    EXPECT_EQ(Raw(settings.path).text("SELECT count(*) FROM timings"), "18")
        << "3 runs of 6 records: the evicted runs' rows go with them";
}

TEST(Archive, TheByteCapEvictsOldestFirstAndKeepsTheNewestRun) {
    Settings settings = settingsIn(freshFolder());
    Archive(settings).add(sampleRun("one"));
    // The pages one small run needs (the schema's included): a cap just above it keeps one run, not two.
    settings.maxBytes = std::stoull(Raw(settings.path)
                                        .text("SELECT (page_count - freelist_count) * page_size FROM "
                                              "pragma_page_count, pragma_freelist_count, pragma_page_size"));
    Archive archive(settings);
    Record big = sampleRun("big");
    big.timings.assign(2000, {1, "histogram", "histogram: count", "kernel", "pthread-cpu", 5});
    const std::int64_t id = archive.add(big);
    const auto listed = archive.list();
    ASSERT_EQ(listed.size(), 1u) << "the cap is below what both runs need";
    EXPECT_EQ(listed[0].id, id);
}

TEST(Archive, ListFiltersByImageDeviceStrategyAndDate) {
    Archive archive(settingsIn(freshFolder()));
    Record early = sampleRun("cat");
    early.recordedAt = "2026-01-01T00:00:00Z";
    Record late = sampleRun("dog");
    late.device = "NVIDIA H100";
    late.stages[1].strategy = "private-uchar";
    archive.add(early);
    archive.add(late);
    const auto paths = [&](const Filter& filter) {
        std::vector<std::string> found;
        for (const auto& run : archive.list(filter)) found.push_back(run.image.path);
        return found;
    };
    using Paths = std::vector<std::string>;
    EXPECT_EQ(paths({.image = "cat"}), Paths{"/images/cat.png"});
    EXPECT_EQ(paths({.device = "h100"}), Paths{"/images/dog.png"});
    EXPECT_EQ(paths({.strategy = "local-atomic"}), Paths{"/images/cat.png"});
    EXPECT_EQ(paths({.strategy = "local"}), Paths{}) << "a whole name, not a part";
    EXPECT_EQ(paths({.since = "2026-06-01"}), Paths{"/images/dog.png"});
    EXPECT_EQ(paths({.until = "2026-06-01"}), Paths{"/images/cat.png"});
    EXPECT_TRUE(archive.remove(archive.list().front().id));
    EXPECT_FALSE(archive.remove(999));
    EXPECT_EQ(paths({}), Paths{"/images/dog.png"});
}

TEST(Archive, SettingsComeFromTheEnvironment) {
    setenv("HISTOSCOPE_ARCHIVE", "/somewhere/runs.db", 1);
    EXPECT_EQ(Settings::fromEnvironment().path, "/somewhere/runs.db");
    unsetenv("HISTOSCOPE_ARCHIVE");
    setenv("XDG_DATA_HOME", "/data", 1);
    EXPECT_EQ(Settings::fromEnvironment().path, "/data/histoscope/runs.sqlite");
    setenv("XDG_DATA_HOME", "relative", 1);
    setenv("HOME", "/home/user", 1);
    EXPECT_EQ(Settings::fromEnvironment().path, "/home/user/.local/share/histoscope/runs.sqlite");
    EXPECT_EQ(Settings::fromEnvironment().pendingFolder(),
              "/home/user/.local/share/histoscope/runs.sqlite.pending");
    setenv("HISTOSCOPE_ARCHIVE_MAX_RUNS", "12", 1);
    setenv("HISTOSCOPE_ARCHIVE_MAX_MB", "3", 1);
    EXPECT_EQ(Settings::fromEnvironment().maxRuns, 12);
    EXPECT_EQ(Settings::fromEnvironment().maxBytes, 3u << 20);
    setenv("HISTOSCOPE_ARCHIVE_MAX_RUNS", "12x", 1);
    EXPECT_THROW(Settings::fromEnvironment(), UsageError);
    unsetenv("HISTOSCOPE_ARCHIVE_MAX_RUNS");
    unsetenv("HISTOSCOPE_ARCHIVE_MAX_MB");
    unsetenv("XDG_DATA_HOME");
}

// The mapping from a real run: what the session reports is what the record holds.
TEST(Record, ARunOnTheDeviceIsRecordedAsTheSessionReportedIt) {
    auto image = std::make_shared<ImageRGBA8>(13, 7);
    for (std::size_t i = 0; i < image->pixels.size(); ++i)
        image->pixels[i] = static_cast<std::uint8_t>(i * 37 % 251);
    session::Session session;
    session::RunSpec spec;
    spec.image = image;
    spec.device = "0:0";
    spec.stages = {stages::rotateStage({90.0}, *rotate::strategies().front()),
                   stages::histogramStage({16, false}, histogram::findStrategy("global-atomic"))};
    const session::RunReport first = session.run(spec);
    const session::RunReport second = session.run(spec);
    Record run =
        recordOf("test", identify("/x.png", *image), spec.stages, first, OutputImage{"out-hash", {}});
    addRepetition(run, second);

    EXPECT_EQ(run.device, first.device.name);
    EXPECT_EQ(run.driver, first.device.driverVersion);
    EXPECT_EQ(run.image.width, 13);
    EXPECT_EQ(run.image.hash, contentHash(*image));
    ASSERT_EQ(run.stages.size(), 2u);
    EXPECT_EQ(run.stages[0].kind, "rotate");
    EXPECT_EQ(run.stages[1].strategy, "global-atomic");
    EXPECT_EQ(run.stages[1].values.at("bins"), "16");
    ASSERT_FALSE(run.stages[1].builds.empty());
    EXPECT_EQ(run.stages[1].builds[0].options, first.result.stage("histogram")->builds[0].options);
    EXPECT_EQ(run.stages[1].builds[0].sourceHash.size(), 16u);
    EXPECT_EQ(run.bins, 16);
    EXPECT_EQ(run.histogram.at("luma"), (*first.result.histogram)[histogram::Channel::Luma]);
    EXPECT_EQ(run.outputHash, "out-hash");
    EXPECT_EQ(run.repetitions, 2);
    const auto timings = first.result.timings();
    const auto again = second.result.timings();
    ASSERT_EQ(run.timings.size(), timings.size() + again.size());
    for (std::size_t i = 0; i < timings.size(); ++i) {
        EXPECT_EQ(run.timings[i].repetition, 1);
        EXPECT_EQ(run.timings[i].name, timings[i].name);
        EXPECT_EQ(run.timings[i].durationNs, timings[i].durationNs());
    }
    // The second run finds its input on the device: no upload, fewer records.
    for (std::size_t i = 0; i < again.size(); ++i) {
        EXPECT_EQ(run.timings[timings.size() + i].repetition, 2);
        EXPECT_EQ(run.timings[timings.size() + i].name, again[i].name);
    }
}

TEST(Record, TheContentHashTellsSizeAndPixelsApart) {
    ImageRGBA8 a(2, 2), b(2, 2), c(4, 1);
    EXPECT_EQ(contentHash(a), contentHash(b));
    b.pixels[5] = 1;
    EXPECT_NE(contentHash(a), contentHash(b));
    EXPECT_NE(contentHash(a), contentHash(c)) << "the same bytes as another size";
}

}  // namespace
}  // namespace hs::archive
