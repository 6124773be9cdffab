#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <algorithm>
#include <array>

#include "cli_runner.hpp"
#include "engine/measure/measure.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/device_properties.hpp"

namespace hs {
namespace {

// The histogram of the contract, counted here without the engine; with `ignoreTransparent`, pixels of alpha
// 0 count in a only.
using Counts = std::array<std::vector<std::uint64_t>, 5>;

Counts countByHand(const QImage& image, int bins, bool ignoreTransparent = false) {
    Counts counts;
    for (auto& channel : counts) channel.assign(static_cast<std::size_t>(bins), 0);
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            const int luma = (299 * c.red() + 587 * c.green() + 114 * c.blue() + 500) / 1000;
            const int values[] = {c.red(), c.green(), c.blue(), c.alpha(), luma};
            for (std::size_t i = 0; i < 5; ++i) {
                if (ignoreTransparent && c.alpha() == 0 && i != 3) continue;
                ++counts[i][static_cast<std::size_t>(values[i] * bins / 256)];
            }
        }
    }
    return counts;
}

constexpr const char* kChannelKeys[] = {"r", "g", "b", "a", "luma"};

class Cli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        directory_ = new QTemporaryDir;
        image_ = new QImage(97, 61, QImage::Format_RGBA8888);
        std::uint32_t state = 2024;
        for (int y = 0; y < image_->height(); ++y) {
            for (int x = 0; x < image_->width(); ++x) {
                state = state * 1664525u + 1013904223u;
                // Mostly noise, with a flat area so some bins hold many pixels.
                const bool flat = x < 20 && y < 20;
                image_->setPixelColor(
                    x, y,
                    flat ? QColor(200, 100, 50, 255)
                         : QColor(state >> 24, (state >> 16) & 0xFF, (state >> 8) & 0xFF, (x * 3 + y) % 256));
            }
        }
        imagePath_ = new QString(directory_->filePath("noise.png"));
        ASSERT_TRUE(QImageWriter(*imagePath_, "png").write(*image_));
        devices_ = new std::vector<DeviceInfo>(enumerateDevices());
    }
    static void TearDownTestSuite() {
        delete directory_;
        delete image_;
        delete imagePath_;
        delete devices_;
    }

    static const QString& imagePath() { return *imagePath_; }
    static const QImage& image() { return *image_; }
    static const std::vector<DeviceInfo>& devices() { return *devices_; }
    static QString tempPath(const QString& name) { return directory_->filePath(name); }

    static void expectHistograms(const QJsonObject& histograms, int bins, bool ignoreTransparent = false) {
        const Counts expected = countByHand(image(), bins, ignoreTransparent);
        for (std::size_t c = 0; c < 5; ++c) {
            const QJsonArray counts = histograms[kChannelKeys[c]].toArray();
            ASSERT_EQ(counts.size(), bins) << kChannelKeys[c];
            for (int b = 0; b < bins; ++b)
                ASSERT_EQ(counts[b].toInteger(),
                          static_cast<qint64>(expected[c][static_cast<std::size_t>(b)]))
                    << kChannelKeys[c] << " bin " << b;
        }
    }

    // A strategy that builds OpenCL programs (the registry is iterated, never named here).
    static const histogram::Strategy* deviceStrategy() {
        for (const auto* strategy : histogram::strategies()) {
            if (strategy->runsOnDevice() && strategy->kernelBuild(devices().front(), {}, {}) &&
                strategy->supported(&devices().front(), {}, {}).ok)
                return strategy;
        }
        return nullptr;
    }

  private:
    static inline QTemporaryDir* directory_ = nullptr;
    static inline QImage* image_ = nullptr;
    static inline QString* imagePath_ = nullptr;
    static inline std::vector<DeviceInfo>* devices_ = nullptr;
};

TEST_F(Cli, HistogramJsonHasTheContractShape) {
    const Outcome outcome =
        runCli({"histogram", imagePath(), "--json", "--bins", "64", "--strategy", "serial"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonObject json = outcome.json();
    const QJsonObject image = json["image"].toObject();
    EXPECT_EQ(image["path"].toString(), imagePath());
    EXPECT_EQ(image["width"].toInt(), 97);
    EXPECT_EQ(image["height"].toInt(), 61);
    const QJsonObject device = json["device"].toObject();
    EXPECT_EQ(device["name"].toString().toStdString(), devices().front().name);
    EXPECT_EQ(device["platform"].toString().toStdString(), devices().front().platformName);
    EXPECT_EQ(json["strategy"].toString(), "serial");
    EXPECT_EQ(json["bins"].toInt(), 64);
    EXPECT_EQ(json["ignore_transparent"], QJsonValue(false));
    EXPECT_EQ(json["histograms"].toObject().keys(), (QStringList{"a", "b", "g", "luma", "r"}));
    expectHistograms(json["histograms"].toObject(), 64);
    const QJsonArray timings = json["timings"].toArray();
    ASSERT_FALSE(timings.isEmpty());
    for (const auto& value : timings) {
        const QJsonObject timing = value.toObject();
        for (const char* key : {"stage", "name", "queued_ns", "submit_ns", "start_ns", "end_ns", "run"})
            EXPECT_TRUE(timing.contains(key)) << key;
        EXPECT_LE(timing["start_ns"].toInteger(), timing["end_ns"].toInteger());
        EXPECT_EQ(timing["run"].toInt(), 1);  // "run 1 of 1", as the text output says
    }
    EXPECT_TRUE(json["program_cache"].toObject().contains("hits"));
    EXPECT_TRUE(json["program_cache"].toObject().contains("misses"));
}

// The noise image has alpha (3 x + y) % 256: 0 on the pixels where 3 x + y = 256 (x = 66, y = 58 and more).
TEST_F(Cli, IgnoreTransparentLeavesAlphaZeroOutOfColourAndLuma) {
    const Counts everyPixel = countByHand(image(), 64);
    const Counts ignoring = countByHand(image(), 64, true);
    ASSERT_GT(everyPixel[3][0], 0u) << "the image has pixels of alpha 0";
    ASSERT_NE(everyPixel[4], ignoring[4]);
    for (const char* strategy : {"serial", "auto"}) {
        SCOPED_TRACE(strategy);
        const Outcome outcome = runCli({"histogram", imagePath(), "--json", "--bins", "64", "--strategy",
                                        strategy, "--ignore-transparent"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["ignore_transparent"], QJsonValue(true));
        expectHistograms(json["histograms"].toObject(), 64, true);
    }
    const Outcome table = runCli({"histogram", imagePath(), "--strategy", "serial", "--ignore-transparent"});
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.contains("alpha 0 left out")) << table.out.toStdString();
}

TEST_F(Cli, EveryStrategyMatchesAnIndependentCount) {
    ASSERT_GE(histogram::strategies().size(), 1u);
    for (const auto* strategy : histogram::strategies()) {
        const QString name =
            QString::fromUtf8(strategy->name().data(), static_cast<qsizetype>(strategy->name().size()));
        SCOPED_TRACE(name.toStdString());
        if (!strategy->supported(&devices().front(), {}, {7}).ok) {
            const Outcome refused = runCli({"histogram", imagePath(), "--strategy", name, "--bins", "7"});
            expectOneErrorLine(refused, 4, "unsupported");
            continue;
        }
        const Outcome outcome =
            runCli({"histogram", imagePath(), "--json", "--strategy", name, "--bins", "7"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        expectHistograms(json["histograms"].toObject(), 7);
        if (name != "auto") {
            EXPECT_EQ(json["strategy"].toString(), name);
        }
    }
}

TEST_F(Cli, DefaultStrategyCoversOneAndAllBins) {
    for (const int bins : {1, 256}) {
        const Outcome outcome = runCli({"histogram", imagePath(), "--json", "--bins", QString::number(bins)});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        expectHistograms(json["histograms"].toObject(), bins);
        EXPECT_EQ(json["requested_strategy"].toString(), "auto");
        EXPECT_NE(json["strategy"].toString(), "auto") << "auto reports the strategy it chose";
    }
}

TEST_F(Cli, RepeatGivesPerRunTimingsAndASummary) {
    const auto* strategy = deviceStrategy();
    ASSERT_NE(strategy, nullptr) << "no device strategy with an OpenCL program in the registry";
    const Outcome outcome = runCli({"histogram", imagePath(), "--json", "--repeat", "4", "--strategy",
                                    QString::fromUtf8(strategy->name().data())});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonObject json = outcome.json();
    // The runs' own timings, re-read from the JSON.
    std::vector<std::vector<Timing>> runs(4);
    for (const auto& value : json["timings"].toArray()) {
        const QJsonObject timing = value.toObject();
        const int run = timing["run"].toInt(-1);
        ASSERT_TRUE(run >= 1 && run <= 4) << run;  // runs are numbered from 1, as the text output says
        runs[static_cast<std::size_t>(run - 1)].push_back(
            {timing["stage"] == "kernel" ? Stage::Kernel : Stage::Other, "", 0, 0,
             static_cast<std::uint64_t>(timing["start_ns"].toInteger()),
             static_cast<std::uint64_t>(timing["end_ns"].toInteger())});
    }
    const measure::Summary expected = measure::kernelSummary(runs);
    const QJsonObject summary = json["summary"].toObject();
    EXPECT_EQ(summary["runs"].toInt(), 4);
    const QJsonObject kernel = summary["kernel_ns"].toObject();
    EXPECT_GT(expected.min, 0);
    EXPECT_EQ(kernel["min"].toDouble(), expected.min);
    EXPECT_EQ(kernel["median"].toDouble(), expected.median);  // the mean of the middle two of 4
    EXPECT_EQ(kernel["max"].toDouble(), expected.max);
}

TEST_F(Cli, CsvAndTableOutputs) {
    const Outcome csv =
        runCli({"histogram", imagePath(), "--csv", "--bins", "5", "--strategy", "serial", "--device", "0:1"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err.toStdString();
    QList<QByteArray> lines = csv.out.trimmed().split('\n');
    // The context first, one "# key: value" line each, then the table.
    QMap<QByteArray, QByteArray> context;
    while (!lines.isEmpty() && lines.front().startsWith("# ")) {
        const QByteArray line = lines.takeFirst().mid(2);
        if (const auto colon = line.indexOf(": "); colon > 0) context[line.left(colon)] = line.mid(colon + 2);
    }
    EXPECT_EQ(context["image"], imagePath().toUtf8());
    EXPECT_EQ(context["image_width"], "97");
    EXPECT_EQ(context["image_height"], "61");
    EXPECT_EQ(context["device"].toStdString(), devices()[1].name);
    EXPECT_EQ(context["device_selector"], "0:1");
    EXPECT_EQ(context["platform"].toStdString(), devices()[1].platformName);
    EXPECT_EQ(context["strategy"], "serial");
    EXPECT_EQ(context["requested_strategy"], "serial");
    EXPECT_EQ(context["bins"], "5");
    EXPECT_EQ(context["angle"], "none");
    EXPECT_EQ(context["filter"], "none");
    EXPECT_EQ(context["fit_canvas"], "false");
    EXPECT_EQ(context["ignore_transparent"], "false");
    ASSERT_EQ(lines.size(), 6);
    EXPECT_EQ(lines[0], "bin,lower,upper,r,g,b,a,luma");
    const Counts expected = countByHand(image(), 5);
    for (int b = 0; b < 5; ++b) {
        const QList<QByteArray> fields = lines[b + 1].split(',');
        ASSERT_EQ(fields.size(), 8);
        for (std::size_t c = 0; c < 5; ++c)
            EXPECT_EQ(fields[static_cast<int>(c) + 3].toULongLong(),
                      expected[c][static_cast<std::size_t>(b)]);
    }

    const Outcome table = runCli({"histogram", imagePath(), "--bins", "4", "--strategy", "serial"});
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.contains(QByteArray::fromStdString(devices().front().name)));
    EXPECT_TRUE(table.out.contains("192-255"));
    EXPECT_TRUE(table.err.isEmpty()) << table.err.toStdString();
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
    const std::vector<std::pair<QStringList, QString>> cases{
        {{}, "no command"},
        {{"frobnicate"}, "frobnicate"},
        {{"histogram"}, "histogram"},
        {{"histogram", imagePath(), "--bins", "0"}, "--bins"},
        {{"histogram", imagePath(), "--bins", "257"}, "--bins"},
        {{"histogram", imagePath(), "--repeat", "zero"}, "--repeat"},
        {{"histogram", imagePath(), "--strategy", "no-such-strategy"}, "no-such-strategy"},
        {{"histogram", imagePath(), "--json", "--csv"}, "--csv"},
        {{"histogram", imagePath(), "--frobnicate"}, "frobnicate"},
        {{"devices", "extra"}, "devices"},
    };
    for (const auto& [arguments, mentioned] : cases) {
        SCOPED_TRACE(arguments.join(' ').toStdString());
        expectOneErrorLine(runCli(arguments), 2, mentioned);
    }
}

TEST_F(Cli, InputErrorsExitWithThreeAndNameTheFile) {
    const QString missing = tempPath("missing.png");
    const QString text = tempPath("text.png");
    const QString truncated = tempPath("truncated.png");
    QFile textFile(text);
    ASSERT_TRUE(textFile.open(QIODevice::WriteOnly));
    textFile.write("just words\n");
    textFile.close();
    QFile whole(imagePath());
    ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
    QFile cut(truncated);
    ASSERT_TRUE(cut.open(QIODevice::WriteOnly));
    cut.write(whole.readAll().left(2000));
    cut.close();
    const QString empty = tempPath("empty.png");
    QFile emptyFile(empty);
    ASSERT_TRUE(emptyFile.open(QIODevice::WriteOnly));
    emptyFile.close();
    // The line is "histoscope-cli: FILE: REASON".
    const std::pair<QString, QString> cases[] = {{missing, "no such file"},
                                                 {text, "not an image file"},
                                                 {truncated, "corrupt or truncated PNG"},
                                                 {empty, "empty file"}};
    for (const auto& [file, reason] : cases) {
        SCOPED_TRACE(file.toStdString());
        expectOneErrorLine(runCli({"histogram", file, "--json"}), 3, file + ": " + reason);
    }
}

TEST_F(Cli, OpenClErrorsExitWithFourAndNameTheDevice) {
    expectOneErrorLine(runCli({"histogram", imagePath(), "--device", "7:0"}), 4, "7:0");
    expectOneErrorLine(runCli({"histogram", imagePath(), "--device", "no-such-device"}), 4, "no-such-device");
    // A bad default says where it came from.
    expectOneErrorLine(runCli({"histogram", imagePath()}, {{"HISTOSCOPE_DEVICE", "bogus-gpu"}}), 4,
                       "HISTOSCOPE_DEVICE='bogus-gpu': no device matches");
    // An ICD loader that finds no vendor files: no platform, no device.
    QTemporaryDir noVendors;
    expectOneErrorLine(runCli({"histogram", imagePath()}, {{"OCL_ICD_VENDORS", noVendors.path()}}), 4,
                       "no OpenCL device");
}

TEST_F(Cli, DeviceSelection) {
    ASSERT_GE(devices().size(), 2u) << "the tests run with POCL_DEVICES='pthread pthread'";
    const auto selected = [](const QStringList& extra,
                             const std::vector<std::pair<QString, QString>>& env = {}) {
        const Outcome outcome = runCli(
            QStringList{"histogram", imagePath(), "--json", "--strategy", "serial", "--bins", "2"} + extra,
            env);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        return outcome.json()["device"].toObject()["selector"].toString();
    };
    EXPECT_EQ(selected({"--device", "0:1"}), "0:1");
    EXPECT_EQ(selected({"--device", "0:0"}), "0:0");
    // A case-changed piece of the name picks the first device whose name holds it.
    const QString name = QString::fromStdString(devices()[1].name);
    const QString piece = name.mid(name.size() / 3, name.size() / 3).toUpper();
    const auto first = std::find_if(devices().begin(), devices().end(), [&](const DeviceInfo& d) {
        return QString::fromStdString(d.name).contains(piece, Qt::CaseInsensitive);
    });
    EXPECT_EQ(selected({"--device", piece}), QString::fromStdString(first->selector()));
    EXPECT_EQ(selected({}, {{"HISTOSCOPE_DEVICE", "0:1"}}), "0:1");
    EXPECT_EQ(selected({"--device", "0:0"}, {{"HISTOSCOPE_DEVICE", "0:1"}}), "0:0") << "--device wins";
}

TEST_F(Cli, DevicesListsEveryPoclDevice) {
    for (const auto& [poclDevices, count] : {std::pair{"pthread pthread", 2}, {"pthread", 1}}) {
        SCOPED_TRACE(poclDevices);
        const Outcome outcome = runCli({"devices", "--json"}, {{"POCL_DEVICES", poclDevices}});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonArray listed = outcome.json()["devices"].toArray();
        ASSERT_EQ(listed.size(), count);
        for (int i = 0; i < count; ++i) {
            const QJsonObject device = listed[i].toObject();
            const DeviceInfo& known = devices()[static_cast<std::size_t>(i)];
            EXPECT_EQ(device["selector"].toString().toStdString(), known.selector());
            EXPECT_EQ(device["name"].toString().toStdString(), known.name);
            EXPECT_EQ(device["driver"].toString().toStdString(), known.driverVersion);
            EXPECT_EQ(device["opencl_c"].toString().toStdString(), known.openclCVersion);
            EXPECT_EQ(device["compute_units"].toInteger(), static_cast<qint64>(known.computeUnits));
            EXPECT_EQ(device["local_mem_bytes"].toInteger(), static_cast<qint64>(known.localMemBytes));
            EXPECT_EQ(device["max_work_group_size"].toInteger(), static_cast<qint64>(known.maxWorkGroupSize));
            EXPECT_EQ(device["extensions"].toArray().size(), static_cast<qsizetype>(known.extensions.size()));
        }
    }
    const Outcome plain = runCli({"devices"});
    ASSERT_EQ(plain.exitCode, 0);
    EXPECT_TRUE(plain.out.contains("0:1"));
    // Every property of the schema, as "Label:" and its value for people, in the block of each device.
    for (const auto& device : devices()) {
        const qsizetype start =
            plain.out.indexOf(QByteArray::fromStdString(device.selector() + "  " + device.name));
        ASSERT_GE(start, 0) << device.selector();
        for (const auto& property : deviceProperties()) {
            const QByteArray label = QByteArray::fromStdString(std::string(property.label) + ":");
            const qsizetype at = plain.out.indexOf("    " + label, start);
            ASSERT_GE(at, 0) << property.key;
            const QByteArray line = plain.out.mid(at, plain.out.indexOf('\n', at) - at);
            EXPECT_TRUE(line.simplified().endsWith(
                QByteArray::fromStdString(displayValue(property, device)).simplified()))
                << line.toStdString();
        }
    }
}

// One property schema renders the "device" object of every JSON front end: the same keys (the schema's, which
// the io tests hold against a hand-written list) with the same values, so a property dropped from one of them
// fails here.
TEST_F(Cli, EveryDeviceObjectCarriesTheWholeSchema) {
    QStringList schemaKeys;
    for (const auto& property : deviceProperties())
        schemaKeys += QString::fromUtf8(property.key.data(), static_cast<qsizetype>(property.key.size()));
    schemaKeys.sort();
    const Outcome listed = runCli({"devices", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err.toStdString();
    const QJsonObject second = listed.json()["devices"].toArray().at(1).toObject();
    EXPECT_EQ(second.keys(), schemaKeys);
    EXPECT_EQ(second["selector"].toString(), "0:1");
    EXPECT_EQ(second["device_index"].toInt(), 1);

    QTemporaryDir out;
    const std::vector<QStringList> commands{
        {"histogram", imagePath(), "--json", "--device", "0:1", "--strategy", "serial"},
        {"strategies", "--json", "--device", "0:1"},
        {"pipeline", imagePath(), "--device", "0:1", "--angle", "10", "--out", out.filePath("p.png"),
         "--json"},
    };
    for (const auto& command : commands) {
        SCOPED_TRACE(command.join(' ').toStdString());
        const Outcome outcome = runCli(command);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        EXPECT_EQ(outcome.json()["device"].toObject(), second);
    }
}

TEST_F(Cli, StrategiesListsTheRegistryWithSupport) {
    const Outcome outcome = runCli({"strategies", "--json", "--device", "0:1", "--bins", "64"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonObject json = outcome.json();
    EXPECT_EQ(json["device"].toObject()["selector"].toString(), "0:1");
    const QJsonArray listed = json["strategies"].toArray();
    const auto& registry = histogram::strategies();
    ASSERT_EQ(listed.size(), static_cast<qsizetype>(registry.size()));
    for (std::size_t i = 0; i < registry.size(); ++i) {
        const QJsonObject entry = listed[static_cast<qsizetype>(i)].toObject();
        const auto support = registry[i]->supported(&devices()[1], {}, {64});
        EXPECT_EQ(entry["name"].toString().toStdString(), std::string(registry[i]->name()));
        EXPECT_EQ(entry["description"].toString().toStdString(), std::string(registry[i]->description()));
        EXPECT_EQ(entry["supported"].toBool(), support.ok);
        EXPECT_EQ(entry["reason"].toString().toStdString(), support.reason);
    }
    const Outcome table = runCli({"strategies"});
    ASSERT_EQ(table.exitCode, 0);
    for (const auto* strategy : registry) EXPECT_TRUE(table.out.contains(strategy->name().data()));
}

TEST_F(Cli, ProgramCacheHitsOnTheSecondStartAndMissesOnNewOptions) {
    const auto* strategy = deviceStrategy();
    ASSERT_NE(strategy, nullptr) << "no device strategy with an OpenCL program in the registry";
    QTemporaryDir cache;
    const std::vector<std::pair<QString, QString>> env{{"HISTOSCOPE_CACHE_DIR", cache.path()}};
    const auto cacheStats = [&](const QString& bins) {
        const Outcome outcome = runCli({"histogram", imagePath(), "--json", "--bins", bins, "--strategy",
                                        QString::fromUtf8(strategy->name().data())},
                                       env);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        expectHistograms(json["histograms"].toObject(), bins.toInt());
        const QJsonObject stats = json["program_cache"].toObject();
        return std::pair{stats["hits"].toInteger(), stats["misses"].toInteger()};
    };
    const auto [firstHits, firstMisses] = cacheStats("64");
    EXPECT_EQ(firstHits, 0);
    EXPECT_GT(firstMisses, 0);
    const auto [secondHits, secondMisses] = cacheStats("64");
    EXPECT_GT(secondHits, 0);
    EXPECT_EQ(secondMisses, 0);
    // The device counts the 256 values whatever --bins is, so another bin count reuses the program.
    const auto [otherHits, otherMisses] = cacheStats("32");
    EXPECT_GT(otherHits, 0);
    EXPECT_EQ(otherMisses, 0);
    const Outcome ignoring = runCli({"histogram", imagePath(), "--json", "--ignore-transparent", "--strategy",
                                     QString::fromUtf8(strategy->name().data())},
                                    env);
    ASSERT_EQ(ignoring.exitCode, 0) << ignoring.err.toStdString();
    EXPECT_GT(ignoring.json()["program_cache"].toObject()["misses"].toInteger(), 0)
        << "--ignore-transparent builds a different program";
}

TEST_F(Cli, HistogramJsonCarriesItsContext) {
    const Outcome outcome = runCli(
        {"histogram", imagePath(), "--json", "--bins", "3", "--strategy", "Serial", "--device", "0:0"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonObject context = outcome.json()["context"].toObject();
    EXPECT_EQ(context["image"].toObject(),
              (QJsonObject{{"path", imagePath()}, {"width", 97}, {"height", 61}}));
    EXPECT_EQ(context["device"].toObject()["selector"].toString(), "0:0");
    EXPECT_EQ(context["device"].toObject()["name"].toString().toStdString(), devices()[0].name);
    EXPECT_EQ(context["strategy"].toString(), "serial");
    EXPECT_EQ(context["bins"].toInt(), 3);
    // 3 bins of 256 values: bin = v * 3 / 256, so 0..85, 86..170, 171..255.
    EXPECT_EQ(context["bin_ranges"].toArray(),
              (QJsonArray{QJsonArray{0, 85}, QJsonArray{86, 170}, QJsonArray{171, 255}}));
    const QJsonObject transform = context["transform"].toObject();
    EXPECT_TRUE(transform["angle"].isNull());
    EXPECT_TRUE(transform["filter"].isNull());
    EXPECT_EQ(transform["fit_canvas"], QJsonValue(false));
    EXPECT_EQ(context["ignore_transparent"], QJsonValue(false));
}

TEST_F(Cli, StrategyNamesMatchInAnyCase) {
    for (const QString& name : {QString("SERIAL"), QString("Serial"), QString("serial")}) {
        const Outcome outcome =
            runCli({"histogram", imagePath(), "--json", "--bins", "8", "--strategy", name});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["strategy"].toString(), "serial");
        EXPECT_EQ(json["requested_strategy"].toString(), "serial");
        expectHistograms(json["histograms"].toObject(), 8);
    }
}

// The overview lists each command on a line of its own, indented by two spaces.
QStringList commandsOf(const QByteArray& overview) {
    QStringList names;
    for (const QByteArray& line : overview.split('\n')) {
        if (line.startsWith("  ") && !line.startsWith("   "))
            names += QString(line.mid(2).split(' ').front());
    }
    return names;
}

TEST_F(Cli, HelpExitsWithZero) {
    const Outcome overview = runCli({"--help"});
    EXPECT_EQ(overview.exitCode, 0);
    EXPECT_TRUE(overview.out.startsWith("Usage: histoscope-cli COMMAND [options]"))
        << overview.out.toStdString();
    // The commands scripts rely on, among whatever else is registered, sorted by name.
    const QStringList listed = commandsOf(overview.out);
    for (const char* command : {"bow", "bow-sweep", "convolve", "devices", "histogram", "pipeline",
                                "produce-consume", "rotate", "strategies", "vocabulary"})
        EXPECT_TRUE(listed.contains(command)) << command;
    QStringList sorted = listed;
    sorted.sort();
    EXPECT_EQ(listed, sorted);
}

TEST_F(Cli, EachCommandsHelpNamesItselfAndStatesTheDefaults) {
    // The usage line of every command, and the defaults its help states.
    const std::vector<std::pair<QString, QStringList>> expected{
        {"bow [options] IMAGE",
         {"--vocabulary <C.npy>", "--window <W>", "Default: 40.", "Default: bow-tiled."}},
        {"bow-sweep [options]", {"--descriptors <LIST>", "Default: 4096,16384,65536.", "Default: 20."}},
        {"convolve [options] IMAGE", {"--filter <SPEC>", "Default: local-tiled."}},
        {"devices [options]", {"--json"}},
        {"histogram [options] IMAGE",
         {"--strategy <NAME>", "Default: auto.", "--bins <N>", "Default: 256.", "--repeat <K>", "Default: 1.",
          "--device <SEL>", "$HISTOSCOPE_DEVICE"}},
        {"pipeline [options] IMAGE",
         {"--angle <DEG>", "reduced into (-180, 180]", "--sampling <MODE>", "Default: linear.",
          "Default: image-sampler.", "Default: local-tiled.", "Default: auto.", "Default: 256."}},
        {"produce-consume [options] IMAGE",
         {"--devices <SEL,SEL>", "--mode <MODE>", "Default: auto.", "--chunks <N>", "Default: 4.",
          "Default: local-tiled.", "Default: 256."}},
        {"rotate [options] IMAGE",
         {"--angle <DEG>", "--sampling <MODE>", "Default: linear.", "Default: image-sampler."}},
        {"strategies [options]", {"--bins <N>", "Default: 256."}},
        {"vocabulary [options] IMAGE...", {"-k <K>", "Default: 64.", "--out <C.npy>", "Default: 20."}},
    };
    // Every registered command, a new one too: its usage line names it, and the defaults listed above are
    // stated where a command has some.
    const QStringList commands = commandsOf(runCli({"--help"}).out);
    ASSERT_GE(commands.size(), static_cast<qsizetype>(expected.size()));
    for (const QString& command : commands) {
        SCOPED_TRACE(command.toStdString());
        const Outcome help = runCli({command, "--help"});
        EXPECT_EQ(help.exitCode, 0);
        EXPECT_TRUE(help.err.isEmpty()) << help.err.toStdString();
        const QString text = QString::fromUtf8(help.out);
        EXPECT_TRUE(text.section('\n', 0, 0).startsWith("Usage: histoscope-cli " + command + " [options]"))
            << text.section('\n', 0, 0).toStdString();
        EXPECT_FALSE(text.contains(HISTOSCOPE_CLI)) << "the help names the command, not its path";
        EXPECT_FALSE(text.contains("--help-all")) << "Qt's own options are not this command's";
        EXPECT_TRUE(text.contains("-h, --help")) << text.toStdString();
        EXPECT_FALSE(text.contains("--filter-mode"));
        EXPECT_FALSE(text.contains("--rotate "));
        const auto stated = std::find_if(expected.begin(), expected.end(), [&](const auto& entry) {
            return entry.first.section(' ', 0, 0) == command;
        });
        if (stated == expected.end()) continue;
        EXPECT_EQ(text.section('\n', 0, 0), "Usage: histoscope-cli " + stated->first);
        const QString flat = text.simplified();  // Qt wraps the descriptions
        for (const QString& mention : stated->second)
            EXPECT_TRUE(flat.contains(mention)) << mention.toStdString();
    }
    for (const auto& [usage, mentions] : expected)
        EXPECT_TRUE(commands.contains(usage.section(' ', 0, 0))) << usage.toStdString();
}

}  // namespace
}  // namespace hs
