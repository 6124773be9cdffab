// histoscope-cli batch PATH... : pipeline's stages over many images with one device set-up and one program
// load for the whole batch (one session per device, reused for every image), one JSON line per image and
// device.
#include <fcntl.h>
#include <fnmatch.h>
#include <unistd.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "archive/record.hpp"
#include "cli/commands/pipeline_command.hpp"
#include "cli/commands/record_option.hpp"
#include "cli/commands/terminal_line.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/runtime/atomic_file.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/util/hash.hpp"
#include "io/decode/image_codecs.hpp"
#include "io/files/files.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"
#include "session/session.hpp"

namespace hs::cli {

namespace {

namespace fs = std::filesystem;
using transform::addPipelineStageOptions;
using transform::pipelineStagesFrom;
using transform::writeStagesRunMembers;

// The exit codes of a batch that ran to its end with a failed image, and of one stopped by SIGINT (the
// shell's 128 + signal). A usage, input or OpenCL error before the first image keeps its own code (2, 3, 4).
constexpr int kSomeImageFailed = 6;
constexpr int kInterrupted = 130;

// ---- The files ------------------------------------------------------------------------------------------

struct InputFile {
    fs::path path;      // as found: the PATH argument, joined with the names below it
    fs::path relative;  // below its PATH argument (a file argument: its name), for --out-dir
};

QString shown(const fs::path& path) {
    return io::pathFromNative(path.native());
}

// A file of a folder is taken when its name matches --glob (shell wildcards, a leading '.' matched only
// explicitly), else when it has a suffix the decoders read and does not start with '.'.
bool taken(const fs::path& name, const std::optional<std::string>& glob) {
    const std::string text = name.native();
    if (glob) return fnmatch(glob->c_str(), text.c_str(), FNM_PERIOD) == 0;
    if (text.empty() || text.front() == '.') return false;
    std::string suffix = name.extension().native();
    if (suffix.empty()) return false;
    suffix.erase(0, 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    const auto& readable = io::readableSuffixesList();
    return std::find(readable.begin(), readable.end(), suffix) != readable.end();
}

// Every file the PATH arguments name, sorted by their path's bytes (what --shard and the order of the lines
// follow), each once. A file argument is taken as it is; a folder gives its files (and with `recursive` those
// of its subfolders, but not of folders starting with '.' nor of links to folders).
std::vector<InputFile> collectFiles(const QStringList& arguments, bool recursive,
                                    const std::optional<std::string>& glob) {
    std::vector<InputFile> files;
    for (const QString& argument : arguments) {
        const fs::path root = io::nativePath(argument);
        std::error_code error;
        const fs::file_status status = fs::status(root, error);
        if (error || !fs::exists(status))
            throw InputError(argument.toStdString() + ": no such file or folder");
        if (!fs::is_directory(status)) {
            files.push_back({root, root.filename()});
            continue;
        }
        fs::recursive_directory_iterator entry(root, error), end;
        for (; !error && entry != end; entry.increment(error)) {
            const fs::path name = entry->path().filename();
            if (entry->is_directory(error)) {
                if (!recursive || name.native().front() == '.' || entry->is_symlink(error))
                    entry.disable_recursion_pending();
                continue;
            }
            if (entry->is_regular_file(error) && taken(name, glob))
                files.push_back({entry->path(), entry->path().lexically_relative(root)});
        }
        if (error)
            throw InputError(argument.toStdString() + ": cannot list the folder (" + error.message() + ")");
    }
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.path.native() < b.path.native(); });
    files.erase(std::unique(files.begin(), files.end(),
                            [](const auto& a, const auto& b) { return a.path == b.path; }),
                files.end());
    return files;
}

// --shard I/N: the files whose place in the sorted list is I modulo N, so the N shards cover it exactly once.
void keepShard(const ArgumentParser& parser, std::vector<InputFile>& files) {
    if (!parser.isSet("shard")) return;
    const QString value = parser.value("shard");
    const QStringList parts = value.split('/');
    bool okIndex = false, okCount = false;
    const int index = parts.size() == 2 ? parts[0].toInt(&okIndex) : -1;
    const int count = parts.size() == 2 ? parts[1].toInt(&okCount) : 0;
    if (!okIndex || !okCount || count < 1 || index < 0 || index >= count)
        throw parser.usageError("--shard takes I/N with 0 <= I < N (0/4 is the first of four), got '" +
                                value + "'");
    std::vector<InputFile> kept;
    for (std::size_t i = static_cast<std::size_t>(index); i < files.size();
         i += static_cast<std::size_t>(count))
        kept.push_back(std::move(files[i]));
    files = std::move(kept);
}

// "fnv1a64:<16 hex digits>" of the file's bytes, read once through the bounded regular-file reader.
std::string contentHash(const fs::path& path) {
    io::RegularFile file(path, "image file");
    std::uint64_t hash = fnv1a64({});
    std::string chunk;
    for (std::uint64_t left = file.size(); left > 0;) {
        chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(left, std::uint64_t{1} << 20)));
        file.read(chunk.data(), chunk.size());
        hash = fnv1a64(chunk, hash);
        left -= chunk.size();
    }
    return "fnv1a64:" + toHex(hash);
}

// ---- The devices ----------------------------------------------------------------------------------------

// --devices all, or selectors separated by commas (each as --device takes it); none: the default device.
std::vector<DeviceInfo> devicesFrom(const ArgumentParser& parser, const std::vector<DeviceInfo>& present) {
    const QString value = parser.value("devices").trimmed();
    if (value.compare("all", Qt::CaseInsensitive) == 0)
        return present.empty() ? std::vector<DeviceInfo>{selectDevice(present, "")} : present;
    std::vector<DeviceInfo> chosen;
    for (const QString& selector : value.isEmpty() ? QStringList{QString()} : value.split(',')) {
        if (!value.isEmpty() && selector.trimmed().isEmpty())
            throw parser.usageError("--devices has an empty selector in '" + value + "'");
        const DeviceInfo& device = selectDevice(present, selector.trimmed().toStdString());
        for (const auto& earlier : chosen)
            if (earlier.selector() == device.selector())
                throw parser.usageError("--devices names device " + text(device.selector()) + " twice");
        chosen.push_back(device);
    }
    return chosen;
}

// What identifies a line's device for --resume.
std::string deviceKey(const std::string& selector, const std::string& name) {
    return selector + '\n' + name;
}

// ---- --out-dir --------------------------------------------------------------------------------------------

// DIR/<the path below its PATH argument, suffix .png>; with several devices DIR/<P-D>/..., one folder per
// device. Two inputs that would write one output are refused before any work.
std::vector<fs::path> outputsFor(const ArgumentParser& parser, const std::vector<InputFile>& files,
                                 const std::vector<DeviceInfo>& devices, std::size_t device) {
    if (!parser.isSet("out-dir")) return {};
    fs::path folder = io::nativePath(parser.value("out-dir"));
    if (devices.size() > 1) {
        std::string name = devices[device].selector();
        std::replace(name.begin(), name.end(), ':', '-');
        folder /= name;
    }
    std::vector<fs::path> outputs;
    std::map<fs::path, const InputFile*> taken;
    for (const auto& file : files) {
        fs::path out = folder / file.relative;
        out.replace_extension(".png");
        if (const auto [at, added] = taken.emplace(out, &file); !added)
            throw parser.usageError("--out-dir: " + shown(at->second->path) + " and " + shown(file.path) +
                                    " would both be written to " + shown(out));
        outputs.push_back(std::move(out));
    }
    return outputs;
}

// ---- The JSONL --------------------------------------------------------------------------------------------

// The lines of an earlier --jsonl that --resume keeps: (file, content hash, device) of each "ok" line. A last
// line without its newline (a process killed while writing it) is cut off, so that the next line starts
// whole.
std::set<std::string> finishedLines(const fs::path& path) {
    std::set<std::string> finished;
    QFile file(shown(path));
    if (!file.exists()) return finished;
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(path.native() + ": cannot read the JSONL (" + file.errorString().toStdString() +
                         ")");
    qint64 whole = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.endsWith('\n')) break;
        whole = file.pos();
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        const QJsonObject device = object.value("device").toObject();
        if (object.value("status").toString() != "ok") continue;
        finished.insert(object.value("file").toString().toStdString() + '\n' +
                        object.value("content_hash").toString().toStdString() + '\n' +
                        deviceKey(device.value("selector").toString().toStdString(),
                                  device.value("name").toString().toStdString()));
    }
    if (whole != file.size()) {
        file.close();
        std::error_code error;
        fs::resize_file(path, static_cast<std::uintmax_t>(whole), error);
        if (error)
            throw InputError(path.native() + ": cannot cut its unfinished last line (" + error.message() +
                             ")");
    }
    return finished;
}

// Where the lines go: --jsonl's file (replaced, or appended to with --resume) or stdout. Each line is one
// write() of the whole line, so the file holds whole lines after an interruption.
class LineSink {
  public:
    LineSink(const fs::path& path, bool append) : name_(path.empty() ? "stdout" : path.native()) {
        if (path.empty()) return;
        checkReplaceable(path);
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0666);
        if (fd_ < 0) fail();
    }
    ~LineSink() {
        if (fd_ != STDOUT_FILENO) ::close(fd_);
    }
    LineSink(const LineSink&) = delete;
    LineSink& operator=(const LineSink&) = delete;

    // `line`: one JSON document, ending in its newline (jsonDocument).
    void write(const std::string& line) {
        for (std::size_t done = 0; done < line.size();) {
            const ssize_t wrote = ::write(fd_, line.data() + done, line.size() - done);
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote < 0) fail();
            done += static_cast<std::size_t>(wrote);
        }
    }
    // On the disk before the exit code says the lines are there.
    void sync() {
        if (fd_ != STDOUT_FILENO && ::fdatasync(fd_) != 0) fail();
    }

  private:
    [[noreturn]] void fail() const {
        throw InputError(name_ + ": cannot write the JSONL (" + std::strerror(errno) + ")");
    }
    std::string name_;
    int fd_ = STDOUT_FILENO;
};

// ---- SIGINT
// -------------------------------------------------------------------------------------------------

std::atomic<bool> interrupted{false};
struct sigaction beforeBatch;

// The first SIGINT asks the batch to stop after the images in hand; the action from before the batch (the
// atomic writer's, which removes a write's temporary, then ends the process) takes the second.
extern "C" void stopBatch(int) {
    interrupted = true;
    ::sigaction(SIGINT, &beforeBatch, nullptr);
}

// While alive, SIGINT stops the batch as stopBatch says, unless the process was started with SIGINT ignored
// (`nohup`, a background job of a script), which it then keeps ignoring.
class HandleInterrupt {
  public:
    HandleInterrupt() {
        interrupted = false;
        removeTemporariesOnInterrupt();
        struct sigaction current {};
        if (::sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
        struct sigaction action {};
        action.sa_handler = stopBatch;
        sigemptyset(&action.sa_mask);
        installed_ = ::sigaction(SIGINT, &action, &beforeBatch) == 0;
    }
    ~HandleInterrupt() {
        if (installed_) ::sigaction(SIGINT, &beforeBatch, nullptr);
    }
    HandleInterrupt(const HandleInterrupt&) = delete;
    HandleInterrupt& operator=(const HandleInterrupt&) = delete;

  private:
    bool installed_ = false;
};

// ---- The batch
// ----------------------------------------------------------------------------------------------

// One line of the JSONL, and whether it tells of a failure.
struct Line {
    std::string text;
    bool failed = false;
};

// An output image a device thread ran, waiting for a file thread to encode and write it (--out-dir), so that
// the device goes on with the next image meanwhile.
struct Encode {
    std::size_t item = 0;
    std::size_t device = 0;
    fs::path target;
    std::vector<std::uint8_t> pixels;
    int width = 0;
    int height = 0;
};

// One image of the batch as it moves through: read and decoded by a file thread, run by each device's
// thread, its outputs encoded by a file thread, its lines written in order by the main thread.

struct Item {
    bool ready = false;  // hashed and decoded (or failed at it)
    std::string hash;    // empty when the file could not be read
    std::string error;   // why it could not be read or decoded
    std::shared_ptr<ImageRGBA8> image;
    std::vector<bool> wanted;                // per device: not already in the JSONL (--resume)
    std::vector<std::optional<Line>> lines;  // per device, once run
    std::size_t devicesPassed = 0;           // device threads done with it (run, skipped or stopped)
    std::size_t encodesPending = 0;          // its outputs not yet written (each line waits for its file)
};

struct Device {
    std::unique_ptr<session::Session> session;
    DeviceContext* context = nullptr;
    std::vector<fs::path> outputs;  // per file; empty without --out-dir
};

class Batch {
  public:
    Batch(std::vector<InputFile> files, std::vector<Device> devices, const stages::StageList& stages,
          int jobs, std::set<std::string> finished, std::optional<archive::Settings> recordIn)
        : files_(std::move(files)),
          devices_(std::move(devices)),
          stages_(stages),
          jobs_(jobs),
          finished_(std::move(finished)),
          recordIn_(std::move(recordIn)),
          items_(files_.size()) {
        for (auto& item : items_) item.lines.resize(devices_.size());
    }

    // Runs the batch, writing each image's lines in the order of the files (and of --devices within one),
    // and returns the exit code.
    int run(LineSink& sink) {
        std::vector<std::thread> threads;
        for (int j = 0; j < jobs_; ++j) threads.emplace_back([this] { guarded([this] { handleFiles(); }); });
        for (std::size_t d = 0; d < devices_.size(); ++d)
            threads.emplace_back([this, d] {
                guarded([this, d] { work(d); });
                const std::lock_guard lock(mutex_);
                ++devicesDone_;
                cv_.notify_all();
            });
        const auto start = std::chrono::steady_clock::now();
        std::size_t failed = 0, runs = 0, written = 0;
        std::exception_ptr sinkError;
        for (std::size_t i = 0; i < items_.size(); ++i) {
            std::unique_lock lock(mutex_);
            const auto whole = [&] {
                return items_[i].devicesPassed == devices_.size() && items_[i].encodesPending == 0;
            };
            waitFor(lock, whole);
            if (!whole()) break;  // stopped
            std::vector<std::optional<Line>> lines = std::move(items_[i].lines);
            items_[i].image.reset();
            lock.unlock();
            try {
                for (auto& line : lines) {
                    if (!line) continue;
                    failed += line->failed ? 1 : 0;
                    ++runs;
                    sink.write(line->text);
                }
            } catch (...) {  // the JSONL cannot be written: stop, and say so once the threads are back
                sinkError = std::current_exception();
                break;
            }
            lock.lock();
            written_ = ++written;
            cv_.notify_all();
            lock.unlock();
            showProgress(written, start);
        }
        stop();
        for (auto& thread : threads) thread.join();
        // Stopped: what the devices finished after the last whole image still gets its lines (the file
        // threads wrote every output in hand before they returned).
        for (std::size_t i = written; i < items_.size() && !sinkError; ++i)
            for (auto& line : items_[i].lines)
                if (line) {
                    failed += line->failed ? 1 : 0;
                    ++runs;
                    sink.write(line->text);
                }
        terminal::clear();
        if (internalError_) std::rethrow_exception(internalError_);
        if (sinkError) std::rethrow_exception(sinkError);
        sink.sync();
        if (interrupted) {
            tell(QString("batch: interrupted after %1 of %2 images; --resume goes on from there")
                     .arg(written)
                     .arg(items_.size()));
            return kInterrupted;
        }
        if (failed > 0) {
            tell(QString("batch: %1 of %2 runs failed (their lines have \"status\":\"failed\" and the error)")
                     .arg(failed)
                     .arg(runs));
            return kSomeImageFailed;
        }
        return 0;
    }

  private:
    bool stopping() const { return interrupted || stopped_; }
    void stop() {
        const std::lock_guard lock(mutex_);
        stopped_ = true;
        cv_.notify_all();
    }
    // Waits until `done` or the batch stops; SIGINT cannot wake a condition variable, so the flag is looked
    // at every 100 ms as well.
    template <typename Done>
    void waitFor(std::unique_lock<std::mutex>& lock, Done done) {
        while (!done() && !stopping()) cv_.wait_for(lock, std::chrono::milliseconds(100));
    }

    // A bug in a thread (anything but the per-image errors) stops the batch and is rethrown by run().
    template <typename Body>
    void guarded(Body body) {
        try {
            body();
        } catch (...) {
            const std::lock_guard lock(mutex_);
            if (!internalError_) internalError_ = std::current_exception();
            stopped_ = true;
            cv_.notify_all();
        }
    }

    // File thread: writes the outputs the devices ran (first, as their lines wait for them) and reads the
    // next files, at most `jobs + devices` images ahead of the writer (the memory they hold). It returns once
    // the device threads have returned and no output is left to write: when the batch stops, the outputs of
    // the images in hand are still written, as their lines will be.
    void handleFiles() {
        const std::size_t ahead = static_cast<std::size_t>(jobs_) + devices_.size();
        for (;;) {
            std::unique_lock lock(mutex_);
            const auto canRead = [&] {
                return !stopping() && next_ < items_.size() && next_ < written_ + ahead;
            };
            const auto finished = [&] {
                return devicesDone_ == devices_.size() && (stopping() || next_ >= items_.size());
            };
            while (encodes_.empty() && !canRead() && !finished())
                cv_.wait_for(lock, std::chrono::milliseconds(100));  // SIGINT wakes no one: look again
            if (!encodes_.empty()) {
                Encode encode = std::move(encodes_.front());
                encodes_.pop_front();
                lock.unlock();
                write(encode);
            } else if (canRead()) {
                const std::size_t i = next_++;
                lock.unlock();
                decode(i);
            } else {
                return;
            }
        }
    }

    // Hashes file `i` and decodes it unless every device already has it (--resume).
    void decode(std::size_t i) {
        Item item;
        item.lines.resize(devices_.size());
        const std::string file = shown(files_[i].path).toStdString();
        try {
            item.hash = contentHash(files_[i].path);
            for (const auto& device : devices_) {
                const DeviceInfo& info = device.context->info();
                item.wanted.push_back(!finished_.contains(file + '\n' + item.hash + '\n' +
                                                          deviceKey(info.selector(), info.name)));
            }
            if (std::find(item.wanted.begin(), item.wanted.end(), true) != item.wanted.end())
                item.image = std::make_shared<ImageRGBA8>(io::loadImage(shown(files_[i].path)));
        } catch (const Error& error) {
            item.error = error.what();
        } catch (const std::bad_alloc&) {
            item.error = file + ": out of memory";
        }
        item.wanted.resize(devices_.size(), true);  // an unreadable file is tried again: a line each
        item.ready = true;
        const std::lock_guard lock(mutex_);
        items_[i] = std::move(item);
        cv_.notify_all();
    }

    // Writes one output; a file that cannot be written turns its line into a failure.
    void write(Encode& encode) {
        std::optional<Line> failure;
        try {
            std::error_code error;
            fs::create_directories(encode.target.parent_path(), error);
            if (error)
                throw InputError(encode.target.parent_path().native() + ": cannot make the folder (" +
                                 error.message() + ")");
            io::saveImage(shown(encode.target), encode.pixels.data(), encode.width, encode.height);
        } catch (const Error& error) {
            failure = failedLine(encode.device, encode.item, error.what());
        } catch (const std::bad_alloc&) {
            failure = failedLine(encode.device, encode.item,
                                 shown(encode.target).toStdString() + ": out of memory");
        }
        const std::lock_guard lock(mutex_);
        Item& item = items_[encode.item];
        if (failure) item.lines[encode.device] = std::move(failure);
        --item.encodesPending;
        cv_.notify_all();
    }

    // Device thread: every image in order, each run as `pipeline` runs it, until the files end or the batch
    // stops (the image in hand is finished first).
    void work(std::size_t d) {
        const terminal::ShowBuilds builds;
        for (std::size_t i = 0; i < items_.size(); ++i) {
            std::unique_lock lock(mutex_);
            waitFor(lock, [&] { return items_[i].ready; });
            if (stopping()) return;
            Item& item = items_[i];
            std::optional<Line> line;
            std::optional<Encode> encode;
            if (item.wanted[d]) {
                std::shared_ptr<ImageRGBA8> image = item.image;
                lock.unlock();
                line = runOne(d, i, item, image, encode);
                lock.lock();
            }
            item.lines[d] = std::move(line);
            if (encode) {
                ++item.encodesPending;
                encodes_.push_back(std::move(*encode));
            }
            ++item.devicesPassed;
            cv_.notify_all();
        }
    }

    // The line of image `i` on device `d` that failed with `error`. The item's hash is set before any device
    // runs it and not changed after.
    Line failedLine(std::size_t d, std::size_t i, const std::string& error) const {
        const std::string& hash = items_[i].hash;
        return Line{jsonDocument(
                        [&](JsonWriter& json) {
                            json.beginObject()
                                .field("file", shown(files_[i].path).toStdString())
                                .field("status", "failed");
                            json.field("error", error);
                            if (!hash.empty()) json.field("content_hash", hash);
                            json.key("device");
                            writeDeviceJson(json, devices_[d].context->info());
                            json.endObject();
                        },
                        JsonWriter::Layout::Compact),
                    true};
    }

    // The line of image `i` on device `d`: pipeline's JSON object plus the file, its status and content hash,
    // and how many programs this run built (0 once the batch's first image has built them). With --out-dir
    // the output's pixels go to `encode`, for a file thread to write before the line is. With --record the
    // run goes into the run archive as pipeline --record's does (a run that cannot be kept fails its line).
    Line runOne(std::size_t d, std::size_t i, const Item& item, const std::shared_ptr<ImageRGBA8>& image,
                std::optional<Encode>& encode) {
        Device& device = devices_[d];
        const QString path = shown(files_[i].path);
        const auto failed = [&](const std::string& error) { return failedLine(d, i, error); };
        if (!image) return failed(item.error);
        try {
            const archive::ImageIdentity identity =
                recordIn_ ? archive::identify(path.toStdString(), *image) : archive::ImageIdentity{};
            // One device takes the pixels (the run consumes them, as pipeline's does); several copy them.
            std::vector<std::uint8_t> pixels =
                devices_.size() == 1 ? std::move(image->pixels) : image->pixels;
            const std::size_t builtBefore = device.context->sourceBuilds();
            session::RunReport ran = device.session->run(
                *device.context, PixelSource(std::move(pixels), image->width, image->height), stages_);
            QString out;
            archive::OutputImage output;
            const bool keepOutput = !device.outputs.empty();
            // The archive keeps an image stage's output (the diff's pixels), as pipeline --record does.
            const bool recordOutput =
                recordIn_ && std::any_of(stages_.begin(), stages_.end(),
                                         [](const auto& stage) { return stage->kind().producesImage(); });
            if (keepOutput || recordOutput) {
                const int width = ran.result.image.width();
                const int height = ran.result.image.height();
                std::optional<Encode> pending;
                if (keepOutput) pending = Encode{i, d, device.outputs[i], {}, width, height};
                ran.result.withPixels([&](const std::uint8_t* data) {
                    if (pending)
                        pending->pixels.assign(data, data + 4 * static_cast<std::size_t>(width) *
                                                                static_cast<std::size_t>(height));
                    if (recordOutput) output = archive::outputOf(width, height, data);
                });
                if (pending) {
                    out = shown(pending->target);
                    encode = std::move(pending);
                }
            }
            if (recordIn_)
                archive::recordOrWarn(*recordIn_, archive::recordOf("histoscope-cli batch", identity, stages_,
                                                                    ran, std::move(output)));
            const std::size_t built = device.context->sourceBuilds() - builtBefore;
            return Line{jsonDocument(
                [&](JsonWriter& json) {
                    json.beginObject().field("file", path.toStdString()).field("status", "ok");
                    json.field("content_hash", item.hash).field("programs_built", built);
                    writeStagesRunMembers(json, {path, image->width, image->height, out,
                                                 device.context->info(), ran.result, stages_});
                    json.endObject();
                },
                JsonWriter::Layout::Compact)};
        } catch (const Error& error) {
            return failed(error.what());
        } catch (const std::bad_alloc&) {
            return failed(path.toStdString() + ": out of memory");
        }
    }

    // files done/total, rate, time left: on a terminal only.
    void showProgress(std::size_t written, std::chrono::steady_clock::time_point start) const {
        if (!terminal::isTerminal()) return;
        const std::size_t total = items_.size();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rate = seconds > 0 ? static_cast<double>(written) / seconds : 0;
        constexpr std::size_t kBar = 24;
        const std::size_t filled = total == 0 ? kBar : kBar * written / total;
        std::string line = "[" + std::string(filled, '#') + std::string(kBar - filled, '.') + "] " +
                           std::to_string(written) + "/" + std::to_string(total) + " files";
        std::ostringstream figures;
        figures.precision(3);
        figures << "  " << rate << " files/s";
        if (rate > 0) {
            const auto left = static_cast<long>(static_cast<double>(total - written) / rate + 0.5);
            figures << "  " << left / 60 << ":" << (left % 60 < 10 ? "0" : "") << left % 60 << " left";
        }
        terminal::show(line + figures.str());
    }

    // One line for the user, beside the error lines (the JSONL may be on stdout).
    static void tell(const QString& message) {
        std::FILE* out = terminal::userStream();
        std::fprintf(out, "histoscope-cli: %s\n", message.toLocal8Bit().constData());
        std::fflush(out);
    }

    std::vector<InputFile> files_;
    std::vector<Device> devices_;
    const stages::StageList& stages_;
    int jobs_;
    std::set<std::string> finished_;
    std::optional<archive::Settings> recordIn_;  // --record

    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Item> items_;      // under mutex_, but a device thread reads its item's pixels outside it
    std::size_t next_ = 0;         // the next file a decoder takes
    std::size_t written_ = 0;      // images whose lines are written
    std::size_t devicesDone_ = 0;  // device threads returned
    std::deque<Encode> encodes_;   // outputs waiting for a file thread, oldest first
    bool stopped_ = false;         // an error or the end: the threads return
    std::exception_ptr internalError_;
};

void declare(ArgumentParser& parser, const QStringList&) {
    parser.addRepeatedPositional(
        "PATH",
        "Image files and folders. A folder gives its files with an image suffix (png, jpg, jpeg, bmp, "
        "gif, tif, tiff, webp; names starting with '.' skipped), or those --glob matches.");
    parser.addFlag("recursive",
                   "Take the files of subfolders too (not of folders starting with '.', nor of "
                   "links to folders).");
    parser.addOption(
        "glob", "PATTERN",
        "Take the files of folders whose name matches PATTERN (shell wildcards * ? [...], quoted; a "
        "leading '.' only when the pattern starts with one) instead of the image suffixes.");
    addPipelineStageOptions(parser);
    parser.addOption(
        "devices", "SEL,SEL",
        "Run every image on each of these devices (P:D or part of a name each, as --device), or on "
        "every device with 'all': one line per image and device. Default: the device --device would choose.");
    parser.addOption("jobs", "N",
                     "Threads that read and decode images while the devices run the images before them; each "
                     "device runs one image at a time.",
                     "2");
    parser.addOption(
        "jsonl", "OUT",
        "Write the JSON lines to OUT (replaced; appended to with --resume) instead of stdout. The "
        "lines come in the order of the files (sorted by path), and of --devices within one image; "
        "each is whole and names its file and device.");
    parser.addOption("out-dir", "DIR",
                     "Write each processed image to DIR/<its path below its PATH argument>.png (atomically; "
                     "with several devices DIR/<P-D>/...).");
    parser.addOption(
        "shard", "I/N",
        "Take only the files whose place in the sorted list, counted from 0, is I modulo N: shards "
        "0/N .. N-1/N together take every file once.");
    parser.addFlag(
        "resume",
        "Skip the images that --jsonl already has an ok line for, on the same device, with the same "
        "content hash (a changed file is run again, and so is a failed one).");
    addRecordOption(parser);
}

int run(const ArgumentParser& parser) {
    const stages::StageList stages = pipelineStagesFrom(parser);
    const int jobs = parser.integer("jobs", 1, 64);
    const fs::path jsonl = parser.isSet("jsonl") ? io::nativePath(parser.value("jsonl")) : fs::path();
    const bool resume = parser.isSet("resume");
    if (resume && jsonl.empty())
        throw parser.usageError("--resume needs --jsonl OUT: the lines to resume from");
    const std::optional<std::string> glob =
        parser.isSet("glob") ? std::optional(io::nativePath(parser.value("glob")).native()) : std::nullopt;
    std::vector<InputFile> files = collectFiles(parser.positionals(), parser.isSet("recursive"), glob);
    keepShard(parser, files);
    std::optional<archive::Settings> recordIn = recordFrom(parser);

    // One session per device, opened (and its queue made) once for the whole batch.
    auto first = std::make_unique<session::Session>();
    const std::vector<DeviceInfo> chosen = devicesFrom(parser, first->runtime().devices());
    std::vector<Device> devices;
    for (std::size_t d = 0; d < chosen.size(); ++d) {
        Device device;
        device.session = d == 0 ? std::move(first) : std::make_unique<session::Session>();
        device.context = &device.session->device(chosen[d].selector());
        device.outputs = outputsFor(parser, files, chosen, d);
        devices.push_back(std::move(device));
    }

    std::set<std::string> finished = resume ? finishedLines(jsonl) : std::set<std::string>();
    LineSink sink(jsonl, resume);
    const HandleInterrupt interrupt;
    return Batch(std::move(files), std::move(devices), stages, jobs, std::move(finished), std::move(recordIn))
        .run(sink);
}

[[maybe_unused]] const bool registered = registerCommand(
    {"batch", "pipeline over files and folders: one device set-up, one JSON line per image and device",
     "Runs pipeline's stages (the image stages in the order their options are written, then the histogram) "
     "over image files and folders, opening each device and loading its programs once for the whole batch. "
     "Prints one JSON line per image and device: pipeline --json's object plus file, status (ok or failed), "
     "error, content_hash (FNV-1a 64 of the file's bytes) and programs_built. A file that fails is a line "
     "with "
     "its error and the batch goes on; exit 6 when any failed. Ctrl-C finishes the images in hand, writes "
     "their lines and exits 130; a second Ctrl-C ends it at once.",
     declare, run});

}  // namespace

}  // namespace hs::cli
