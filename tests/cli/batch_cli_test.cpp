// histoscope-cli batch: its lines against single pipeline runs, a bad file, SIGINT, --resume, --shard, two
// devices, the file selection and --out-dir, each on a few tiny images.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <algorithm>
#include <map>
#include <set>

#include "cli_runner.hpp"
#include "io/image_io.hpp"

// Failures show a list of paths as paths.
inline void PrintTo(const QStringList& list, std::ostream* out) {
    *out << '{' << list.join(", ").toStdString() << '}';
}

namespace hs {
namespace {

// A w x h image whose pixels follow `seed`, so that each file has its own histogram.
ImageRGBA8 patterned(int width, int height, int seed) {
    ImageRGBA8 image;
    image.width = width;
    image.height = height;
    image.pixels.resize(image.byteCount());
    for (std::size_t i = 0; i < image.pixels.size(); ++i)
        image.pixels[i] =
            static_cast<std::uint8_t>((i * 37 + static_cast<std::size_t>(seed) * 101 + i / 7) % 256);
    return image;
}

class BatchCli : public ::testing::Test {
  protected:
    // `name` (a path below the folder; its folders are made), a tiny PNG.
    QString image(const QString& name, int seed, int width = 12, int height = 9) {
        const QString path = dir_.filePath(name);
        QDir().mkpath(QFileInfo(path).path());
        io::saveImage(path, patterned(width, height, seed));
        return path;
    }
    QString file(const QString& name, const QByteArray& bytes) {
        const QString path = dir_.filePath(name);
        QDir().mkpath(QFileInfo(path).path());
        QFile out(path);
        EXPECT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        return path;
    }
    QString path(const QString& name) const { return dir_.filePath(name); }

    // Every line of `jsonl`, each of which must be one whole JSON object.
    static std::vector<QJsonObject> lines(const QByteArray& jsonl) {
        std::vector<QJsonObject> objects;
        for (const QByteArray& line : jsonl.split('\n')) {
            if (line.isEmpty()) continue;
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            EXPECT_EQ(error.error, QJsonParseError::NoError) << line.toStdString();
            objects.push_back(document.object());
        }
        EXPECT_TRUE(jsonl.isEmpty() || jsonl.endsWith('\n')) << "the last line is whole";
        return objects;
    }
    static QByteArray read(const QString& path) {
        QFile in(path);
        EXPECT_TRUE(in.open(QIODevice::ReadOnly)) << path.toStdString();
        return in.readAll();
    }
    // The "file" of each line, in order.
    static QStringList filesOf(const std::vector<QJsonObject>& objects) {
        QStringList files;
        for (const auto& object : objects) files += object["file"].toString();
        return files;
    }

    QTemporaryDir dir_;
};

TEST_F(BatchCli, ABadFileIsAFailedLineAndTheOthersRun) {
    const QString a = image("in/a.png", 1), c = image("in/c.png", 2);
    const QString bad = file("in/b.png", "not an image at all");
    const Outcome outcome = runCli({"batch", path("in"), "--bins", "8"});
    EXPECT_EQ(outcome.exitCode, 6) << "an image failed";
    EXPECT_EQ(outcome.err.count('\n'), 1) << outcome.err.toStdString();
    EXPECT_TRUE(outcome.err.contains("1 of 3 runs failed")) << outcome.err.toStdString();
    const auto objects = lines(outcome.out);
    ASSERT_EQ(filesOf(objects), (QStringList{a, bad, c})) << "sorted by path";
    EXPECT_EQ(objects[0]["status"].toString(), "ok");
    EXPECT_EQ(objects[2]["status"].toString(), "ok");
    EXPECT_EQ(objects[1]["status"].toString(), "failed");
    EXPECT_TRUE(objects[1]["error"].toString().startsWith(bad + ": "))
        << objects[1]["error"].toString().toStdString();
    EXPECT_FALSE(objects[1].contains("histograms"));
    // Only ok lines: exit 0 and nothing on stderr (no progress bar either, stderr being no terminal).
    QFile::remove(bad);
    const Outcome clean = runCli({"batch", path("in"), "--bins", "8"});
    EXPECT_EQ(clean.exitCode, 0);
    EXPECT_TRUE(clean.err.isEmpty()) << clean.err.toStdString();
    EXPECT_EQ(lines(clean.out).size(), 2u);
}

// Each line is the object pipeline --json prints for that image alone (the same histogram counts, stages and
// output size), the programs are built once for the batch, and --out-dir writes the images pipeline writes,
// two files of one name in two folders included.
TEST_F(BatchCli, LinesAndOutputsEqualSinglePipelineRunsAndProgramsAreBuiltOnce) {
    const QStringList images{image("in/a.png", 3), image("in/b.png", 4, 7, 5),
                             image("in/sub/a.png", 5, 10, 6)};
    const QStringList stages{"--angle", "30", "--filter", "box:3", "--bins", "16"};
    // No binary cache: every program the batch needs is built from source in its process.
    const std::vector<std::pair<QString, QString>> noCache{{"HISTOSCOPE_PROGRAM_CACHE", "0"}};
    const Outcome batch =
        runCli(QStringList{"batch", path("in"), "--recursive", "--out-dir", path("out"), "--devices", "0:0"} +
                   stages,
               noCache);
    ASSERT_EQ(batch.exitCode, 0) << batch.err.toStdString();
    const auto objects = lines(batch.out);
    ASSERT_EQ(filesOf(objects), images);
    const QStringList outputs{path("out/a.png"), path("out/b.png"), path("out/sub/a.png")};
    EXPECT_GT(objects[0]["programs_built"].toInt(), 0);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        SCOPED_TRACE(images[static_cast<qsizetype>(i)].toStdString());
        if (i > 0) {
            EXPECT_EQ(objects[i]["programs_built"].toInt(), 0) << "one program load for the batch";
        }
        const QString single = path(QString("single-%1.png").arg(i));
        const Outcome alone = runCli(QStringList{"pipeline", images[static_cast<qsizetype>(i)], "--out",
                                                 single, "--device", "0:0", "--json"} +
                                     stages);
        ASSERT_EQ(alone.exitCode, 0) << alone.err.toStdString();
        const QJsonObject expected = alone.json();
        const QJsonObject& line = objects[i];
        EXPECT_EQ(line["status"].toString(), "ok");
        EXPECT_EQ(line["histograms"], expected["histograms"]);
        EXPECT_EQ(line["image"], expected["image"]);
        EXPECT_EQ(line["output"].toObject()["path"].toString(), outputs[static_cast<qsizetype>(i)]);
        EXPECT_EQ(line["output"].toObject()["width"], expected["output"].toObject()["width"]);
        EXPECT_EQ(line["device"].toObject()["selector"], expected["device"].toObject()["selector"]);
        QStringList lineStages, expectedStages;
        for (const auto& stage : line["stages"].toArray()) lineStages += stage.toObject()["stage"].toString();
        for (const auto& stage : expected["stages"].toArray())
            expectedStages += stage.toObject()["stage"].toString();
        EXPECT_EQ(lineStages, expectedStages);
        const ImageRGBA8 written = io::loadImage(outputs[static_cast<qsizetype>(i)]);
        const ImageRGBA8 reference = io::loadImage(single);
        EXPECT_EQ(written.width, reference.width);
        EXPECT_EQ(written.height, reference.height);
        EXPECT_TRUE(written.pixels == reference.pixels) << "the batch's output is pipeline's";
    }
}

// An output that cannot be written (a folder stands at its path) fails its line, written after the run by a
// file thread, and the batch goes on.
// --record keeps a run per image and device in the run archive, as pipeline --record does: the line's counts,
// the image it ran on, and the output's pixels (the same on both PoCL devices, different between images).
TEST_F(BatchCli, RecordKeepsARunPerImageAndDeviceWithTheLinesCountsAndThePixels) {
    image("in/a.png", 6);
    image("in/b.png", 7, 8, 11);
    const std::vector<std::pair<QString, QString>> archive{{"HISTOSCOPE_ARCHIVE", path("runs.sqlite")}};
    const Outcome outcome = runCli({"batch", path("in"), "--angle", "180", "--sampling", "nearest", "--bins",
                                    "8", "--devices", "0:0,0:1", "--record"},
                                   archive);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const auto objects = lines(outcome.out);
    ASSERT_EQ(objects.size(), 4u);
    const Outcome listed = runCli({"runs", "list", "--json"}, archive);
    ASSERT_EQ(listed.exitCode, 0) << listed.err.toStdString();
    const QJsonArray runs = listed.json()["runs"].toArray();
    ASSERT_EQ(runs.size(), 4);
    std::map<QString, std::set<QString>> outputsByImage;
    std::map<QString, int> runsOfImage;
    for (const auto& entry : runs) {
        const Outcome shown =
            runCli({"runs", "show", QString::number(entry.toObject()["id"].toInteger()), "--json"}, archive);
        ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
        const QJsonObject run = shown.json();
        EXPECT_EQ(run["command"].toString(), "histoscope-cli batch");
        const QString file = run["image"].toObject()["path"].toString();
        const QString device = run["device"].toObject()["name"].toString();
        ++runsOfImage[QFileInfo(file).fileName()];
        const QJsonObject results = run["results"].toObject();
        EXPECT_GT(results["output_png_bytes"].toInteger(), 0);
        outputsByImage[file].insert(results["output_hash"].toString());
        // The counts are those of the line of that image and device.
        const auto line = std::find_if(objects.begin(), objects.end(), [&](const QJsonObject& object) {
            return QFileInfo(object["file"].toString()).absoluteFilePath() ==
                       QFileInfo(file).absoluteFilePath() &&
                   object["device"].toObject()["name"].toString() == device;
        });
        ASSERT_NE(line, objects.end()) << file.toStdString();
        EXPECT_EQ(results["histograms"].toObject()["r"].toArray(),
                  (*line)["histograms"].toObject()["r"].toArray());
    }
    EXPECT_EQ(runsOfImage, (std::map<QString, int>{{"a.png", 2}, {"b.png", 2}}))
        << "each image on each device";
    ASSERT_EQ(outputsByImage.size(), 2u);
    for (const auto& [file, hashes] : outputsByImage) EXPECT_EQ(hashes.size(), 1u) << file.toStdString();
    EXPECT_NE(*outputsByImage.begin()->second.begin(), *outputsByImage.rbegin()->second.begin());
}

TEST_F(BatchCli, AnOutputThatCannotBeWrittenIsAFailedLine) {
    const QStringList images{image("in/a.png", 6), image("in/b.png", 7), image("in/c.png", 8)};
    ASSERT_TRUE(QDir().mkpath(path("out/b.png/occupied")));
    const Outcome outcome =
        runCli({"batch", path("in"), "--out-dir", path("out"), "--angle", "90", "--fit-canvas"});
    EXPECT_EQ(outcome.exitCode, 6) << outcome.err.toStdString();
    const auto objects = lines(outcome.out);
    ASSERT_EQ(filesOf(objects), images);
    EXPECT_EQ(objects[0]["status"].toString(), "ok");
    EXPECT_EQ(objects[2]["status"].toString(), "ok");
    EXPECT_EQ(objects[1]["status"].toString(), "failed");
    EXPECT_TRUE(objects[1]["error"].toString().startsWith(path("out/b.png") + ": "))
        << objects[1]["error"].toString().toStdString();
    for (const QString& name : {QString("out/a.png"), QString("out/c.png")}) {
        const ImageRGBA8 written = io::loadImage(path(name));
        EXPECT_EQ(written.width, 9) << "rotated by 90 degrees: " << name.toStdString();
        EXPECT_EQ(written.height, 12);
    }
}

// SIGINT once the first line is there: the images in hand finish, every line of the JSONL is whole and its
// output written, the images not begun have none, and the exit code says it was interrupted.
TEST_F(BatchCli, SigintFinishesTheImagesInHandAndLeavesTheJsonlWhole) {
    constexpr int kImages = 40;
    for (int i = 0; i < kImages; ++i) image(QString("in/%1.png").arg(i, 2, 10, QChar('0')), i, 160, 120);
    const QString jsonl = path("lines.jsonl");
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("HISTOSCOPE_DEVICE");
    process.setProcessEnvironment(environment);
    process.start(HISTOSCOPE_CLI, {"batch", path("in"), "--filter", "gaussian:4", "--jsonl", jsonl, "--jobs",
                                   "1", "--out-dir", path("out")});
    ASSERT_TRUE(process.waitForStarted());
    while (QFileInfo(jsonl).size() == 0 && process.state() == QProcess::Running) QThread::msleep(5);
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    ASSERT_TRUE(process.waitForFinished(120'000));
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(process.exitCode(), 130) << process.readAllStandardError().toStdString();
    const auto objects = lines(read(jsonl));
    ASSERT_GE(objects.size(), 1u);
    EXPECT_LT(objects.size(), static_cast<std::size_t>(kImages)) << "the images not begun have no line";
    for (std::size_t i = 0; i < objects.size(); ++i) {
        EXPECT_EQ(objects[i]["file"].toString(), path(QString("in/%1.png").arg(i, 2, 10, QChar('0'))))
            << "the lines are the first images, in order";
        EXPECT_EQ(objects[i]["status"].toString(), "ok");
        const ImageRGBA8 written = io::loadImage(objects[i]["output"].toObject()["path"].toString());
        EXPECT_EQ(written.width, 160) << "every line's output is written";
    }
}

// --resume runs only what the JSONL lacks: nothing the second time, a changed file again.
TEST_F(BatchCli, ResumeSkipsWhatIsDoneAndRedoesAChangedFile) {
    image("in/a.png", 6);
    const QString b = image("in/b.png", 7);
    image("in/c.png", 8);
    const QString jsonl = path("lines.jsonl");
    const QStringList command{"batch", path("in"), "--jsonl", jsonl, "--bins", "4", "--resume"};
    ASSERT_EQ(runCli(command).exitCode, 0);
    const auto first = lines(read(jsonl));
    ASSERT_EQ(first.size(), 3u);

    const Outcome again = runCli(command);
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_EQ(lines(read(jsonl)).size(), 3u) << "nothing is run twice";

    image("in/b.png", 9);  // other pixels: another content hash
    ASSERT_EQ(runCli(command).exitCode, 0);
    const auto after = lines(read(jsonl));
    ASSERT_EQ(after.size(), 4u);
    EXPECT_EQ(after[3]["file"].toString(), b);
    EXPECT_NE(after[3]["content_hash"].toString(), first[1]["content_hash"].toString());
    EXPECT_NE(after[3]["histograms"], first[1]["histograms"]);

    // Without --resume the JSONL is replaced.
    ASSERT_EQ(runCli({"batch", path("in"), "--jsonl", jsonl, "--bins", "4"}).exitCode, 0);
    EXPECT_EQ(lines(read(jsonl)).size(), 3u);
}

// Shards I/3 take every third file of the sorted list, from the I-th: together each file once.
TEST_F(BatchCli, ShardsTogetherCoverTheFolderOnce) {
    QStringList all;
    for (int i = 0; i < 7; ++i) all += image(QString("in/%1.png").arg(i), i, 4, 3);
    QStringList covered;
    for (int shard = 0; shard < 3; ++shard) {
        const Outcome outcome = runCli(
            {"batch", path("in"), "--shard", QString("%1/3").arg(shard), "--histogram-strategy", "serial"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QStringList files = filesOf(lines(outcome.out));
        QStringList expected;
        for (int i = shard; i < all.size(); i += 3) expected += all[i];
        EXPECT_EQ(files, expected) << "shard " << shard;
        covered += files;
    }
    covered.sort();
    EXPECT_EQ(covered, all);
    expectOneErrorLine(runCli({"batch", path("in"), "--shard", "3/3"}), 2, "--shard");
}

// --devices all on two PoCL devices: one line per image and device, the same counts on both.
TEST_F(BatchCli, EveryDeviceGivesALinePerImage) {
    image("in/a.png", 10);
    image("in/b.png", 11);
    const Outcome outcome = runCli({"batch", path("in"), "--devices", "all", "--bins", "8"},
                                   {{"POCL_DEVICES", "pthread pthread"}});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const auto objects = lines(outcome.out);
    ASSERT_EQ(objects.size(), 4u);
    for (std::size_t i = 0; i < 4; i += 2) {
        EXPECT_EQ(objects[i]["file"], objects[i + 1]["file"]);
        EXPECT_EQ(objects[i]["device"].toObject()["selector"].toString(), "0:0");
        EXPECT_EQ(objects[i + 1]["device"].toObject()["selector"].toString(), "0:1");
        EXPECT_EQ(objects[i]["histograms"], objects[i + 1]["histograms"]);
    }
    expectOneErrorLine(runCli({"batch", path("in"), "--devices", "0:0,0:0"}), 2, "twice");
}

// What a folder gives: image suffixes, not hidden files or folders; subfolders with --recursive; --glob
// instead of the suffixes.
TEST_F(BatchCli, RecursiveAndGlobSelectTheFiles) {
    const QString a = image("in/a.png", 12), tif = image("in/d.TIF", 13), sub = image("in/sub/b.png", 14);
    image("in/.hidden.png", 15);
    image("in/.folder/c.png", 16);
    file("in/notes.txt", "no image");
    const auto selected = [&](const QStringList& options) {
        const Outcome outcome =
            runCli(QStringList{"batch", path("in"), "--histogram-strategy", "serial"} + options);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        return filesOf(lines(outcome.out));
    };
    EXPECT_EQ(selected({}), (QStringList{a, tif}));
    EXPECT_EQ(selected({"--recursive"}), (QStringList{a, tif, sub}));
    EXPECT_EQ(selected({"--recursive", "--glob", "b*"}), (QStringList{sub}));
    EXPECT_EQ(selected({"--glob", "*.png"}), (QStringList{a}));
    expectOneErrorLine(runCli({"batch", path("missing")}), 3, path("missing"));
}

// What `arguments` write to a stderr that is a terminal (a pseudo-terminal here; stdout goes to /dev/null),
// with a program cache of its own in `cacheDir`, so that its first run builds its programs.
QByteArray stderrOnATerminal(const QStringList& arguments, const QString& cacheDir) {
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    EXPECT_GE(master, 0);
    EXPECT_EQ(grantpt(master), 0);
    EXPECT_EQ(unlockpt(master), 0);
    const std::string terminal = ptsname(master);
    std::vector<std::string> words{HISTOSCOPE_CLI};
    for (const QString& argument : arguments) words.push_back(argument.toStdString());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const std::string cache = cacheDir.toStdString();
    const pid_t child = fork();
    if (child == 0) {  // only async-signal-safe calls until exec
        const int slave = open(terminal.c_str(), O_RDWR | O_NOCTTY);
        const int null = open("/dev/null", O_WRONLY);
        if (slave < 0 || null < 0 || dup2(slave, STDERR_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(127);
        setenv("HISTOSCOPE_CACHE_DIR", cache.c_str(), 1);
        unsetenv("HISTOSCOPE_DEVICE");
        execv(argv[0], argv.data());
        _exit(127);
    }
    QByteArray seen;
    char buffer[4096];
    for (ssize_t count; (count = read(master, buffer, sizeof buffer)) > 0;) seen.append(buffer, count);
    int status = 0;
    waitpid(child, &status, 0);
    close(master);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << seen.toStdString();
    return seen;
}

// On a terminal: the line of each program build (the auto trial's candidates by name and number) and the
// progress bar, and the line cleared at the end; the same run redirected writes nothing on stderr (above).
TEST_F(BatchCli, OnATerminalProgramBuildsAndProgressShow) {
    image("in/a.png", 20);
    image("in/b.png", 21);
    const QByteArray seen =
        stderrOnATerminal({"batch", path("in"), "--devices", "0:0", "--bins", "8"}, path("cache"));
    EXPECT_TRUE(seen.contains("building ")) << seen.toStdString();
    EXPECT_TRUE(QRegularExpression(R"(building [a-z-]+ for .+ \(2 of \d\))")
                    .match(QString::fromUtf8(seen))
                    .hasMatch())
        << seen.toStdString();
    EXPECT_TRUE(seen.contains("] 2/2 files")) << seen.toStdString();
    EXPECT_TRUE(seen.endsWith("\r\033[K")) << "the line goes at the end: " << seen.toStdString();
}

}  // namespace
}  // namespace hs
