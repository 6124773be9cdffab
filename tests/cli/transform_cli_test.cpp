// End-to-end tests of rotate, convolve and pipeline: the built histoscope-cli on files, the outputs checked
// against transformations written out by hand here.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <array>
#include <functional>

#include "cli_runner.hpp"
#include "engine/ops/convolve/convolve.hpp"

namespace hs {
namespace {

// Pixel (x, y) of the 6x5 input: all channels differ between pixels, alpha too.
QColor inputColor(int x, int y) {
    return QColor(40 * x + y, 200 - 30 * y, 7 * x * y, 255 - 11 * x - 3 * y);
}

class TransformCli : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        QImage image(kWidth, kHeight, QImage::Format_RGBA8888);
        for (int y = 0; y < kHeight; ++y) {
            for (int x = 0; x < kWidth; ++x) image.setPixelColor(x, y, inputColor(x, y));
        }
        ASSERT_TRUE(QImageWriter(path("in.png"), "png").write(image));
        // Tap (2, 1) of a 3x3 correlation reads the right-hand neighbour:
        // out(x, y) = in(min(x + 1, w - 1), y).
        writeText("shift.txt", "# take the right-hand neighbour\n0 0 0\n0 0 2\n0 0 0\n/ 2\n");
    }

    QString path(const QString& name) const { return directory_.filePath(name); }
    void writeText(const QString& name, const QByteArray& text) const {
        QFile file(path(name));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

    // The written image equals `expected(x, y)` everywhere.
    void expectImage(const QString& name, int width, int height,
                     const std::function<QColor(int, int)>& expected) {
        const QImage image = QImage(path(name)).convertToFormat(QImage::Format_RGBA8888);
        ASSERT_EQ(image.width(), width);
        ASSERT_EQ(image.height(), height);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x)
                ASSERT_EQ(image.pixelColor(x, y), expected(x, y))
                    << name.toStdString() << " at " << x << ", " << y;
        }
    }

    static constexpr int kWidth = 6;
    static constexpr int kHeight = 5;
    QTemporaryDir directory_;
};

TEST_F(TransformCli, RotateHalfATurnWithEitherStrategy) {
    // Half a turn about the centre of any image maps (x, y) to (w - 1 - x, h - 1 - y), whole pixels only.
    for (const QString strategy : {"image-sampler", "buffer"}) {
        const Outcome outcome = runCli({"rotate", path("in.png"), "--angle", "180", "--sampling", "nearest",
                                        "--strategy", strategy, "--out", path("half.png")});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        EXPECT_TRUE(outcome.out.contains(strategy.toUtf8())) << outcome.out.toStdString();
        expectImage("half.png", kWidth, kHeight,
                    [](int x, int y) { return inputColor(kWidth - 1 - x, kHeight - 1 - y); });
    }
}

TEST_F(TransformCli, RotateAQuarterTurnLeft) {
    // 90 degrees counter-clockwise about ((w - 1) / 2, (h - 1) / 2) = (2.5, 2): output (x, y) reads input
    // (2.5 - (y - 2), 2 + (x - 2.5)) = (4.5 - y, x - 0.5); nearest takes floor(s + 0.5): (5 - y, x). Column
    // x = 5 would read row 5 of a 5-row input: transparent black.
    const Outcome outcome = runCli({"rotate", path("in.png"), "--angle=90", "--sampling", "nearest",
                                    "--strategy", "buffer", "--out", path("left.png")});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    expectImage("left.png", kWidth, kHeight, [](int x, int y) {
        const int sx = 5 - y;
        const int sy = x;
        const bool inside = sx >= 0 && sx < kWidth && sy >= 0 && sy < kHeight;
        return inside ? inputColor(sx, sy) : QColor(0, 0, 0, 0);
    });
}

TEST_F(TransformCli, RotateAQuarterTurnLeftOntoAFittedCanvas) {
    // With --fit-canvas the 6x5 input turns into a 5x6 canvas whose centre (2, 2.5) receives the input's
    // centre (2.5, 2): output (x, y) reads input (2.5 - (y - 2.5), 2 + (x - 2)) = (5 - y, x), whole pixels,
    // and every output pixel lies inside the input: nothing is cut off, nothing is padding.
    for (const QString strategy : {"image-sampler", "buffer"}) {
        const Outcome outcome =
            runCli({"rotate", path("in.png"), "--angle=90", "--fit-canvas", "--sampling", "nearest",
                    "--strategy", strategy, "--out", path("fitted.png"), "--json"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        expectImage("fitted.png", kHeight, kWidth, [](int x, int y) { return inputColor(5 - y, x); });
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["output"].toObject()["width"].toInt(), kHeight);
        EXPECT_EQ(json["output"].toObject()["height"].toInt(), kWidth);
        const QJsonObject stage = json["stages"].toArray()[0].toObject();
        EXPECT_EQ(stage["strategy"].toString(), strategy);
        EXPECT_TRUE(stage["fit_canvas"].toBool());
    }
}

TEST_F(TransformCli, PipelineFitsTheCanvasAt108Degrees) {
    // 6x5 at 108 degrees: 6 |cos| + 5 sin = 1.854 + 4.755 = 6.609 -> 7 wide, 6 sin + 5 |cos| = 5.706 + 1.545
    // = 7.252 -> 8 high; without --fit-canvas the output stays 6x5.
    const Outcome fitted = runCli({"pipeline", path("in.png"), "--angle", "108", "--fit-canvas", "--bins",
                                   "4", "--out", path("fit108.png"), "--json"});
    ASSERT_EQ(fitted.exitCode, 0) << fitted.err.toStdString();
    const QJsonObject json = fitted.json();
    EXPECT_EQ(json["output"].toObject()["width"].toInt(), 7);
    EXPECT_EQ(json["output"].toObject()["height"].toInt(), 8);
    EXPECT_TRUE(json["stages"].toArray()[0].toObject()["fit_canvas"].toBool());
    const QImage written(path("fit108.png"));
    EXPECT_EQ(written.size(), QSize(7, 8));
    // The histogram counts every pixel of the enlarged canvas.
    qint64 alphaTotal = 0;
    for (const auto& count : json["histograms"].toObject()["a"].toArray()) alphaTotal += count.toInteger();
    EXPECT_EQ(alphaTotal, 7 * 8);

    const Outcome cropped =
        runCli({"pipeline", path("in.png"), "--angle", "108", "--out", path("crop108.png"), "--json"});
    ASSERT_EQ(cropped.exitCode, 0) << cropped.err.toStdString();
    EXPECT_EQ(cropped.json()["output"].toObject()["width"].toInt(), kWidth);
    EXPECT_EQ(cropped.json()["output"].toObject()["height"].toInt(), kHeight);
    EXPECT_FALSE(cropped.json()["stages"].toArray()[0].toObject()["fit_canvas"].toBool());
}

TEST_F(TransformCli, ConvolveWithAFilterFile) {
    ASSERT_GE(convolve::strategies().size(), 4u) << "every registered strategy, as histoscope-cli lists them";
    for (const auto* registered : convolve::strategies()) {
        const QString strategy = QString::fromUtf8(registered->name());
        const Outcome outcome = runCli({"convolve", path("in.png"), "--filter", path("shift.txt"),
                                        "--strategy", strategy, "--out", path("shift.png")});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        expectImage("shift.png", kWidth, kHeight, [](int x, int y) {
            const QColor right = inputColor(std::min(x + 1, kWidth - 1), y);
            return QColor(right.red(), right.green(), right.blue(), inputColor(x, y).alpha());
        });
    }
}

TEST_F(TransformCli, PipelineJsonDescribesEveryStage) {
    const Outcome outcome = runCli({"pipeline", path("in.png"), "--angle", "180", "--sampling", "nearest",
                                    "--filter", path("shift.txt"), "--histogram-strategy", "serial", "--bins",
                                    "256", "--out", path("piped.png"), "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const auto expected = [](int x, int y) {
        // Half a turn, then the right-hand neighbour (clamped), alpha of the rotated pixel.
        const int rx = std::min(x + 1, kWidth - 1);
        const QColor shifted = inputColor(kWidth - 1 - rx, kHeight - 1 - y);
        return QColor(shifted.red(), shifted.green(), shifted.blue(),
                      inputColor(kWidth - 1 - x, kHeight - 1 - y).alpha());
    };
    expectImage("piped.png", kWidth, kHeight, expected);

    const QJsonObject json = outcome.json();
    EXPECT_EQ(json["image"].toObject()["width"].toInt(), kWidth);
    EXPECT_EQ(json["output"].toObject()["path"].toString(), path("piped.png"));
    const QJsonArray stages = json["stages"].toArray();
    ASSERT_GE(stages.size(), 3);
    EXPECT_EQ(stages[0].toObject()["stage"].toString(), "rotate");
    EXPECT_EQ(stages[0].toObject()["angle_degrees"].toDouble(), 180.0);
    EXPECT_EQ(stages[0].toObject()["sampling"].toString(), "nearest");
    EXPECT_EQ(stages[1].toObject()["stage"].toString(), "convolve");
    EXPECT_EQ(stages[1].toObject()["filter"].toObject()["width"].toInt(), 3);
    EXPECT_EQ(stages[2].toObject()["strategy"].toString(), "serial");
    // The histogram's context names the transforms it counts after.
    const QJsonObject context = json["context"].toObject();
    EXPECT_EQ(context["image"].toObject()["path"].toString(), path("in.png"));
    EXPECT_EQ(context["strategy"].toString(), "serial");
    EXPECT_EQ(context["bins"].toInt(), 256);
    const QJsonObject transform = context["transform"].toObject();
    EXPECT_EQ(transform["angle"].toDouble(), 180.0);
    EXPECT_EQ(transform["sampling"].toString(), "nearest");
    EXPECT_TRUE(transform["filter"].toString().contains("shift.txt"))
        << transform["filter"].toString().toStdString();
    // The file's taps, not only its size and name: shift.txt's rows and divisor.
    EXPECT_EQ(transform["filter_matrix"].toString(), "0 0 0; 0 0 2; 0 0 0 / 2");
    EXPECT_EQ(transform["fit_canvas"], QJsonValue(false));

    // The red histogram counts the red values of the processed image.
    std::array<qint64, 256> red{};
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) ++red[static_cast<std::size_t>(expected(x, y).red())];
    }
    const QJsonArray counts = json["histograms"].toObject()["r"].toArray();
    ASSERT_EQ(counts.size(), 256);
    for (int v = 0; v < 256; ++v) EXPECT_EQ(counts[v].toInteger(), red[static_cast<std::size_t>(v)]) << v;

    bool sawRotateKernel = false;
    for (const auto& timing : json["timings"].toArray()) {
        const QString name = timing.toObject()["name"].toString();
        sawRotateKernel = sawRotateKernel || name.startsWith("rotate: rotate_");
        EXPECT_FALSE(name.startsWith("convolve: upload pixels")) << "the pixels stay on the device";
    }
    EXPECT_TRUE(sawRotateKernel);
}

TEST_F(TransformCli, PipelineIgnoresTheTransparentPaddingWhenAsked) {
    // A quarter turn leaves column x = 5 transparent black (see RotateAQuarterTurnLeft); the input itself is
    // nowhere transparent (alpha >= 255 - 55 - 12).
    for (const bool ignore : {false, true}) {
        QStringList arguments{"pipeline",   path("in.png"),     "--angle", "90",
                              "--sampling", "nearest",          "--bins",  "256",
                              "--out",      path("turned.png"), "--json"};
        if (ignore) arguments << "--ignore-transparent";
        const Outcome outcome = runCli(arguments);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["ignore_transparent"], QJsonValue(ignore));
        const QJsonObject histograms = json["histograms"].toObject();
        const auto total = [&histograms](const char* channel) {
            qint64 sum = 0;
            for (const auto& count : histograms[channel].toArray()) sum += count.toInteger();
            return sum;
        };
        EXPECT_EQ(histograms["a"].toArray()[0].toInteger(), kHeight);  // the padding column
        EXPECT_EQ(total("a"), kWidth * kHeight);
        for (const char* channel : {"r", "g", "b", "luma"})
            EXPECT_EQ(total(channel), ignore ? kWidth * kHeight - kHeight : kWidth * kHeight) << channel;
    }
}

TEST_F(TransformCli, MistakesGiveOneLineAndTheRightExitCode) {
    writeText("ragged.txt", "1 2 3\n4 5\n");
    writeText("keep.png", "previous content");
    const QString in = path("in.png");
    const QString out = path("keep.png");
    expectOneErrorLine(runCli({"convolve", in, "--filter", path("none.txt"), "--out", out}), 3,
                       path("none.txt"));
    expectOneErrorLine(runCli({"convolve", in, "--filter", path("ragged.txt"), "--out", out}), 3,
                       path("ragged.txt") + ": line 2");
    expectOneErrorLine(runCli({"convolve", in, "--filter", "box:99", "--out", out}), 2, "1..15");
    expectOneErrorLine(runCli({"convolve", in, "--filter", "box", "--strategy", "fft", "--out", out}), 2,
                       "fft");
    expectOneErrorLine(runCli({"rotate", in, "--angle", "north", "--out", out}), 2, "--angle");
    expectOneErrorLine(runCli({"rotate", in, "--angle", "10", "--sampling", "cubic", "--out", out}), 2,
                       "cubic");
    expectOneErrorLine(runCli({"rotate", in, "--angle", "10"}), 2, "--out");
    expectOneErrorLine(runCli({"rotate", in, "--out", out}), 2, "--angle");
    expectOneErrorLine(runCli({"rotate", path("missing.png"), "--angle", "10", "--out", out}), 3,
                       path("missing.png"));
    expectOneErrorLine(runCli({"pipeline", in, "--bins", "0", "--out", out}), 2, "--bins");
    expectOneErrorLine(runCli({"pipeline", in, "--fit-canvas", "--out", out}), 2, "--fit-canvas");
    // One name and one rule for each option: the old names are gone, the angle must be a finite number.
    expectOneErrorLine(runCli({"rotate", in, "--angle", "10", "--filter-mode", "nearest", "--out", out}), 2,
                       "filter-mode");
    for (const QString angle : {"nan", "inf", "-inf", "1e999", "12deg"})
        expectOneErrorLine(runCli({"rotate", in, "--angle", angle, "--out", out}), 2,
                           "--angle expects a finite number of degrees, got '" + angle + "'");
    expectOneErrorLine(runCli({"pipeline", in, "--sampling", "nearest", "--out", out}), 2,
                       "pipeline: --sampling applies to --angle");
    // A filter name that does not exist is a usage error listing the filters.
    const Outcome blur = runCli({"convolve", in, "--filter", "blur", "--out", out});
    expectOneErrorLine(blur, 2, "unknown filter 'blur'");
    for (const char* filter : {"box", "gaussian", "sharpen", "emboss", "laplacian", "sobel"})
        EXPECT_TRUE(blur.err.contains(filter)) << blur.err.toStdString();
    QFile kept(out);
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), "previous content") << "a failed command leaves the output file alone";
}

TEST_F(TransformCli, AFilterFileNamedLikeAWordIsReadAsAFile) {
    // In the working directory, "blur" is a file now: read as a filter file, its mistakes are input errors.
    writeText("blur", "0 0 0\n0 0 2\n0 0 0\n/ 2\n");
    const Outcome outcome =
        runCli({"convolve", path("in.png"), "--filter", "blur", "--out", path("blurred.png")}, {}, path(""));
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    expectImage("blurred.png", kWidth, kHeight, [](int x, int y) {
        const QColor right = inputColor(std::min(x + 1, kWidth - 1), y);
        return QColor(right.red(), right.green(), right.blue(), inputColor(x, y).alpha());
    });
    writeText("blur", "0 0 0\n0 x 2\n");
    expectOneErrorLine(
        runCli({"convolve", path("in.png"), "--filter", "blur", "--out", path("blurred.png")}, {}, path("")),
        3, "blur: line 2");
}

TEST_F(TransformCli, AnglesBeyondAHalfTurnAreReducedAndStrategiesMatchInAnyCase) {
    // 450 and -270 degrees are the quarter turn left that 90 is; the JSON reports the reduced angle.
    for (const QString angle : {"450", "-270"}) {
        SCOPED_TRACE(angle.toStdString());
        const Outcome outcome = runCli({"rotate", path("in.png"), "--angle=" + angle, "--sampling", "Nearest",
                                        "--strategy", "BUFFER", "--out", path("turned.png"), "--json"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject stage = outcome.json()["stages"].toArray()[0].toObject();
        EXPECT_EQ(stage["angle_degrees"].toDouble(), 90.0);
        EXPECT_EQ(stage["requested_strategy"].toString(), "buffer");
        EXPECT_EQ(stage["sampling"].toString(), "nearest");
        // The quarter turn left worked out by hand in RotateAQuarterTurnLeft.
        expectImage("turned.png", kWidth, kHeight, [](int x, int y) {
            const int sx = 5 - y;
            const int sy = x;
            const bool inside = sx >= 0 && sx < kWidth && sy >= 0 && sy < kHeight;
            return inside ? inputColor(sx, sy) : QColor(0, 0, 0, 0);
        });
    }
}

}  // namespace
}  // namespace hs
