#include "archive/archive.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include "engine/runtime/atomic_file.hpp"
#include "engine/runtime/error.hpp"
#include "io/files/files.hpp"

namespace hs::archive {

namespace {

// A statement of one connection; a failing step throws InputError with `context` and SQLite's reason.
class Statement {
  public:
    Statement(sqlite3* db, const char* sql, std::string context) : db_(db), context_(std::move(context)) {
        if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK) fail();
    }
    ~Statement() { sqlite3_finalize(statement_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, const std::string& text) {
        check(sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()),
                                SQLITE_TRANSIENT));
        return *this;
    }
    Statement& bind(int index, std::int64_t number) {
        check(sqlite3_bind_int64(statement_, index, number));
        return *this;
    }
    Statement& bindBlob(int index, const std::string& bytes) {
        check(sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
        return *this;
    }
    // True while a row is there.
    bool step() {
        const int result = sqlite3_step(statement_);
        if (result == SQLITE_ROW) return true;
        if (result != SQLITE_DONE) fail();
        return false;
    }
    // Steps to the end and resets, ready for the next bindings.
    void run() {
        while (step()) {
        }
        sqlite3_reset(statement_);
    }
    std::string text(int column) const {
        const auto* bytes = sqlite3_column_text(statement_, column);
        return bytes ? std::string(reinterpret_cast<const char*>(bytes),
                                   static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
                     : std::string();
    }
    std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
    std::string blob(int column) const {
        const auto* bytes = sqlite3_column_blob(statement_, column);
        return bytes ? std::string(static_cast<const char*>(bytes),
                                   static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
                     : std::string();
    }

  private:
    void check(int result) {
        if (result != SQLITE_OK) fail();
    }
    [[noreturn]] void fail() { throw InputError(context_ + ": " + sqlite3_errmsg(db_)); }

    sqlite3* db_;
    sqlite3_stmt* statement_ = nullptr;
    std::string context_;
};

void execute(sqlite3* db, const char* sql, const std::string& context) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string reason = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        throw InputError(context + ": " + reason);
    }
}

std::int64_t pragma(sqlite3* db, const char* sql, const std::string& context) {
    Statement statement(db, sql, context);
    return statement.step() ? statement.integer(0) : 0;
}

// A transaction that rolls back unless committed.
class Transaction {
  public:
    Transaction(sqlite3* db, std::string context) : db_(db), context_(std::move(context)) {
        // IMMEDIATE: the write lock is taken (or waited for) now, not at the first write, so two writers
        // never both read and then fail to upgrade.
        execute(db_, "BEGIN IMMEDIATE", context_);
    }
    ~Transaction() {
        if (!committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        execute(db_, "COMMIT", context_);
        committed_ = true;
    }

  private:
    sqlite3* db_;
    std::string context_;
    bool committed_ = false;
};

// Version 1, as the first archive wrote it; later versions are migrations from it (a fresh database runs
// them too, so every migration runs on every new archive).
constexpr const char* kSchemaV1 = R"SQL(
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
PRAGMA user_version = 1;
)SQL";

// Migrations: entry i takes version i + 1 to i + 2.
constexpr const char* kMigrations[] = {
    // 2: the strategies that ran, on the run's row, for `runs list --strategy`; indexes on the run of every
    // child row, without which deleting (eviction, `runs delete`) and loading a run scan every table.
    R"SQL(
ALTER TABLE runs ADD COLUMN strategies TEXT NOT NULL DEFAULT '';
UPDATE runs SET strategies = coalesce((SELECT group_concat(strategy, ',') FROM
    (SELECT strategy FROM stages WHERE stages.run_id = runs.id AND strategy <> '' ORDER BY position)), '');
CREATE INDEX stage_values_run ON stage_values(run_id);
CREATE INDEX builds_run ON builds(run_id);
CREATE INDEX timings_run ON timings(run_id);
CREATE INDEX histograms_run ON histograms(run_id);
CREATE INDEX runs_recorded_at ON runs(recorded_at);
PRAGMA user_version = 2;
)SQL",
    // 3: the output image's pixels (a lossless PNG under the per-run cap, record.hpp), for the diff's pixels.
    R"SQL(
CREATE TABLE outputs(run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, png BLOB NOT NULL);
PRAGMA user_version = 3;
)SQL",
};
static_assert(std::size(kMigrations) + 1 == kSchemaVersion);

// Creates or migrates the schema of `db` to kSchemaVersion, in one transaction (several processes opening a
// new archive at once: one creates it, the others find it made).
void migrate(sqlite3* db, const std::string& context) {
    // Most opens find the schema current: they take no write lock (a reader beside a writer does not wait).
    if (pragma(db, "PRAGMA user_version", context) == kSchemaVersion) return;
    Transaction transaction(db, context);
    std::int64_t version = pragma(db, "PRAGMA user_version", context);
    if (version > kSchemaVersion)
        throw InputError(context + ": its schema version " + std::to_string(version) +
                         " is newer than this HistoScope's " + std::to_string(kSchemaVersion));
    if (version == 0) {
        if (pragma(db, "SELECT count(*) FROM sqlite_schema", context) != 0)
            throw InputError(context + ": it is an SQLite database, but not a run archive");
        execute(db, kSchemaV1, context);
        version = 1;
    }
    for (; version < kSchemaVersion; ++version) execute(db, kMigrations[version - 1], context);
    transaction.commit();
}

std::string joined(const std::vector<std::uint64_t>& counts) {
    std::string text;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (i > 0) text += ',';
        text += std::to_string(counts[i]);
    }
    return text;
}

// The counts joined() wrote; text that is not theirs (a database edited by hand) throws InputError.
std::vector<std::uint64_t> split(const std::string& text, const std::string& context) {
    std::vector<std::uint64_t> counts;
    const char* at = text.data();
    const char* const end = text.data() + text.size();
    while (at < end) {
        std::uint64_t count = 0;
        const auto [next, error] = std::from_chars(at, end, count);
        if (error != std::errc() || (next != end && *next != ','))
            throw InputError(context + ": histogram counts '" + text +
                             "' are not numbers separated by commas");
        counts.push_back(count);
        at = next == end ? end : next + 1;
    }
    return counts;
}

// Inserts `run` unless its uid is there; returns its number either way.
std::int64_t insert(sqlite3* db, const Record& run, const std::string& context) {
    {
        Statement existing(db, "SELECT id FROM runs WHERE uid = ?", context);
        if (existing.bind(1, run.uid).step()) return existing.integer(0);
    }
    Statement row(
        db,
        "INSERT INTO runs(uid, recorded_at, version, command, device, driver, platform, image_path, "
        "image_width, image_height, image_hash, repetitions, bins, output_hash, strategies) "
        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        context);
    row.bind(1, run.uid)
        .bind(2, run.recordedAt)
        .bind(3, run.version)
        .bind(4, run.command)
        .bind(5, run.device);
    row.bind(6, run.driver)
        .bind(7, run.platform)
        .bind(8, run.image.path)
        .bind(9, std::int64_t{run.image.width});
    row.bind(10, std::int64_t{run.image.height})
        .bind(11, run.image.hash)
        .bind(12, std::int64_t{run.repetitions});
    row.bind(13, std::int64_t{run.bins}).bind(14, run.outputHash).bind(15, run.strategies()).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);

    Statement stage(db, "INSERT INTO stages VALUES(?, ?, ?, ?, ?, ?)", context);
    Statement value(db, "INSERT INTO stage_values VALUES(?, ?, ?, ?)", context);
    Statement build(db, "INSERT INTO builds VALUES(?, ?, ?, ?, ?)", context);
    for (std::size_t i = 0; i < run.stages.size(); ++i) {
        const StageEntry& entry = run.stages[i];
        const auto position = static_cast<std::int64_t>(i);
        stage.bind(1, id).bind(2, position).bind(3, entry.kind).bind(4, entry.requested);
        stage.bind(5, entry.strategy).bind(6, entry.note).run();
        for (const auto& [name, text] : entry.values)
            value.bind(1, id).bind(2, position).bind(3, name).bind(4, text).run();
        for (const auto& made : entry.builds)
            build.bind(1, id)
                .bind(2, position)
                .bind(3, made.source)
                .bind(4, made.options)
                .bind(5, made.sourceHash)
                .run();
    }
    Statement timing(db, "INSERT INTO timings VALUES(?, ?, ?, ?, ?, ?, ?)", context);
    for (const auto& record : run.timings) {
        timing.bind(1, id).bind(2, std::int64_t{record.repetition}).bind(3, record.step).bind(4, record.name);
        timing.bind(5, record.kind)
            .bind(6, record.device)
            .bind(7, static_cast<std::int64_t>(record.durationNs))
            .run();
    }
    Statement counts(db, "INSERT INTO histograms VALUES(?, ?, ?)", context);
    for (const auto& [channel, list] : run.histogram)
        counts.bind(1, id).bind(2, channel).bind(3, joined(list)).run();
    if (!run.outputPng.empty()) {
        Statement output(db, "INSERT INTO outputs VALUES(?, ?)", context);
        output.bind(1, id).bindBlob(2, run.outputPng).run();
    }
    return id;
}

Record loadFrom(sqlite3* db, std::int64_t id, const std::string& context) {
    Record run;
    Statement head(
        db,
        "SELECT id, uid, recorded_at, version, command, device, driver, platform, image_path, "
        "image_width, image_height, image_hash, repetitions, bins, output_hash FROM runs WHERE id = ?",
        context);
    if (!head.bind(1, id).step()) throw InputError(context + ": no run " + std::to_string(id));
    run.id = head.integer(0);
    run.uid = head.text(1);
    run.recordedAt = head.text(2);
    run.version = head.text(3);
    run.command = head.text(4);
    run.device = head.text(5);
    run.driver = head.text(6);
    run.platform = head.text(7);
    run.image = {head.text(8), static_cast<int>(head.integer(9)), static_cast<int>(head.integer(10)),
                 head.text(11)};
    run.repetitions = static_cast<int>(head.integer(12));
    run.bins = static_cast<int>(head.integer(13));
    run.outputHash = head.text(14);

    Statement stage(
        db, "SELECT kind, requested, strategy, note FROM stages WHERE run_id = ? ORDER BY position", context);
    for (stage.bind(1, id); stage.step();)
        run.stages.push_back({stage.text(0), stage.text(1), stage.text(2), stage.text(3), {}, {}});
    const auto at = [&](std::int64_t position) -> StageEntry& {
        if (position < 0 || position >= static_cast<std::int64_t>(run.stages.size()))
            throw InputError(context + ": run " + std::to_string(id) + " names a stage it does not have");
        return run.stages[static_cast<std::size_t>(position)];
    };
    Statement value(db, "SELECT position, name, value FROM stage_values WHERE run_id = ? ORDER BY rowid",
                    context);
    for (value.bind(1, id); value.step();) at(value.integer(0)).values[value.text(1)] = value.text(2);
    Statement build(
        db, "SELECT position, source, options, source_hash FROM builds WHERE run_id = ? ORDER BY rowid",
        context);
    for (build.bind(1, id); build.step();)
        at(build.integer(0)).builds.push_back({build.text(1), build.text(2), build.text(3)});
    Statement timing(db,
                     "SELECT repetition, step, name, kind, device, duration_ns FROM timings WHERE run_id = ? "
                     "ORDER BY rowid",
                     context);
    for (timing.bind(1, id); timing.step();)
        run.timings.push_back({static_cast<int>(timing.integer(0)), timing.text(1), timing.text(2),
                               timing.text(3), timing.text(4),
                               static_cast<std::uint64_t>(timing.integer(5))});
    Statement counts(db, "SELECT channel, counts FROM histograms WHERE run_id = ? ORDER BY rowid", context);
    for (counts.bind(1, id); counts.step();) run.histogram[counts.text(0)] = split(counts.text(1), context);
    Statement output(db, "SELECT png FROM outputs WHERE run_id = ?", context);
    if (output.bind(1, id).step()) run.outputPng = output.blob(0);
    return run;
}

// Oldest first, never `kept` (the run just recorded): beyond maxRuns runs, then while the pages in use hold
// more than maxBytes.
void evict(sqlite3* db, const Settings& settings, std::int64_t kept, const std::string& context) {
    Statement count(db, "SELECT count(*) FROM runs", context);
    count.step();
    std::int64_t runs = count.integer(0);
    const auto usedBytes = [&] {
        return static_cast<std::uint64_t>(
            (pragma(db, "PRAGMA page_count", context) - pragma(db, "PRAGMA freelist_count", context)) *
            pragma(db, "PRAGMA page_size", context));
    };
    Statement oldest(db, "DELETE FROM runs WHERE id = (SELECT min(id) FROM runs WHERE id <> ?)", context);
    while (runs > 1 && (runs > settings.maxRuns || usedBytes() > settings.maxBytes)) {
        oldest.bind(1, kept).run();
        --runs;
    }
}

sqlite3* openDatabase(const std::filesystem::path& path, int flags, const std::string& context) {
    sqlite3* db = nullptr;
    const int result = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    if (result != SQLITE_OK) {
        const std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(result);
        sqlite3_close(db);
        throw InputError(context + ": " + reason);
    }
    return db;
}

// The size the database may not grow past (PRAGMA max_page_count).
std::uint64_t growthLimit(const Settings& settings) {
    return 2 * settings.maxBytes + (4u << 20);
}

// The database in memory that a pending file holds, and the file written from one.
struct Memory {
    sqlite3* db;
    ~Memory() { sqlite3_close(db); }
};

}  // namespace

std::filesystem::path Settings::pendingFolder() const {
    return std::filesystem::path(path.native() + ".pending");
}

Settings Settings::fromEnvironment() {
    Settings settings;
    const auto variable = [](const char* name) -> std::string {
        const char* value = std::getenv(name);
        return value ? value : "";
    };
    if (const std::string given = variable("HISTOSCOPE_ARCHIVE"); !given.empty()) {
        settings.path = given;
    } else {
        std::filesystem::path data = variable("XDG_DATA_HOME");
        // The XDG rule: a relative value is invalid and ignored.
        if (data.empty() || data.is_relative())
            data = std::filesystem::path(variable("HOME")) / ".local/share";
        settings.path = data / "histoscope" / "runs.sqlite";
    }
    const auto positive = [&](const char* name) -> std::optional<std::int64_t> {
        const std::string text = variable(name);
        if (text.empty()) return std::nullopt;
        char* end = nullptr;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (*end != '\0' || value <= 0)
            throw UsageError(std::string(name) + ": '" + text + "' is not a positive integer");
        return value;
    };
    if (const auto runs = positive("HISTOSCOPE_ARCHIVE_MAX_RUNS")) settings.maxRuns = *runs;
    if (const auto megabytes = positive("HISTOSCOPE_ARCHIVE_MAX_MB"))
        settings.maxBytes = static_cast<std::uint64_t>(*megabytes) << 20;
    return settings;
}

Archive::Archive(Settings settings) : settings_(std::move(settings)) {
    const std::string context = settings_.path.string() + ": cannot open the run archive";
    std::error_code error;
    if (settings_.path.has_parent_path())
        std::filesystem::create_directories(settings_.path.parent_path(), error);
    if (error)
        throw InputError(context + ": " + settings_.path.parent_path().string() + ": " + error.message());
    db_ = openDatabase(settings_.path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, context);
    try {
        sqlite3_busy_timeout(db_, settings_.busyTimeoutMs);
        execute(db_, "PRAGMA foreign_keys = ON", context);
        // Switching to WAL takes the database's lock without the busy handler: several processes opening a
        // new archive at once retry for as long as they would wait for a lock.
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(settings_.busyTimeoutMs);
        for (;;) {
            char* message = nullptr;
            const int result = sqlite3_exec(db_, "PRAGMA journal_mode = WAL", nullptr, nullptr, &message);
            const std::string reason = message ? message : sqlite3_errmsg(db_);
            sqlite3_free(message);
            if (result == SQLITE_OK) break;
            if (result != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
                throw InputError(context + ": " + reason);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        // A backstop beside the caps, which eviction keeps after each run: the file never grows past twice
        // the byte cap plus 4 MiB, so one runaway run is refused as "full" instead of filling the disk.
        const std::int64_t pageSize = pragma(db_, "PRAGMA page_size", context);
        const std::uint64_t limit = growthLimit(settings_);
        const std::string maxPages =
            "PRAGMA max_page_count = " + std::to_string(limit / static_cast<std::uint64_t>(pageSize));
        pragma(db_, maxPages.c_str(), context);
        migrate(db_, context);
    } catch (...) {
        sqlite3_close(db_);
        throw;
    }
}

Archive::~Archive() {
    sqlite3_close(db_);
}

std::int64_t Archive::add(const Record& run) {
    const std::string context = settings_.path.string() + ": cannot record the run";
    std::int64_t id = 0;
    {
        Transaction transaction(db_, context);
        id = insert(db_, run, context);
        evict(db_, settings_, id, context);
        transaction.commit();
    }
    writePending();
    return id;
}

int Archive::writePending() {
    const std::filesystem::path folder = settings_.pendingFolder();
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) return 0;
    int written = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        if (entry.path().extension() != ".sqlite") continue;  // the atomic writer's temporaries, say
        const std::string file = entry.path().string();
        try {
            // At most what the database may grow to: a larger run could not be written anyway.
            const std::string bytes = io::readWholeFile(entry.path(), growthLimit(settings_), "pending run");
            Memory pending{openDatabase(":memory:", SQLITE_OPEN_READWRITE, file)};
            auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes.size()));
            if (copy == nullptr) throw InputError(file + ": out of memory");
            std::copy(bytes.begin(), bytes.end(), copy);
            if (sqlite3_deserialize(pending.db, "main", copy, static_cast<sqlite3_int64>(bytes.size()),
                                    static_cast<sqlite3_int64>(bytes.size()),
                                    SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
                SQLITE_OK)
                throw InputError(file + ": " + sqlite3_errmsg(pending.db));
            migrate(pending.db, file);  // kept by an older HistoScope
            Statement ids(pending.db, "SELECT id FROM runs", file);
            std::vector<Record> runs;
            while (ids.step()) runs.push_back(loadFrom(pending.db, ids.integer(0), file));
            const std::string context = settings_.path.string() + ": cannot record the pending run " + file;
            Transaction transaction(db_, context);
            for (const auto& run : runs) evict(db_, settings_, insert(db_, run, context), context);
            transaction.commit();
            std::filesystem::remove(entry.path(), error);
            written += static_cast<int>(runs.size());
        } catch (const Error& failure) {
            warn(std::string(failure.what()) + " (the pending run stays where it is)");
        }
    }
    return written;
}

std::vector<Listed> Archive::list(const Filter& filter) const {
    const std::string context = settings_.path.string() + ": cannot read the run archive";
    Statement rows(
        db_,
        "SELECT id, recorded_at, command, device, image_path, image_width, image_height, image_hash, "
        "strategies, repetitions FROM runs WHERE "
        "(?1 = '' OR instr(image_path, ?1) > 0 OR image_hash = ?1) AND "
        "(?2 = '' OR instr(lower(device), lower(?2)) > 0) AND "
        "(?3 = '' OR instr(',' || lower(strategies) || ',', ',' || lower(?3) || ',') > 0) AND "
        "(?4 = '' OR recorded_at >= ?4) AND (?5 = '' OR recorded_at < ?5) ORDER BY id",
        context);
    rows.bind(1, filter.image).bind(2, filter.device).bind(3, filter.strategy).bind(4, filter.since);
    rows.bind(5, filter.until);
    std::vector<Listed> listed;
    while (rows.step())
        listed.push_back({rows.integer(0),
                          rows.text(1),
                          rows.text(2),
                          rows.text(3),
                          {rows.text(4), static_cast<int>(rows.integer(5)), static_cast<int>(rows.integer(6)),
                           rows.text(7)},
                          rows.text(8),
                          static_cast<int>(rows.integer(9))});
    return listed;
}

Record Archive::load(std::int64_t id) const {
    return loadFrom(db_, id, settings_.path.string());
}

bool Archive::remove(std::int64_t id) {
    const std::string context = settings_.path.string() + ": cannot delete run " + std::to_string(id);
    Statement statement(db_, "DELETE FROM runs WHERE id = ?", context);
    statement.bind(1, id).run();
    return sqlite3_changes(db_) > 0;
}

Recorded record(const Settings& settings, const Record& run) {
    std::string reason;
    try {
        Archive archive(settings);
        return {archive.add(run), {}, {}};
    } catch (const std::exception& failure) {
        reason = failure.what();
    }
    // The run as an archive of its own, in memory, then one file: the pending folder holds what the archive
    // holds, read back by the same code (writePending).
    const std::filesystem::path file = settings.pendingFolder() / (run.uid + ".sqlite");
    try {
        Memory pending{openDatabase(":memory:", SQLITE_OPEN_READWRITE, file.string())};
        migrate(pending.db, file.string());
        {
            Transaction transaction(pending.db, file.string());
            insert(pending.db, run, file.string());
            transaction.commit();
        }
        sqlite3_int64 size = 0;
        const std::unique_ptr<unsigned char, decltype(&sqlite3_free)> bytes(
            sqlite3_serialize(pending.db, "main", &size, 0), sqlite3_free);
        if (!bytes)
            throw InputError(file.string() + ": cannot serialize the run: " + sqlite3_errmsg(pending.db));
        std::error_code error;
        std::filesystem::create_directories(settings.pendingFolder(), error);
        if (error) throw InputError(settings.pendingFolder().string() + ": " + error.message());
        writeFileAtomically(file,
                            {reinterpret_cast<const char*>(bytes.get()), static_cast<std::size_t>(size)});
    } catch (const std::exception& failure) {
        return {0, reason + "; the run is lost (" + failure.what() + ")", {}};
    }
    return {
        0, reason + "; the run is kept in " + file.string() + " and written with the next run recorded there",
        file};
}

void recordOrWarn(const Settings& settings, const Record& run) {
    const Recorded done = record(settings, run);
    if (done.problem.empty()) return;
    if (done.pending.empty()) throw InputError(done.problem);
    warn(done.problem);
}

}  // namespace hs::archive
