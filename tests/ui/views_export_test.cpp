// ExportActions: every format written, then read back and compared with the data the views were given; a
// failed write keeps the previous file; the clipboard holds the histogram as CSV.

#include <qcustomplot.h>
#include <sys/resource.h>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest/QtTest>
#include <csignal>

#include "runtime/error.hpp"
#include "ui/export_actions.hpp"
#include "ui/histogram_view.hpp"
#include "ui/timeline_view.hpp"
#include "ui/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using histogram::Channel;
using histogram::Histogram;

namespace {

Histogram handMadeHistogram() {
    Histogram histogram(8);
    for (std::size_t bin = 0; bin < 8; ++bin) {
        histogram[Channel::R][bin] = bin * 10 + 1;
        histogram[Channel::G][bin] = 1000 - bin;
        histogram[Channel::B][bin] = bin * bin;
        histogram[Channel::A][bin] = bin == 7 ? 4096 : 0;
        histogram[Channel::Luma][bin] = 7 - bin;
    }
    return histogram;
}

std::vector<hs::Timing> run(std::uint64_t offset) {
    return {
        {hs::Stage::Upload, "upload", offset + 100, offset + 200, offset + 300, offset + 1300},
        {hs::Stage::Kernel, "histogram", offset + 1400, offset + 1500, offset + 1600, offset + 9600},
        {hs::Stage::Readback, "read counts", offset + 9700, offset + 9800, offset + 9900, offset + 10400}};
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Checks "bin,lower,upper,r,g,b,a,luma" CSV text against the histogram, bin by bin.
void verifyHistogramCsv(const QString& csv, const Histogram& histogram) {
    QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.takeFirst(), QStringLiteral("bin,lower,upper,r,g,b,a,luma"));
    QCOMPARE(lines.size(), histogram.bins);
    for (int bin = 0; bin < histogram.bins; ++bin) {
        const QStringList fields = lines[bin].split(QLatin1Char(','));
        QCOMPARE(fields.size(), 8);
        QCOMPARE(fields[0].toInt(), bin);
        QCOMPARE(fields[1].toInt(), bin * 32);  // 8 bins of 32 values
        QCOMPARE(fields[2].toInt(), bin * 32 + 31);
        for (const Channel channel : hs::histogram::kChannels)
            QCOMPARE(fields[3 + static_cast<int>(channel)].toULongLong(),
                     static_cast<qulonglong>(histogram[channel][static_cast<std::size_t>(bin)]));
    }
}

// Pixels close to the red channel's pen colour.
int redPixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 170 && c.green() < 90 && c.blue() < 90) ++count;
        }
    return count;
}

// The message of the InputError `exporting` throws; empty when it throws none.
template <typename Export>
QString inputErrorOf(Export&& exporting) {
    try {
        exporting();
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

// Limits the size of files this process may write, so a write fails even for root; restores it after.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);  // a failing write() reports EFBIG instead of killing the process
        getrlimit(RLIMIT_FSIZE, &saved_);
        rlimit limited = saved_;
        limited.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &saved_); }

  private:
    rlimit saved_{};
};

}  // namespace

class ExportTest : public QObject {
    Q_OBJECT

  private slots:
    void init() {
        histogramView_ = std::make_unique<HistogramView>();
        timingView_ = std::make_unique<TimingView>();
        timelineView_ = std::make_unique<TimelineView>();
        QVERIFY(test::showExposed(*histogramView_, {820, 400}));
        exports_ = std::make_unique<ExportActions>(histogramView_.get(), timingView_.get(),
                                                   timelineView_.get(), nullptr);
        exports_->setDeviceName(QStringLiteral("pthread-test-device"));
    }

    void cleanup() {
        exports_.reset();
        timelineView_.reset();
        timingView_.reset();
        histogramView_.reset();
    }

    void actionsFollowTheData() {
        const QList<QAction*> actions = exports_->actions();
        QCOMPARE(actions.size(), 6);
        for (QAction* action : actions) QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        histogramView_->setHistogram(handMadeHistogram());
        QVERIFY(actions[0]->isEnabled());   // plot
        QVERIFY(actions[1]->isEnabled());   // histogram
        QVERIFY(!actions[2]->isEnabled());  // timings: none yet
        timingView_->addRun(run(0), QStringLiteral("serial"));
        QVERIFY(actions[2]->isEnabled());
        QVERIFY(actions[3]->isEnabled());
        QVERIFY(actions[5]->isEnabled());  // timeline
    }

    void plotAsPngPdfAndSvg() {
        histogramView_->setHistogram(handMadeHistogram());
        const QSize plotSize = histogramView_->plot()->size();
        QTemporaryDir dir;

        const QString png = dir.filePath("plot.png");
        exports_->exportPlot(png);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), plotSize);

        const QString pdf = dir.filePath("plot.pdf");
        exports_->exportPlot(pdf);
        const QByteArray pdfBytes = readAll(pdf);
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY(pdfBytes.trimmed().endsWith("%%EOF"));
        // One page of exactly the plot's size in points.
        const auto mediaBox = QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"))
                                  .match(QString::fromLatin1(pdfBytes));
        QVERIFY(mediaBox.hasMatch());
        QCOMPARE(mediaBox.captured(1).toDouble(), plotSize.width());
        QCOMPARE(mediaBox.captured(2).toDouble(), plotSize.height());

        const QString svg = dir.filePath("plot.svg");
        exports_->exportPlot(svg);
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svgFile);
        QVERIFY(xml.readNextStartElement());
        QCOMPARE(xml.name().toString(), QStringLiteral("svg"));
        int drawn = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                (xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline")))
                ++drawn;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(drawn > 5);  // axes, ticks and the channel curves
        // Drawn back by Qt's SVG renderer, the red channel's curve is there as in the PNG.
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QImage drawnBack(plotSize, QImage::Format_ARGB32);
        drawnBack.fill(Qt::white);
        QPainter painter(&drawnBack);
        renderer.render(&painter);
        painter.end();
        QVERIFY(drawnBack.save(test::artifactPath(QStringLiteral("views_export_plot_svg_drawn_back.png"))));
        QVERIFY(redPixels(image) > 100);
        QVERIFY(redPixels(drawnBack) > 100);

        QVERIFY_THROWS_EXCEPTION(hs::InputError, exports_->exportPlot(dir.filePath("plot.bmp")));

        for (const char* format : {"png", "pdf", "svg"})
            exports_->exportPlot(test::artifactPath(QStringLiteral("views_export_plot.")) + format);
    }

    void histogramAsCsvAndJson() {
        const Histogram histogram = handMadeHistogram();
        histogramView_->setHistogram(histogram);
        QTemporaryDir dir;
        exports_->exportHistogram(dir.filePath("h.csv"));
        verifyHistogramCsv(QString::fromUtf8(readAll(dir.filePath("h.csv"))), histogram);

        exports_->exportHistogram(dir.filePath("h.json"));
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("h.json")), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const Channel channel : hs::histogram::kChannels) {
            const QJsonArray counts =
                json.value(QString::fromLatin1(hs::histogram::channelName(channel).data())).toArray();
            QCOMPARE(counts.size(), histogram.bins);
            for (int bin = 0; bin < histogram.bins; ++bin)
                QCOMPARE(counts[bin].toInteger(),
                         static_cast<qint64>(histogram[channel][static_cast<std::size_t>(bin)]));
        }
    }

    void timingsAsCsvJsonAndChromeTrace() {
        const QString device = QStringLiteral("pthread-test-device (0:0)");
        timingView_->addRun(run(0), QStringLiteral("serial"), device);
        timingView_->addRun(run(50'000), QStringLiteral("local-atomic"), device);
        QTemporaryDir dir;

        exports_->exportTimings(dir.filePath("t.csv"));
        QStringList lines = QString::fromUtf8(readAll(dir.filePath("t.csv"))).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.takeFirst(),
                 QStringLiteral("run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns"));
        QCOMPARE(lines.size(), 6);
        // Runs are numbered from 1, as the timing view shows them (#1, #2).
        QCOMPARE(lines[0], QStringLiteral("1,upload,upload,100,200,300,1300,1000"));
        QCOMPARE(lines[4], QStringLiteral("2,kernel,histogram,51400,51500,51600,59600,8000"));

        exports_->exportTimings(dir.filePath("t.json"));
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("t.json"))).object();
        QCOMPARE(json.value("device").toString(), QStringLiteral("pthread-test-device"));
        const QJsonArray runs = json.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[1].toObject().value("strategy").toString(), QStringLiteral("local-atomic"));
        QCOMPARE(runs[1].toObject().value("run").toInt(), 2);
        QCOMPARE(runs[1].toObject().value("device").toString(), device);
        const QJsonArray timings = runs[1].toObject().value("timings").toArray();
        QCOMPARE(timings.size(), 3);
        QCOMPARE(timings[2].toObject().value("name").toString(), QStringLiteral("read counts"));
        QCOMPARE(timings[2].toObject().value("end_ns").toInteger(), 60'400);

        exports_->exportTrace(dir.filePath("trace.json"));
        QJsonParseError error;
        const QJsonDocument trace = QJsonDocument::fromJson(readAll(dir.filePath("trace.json")), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        int complete = 0;
        for (const QJsonValue event : trace.object().value("traceEvents").toArray()) {
            const QJsonObject object = event.toObject();
            if (object.value("ph").toString() == QLatin1String("X")) ++complete;
            if (object.value("name").toString() == QLatin1String("thread_name"))
                QCOMPARE(object.value("args").toObject().value("name").toString(), device);  // its only lane
        }
        QCOMPARE(complete, 6);  // one complete event per command
    }

    void failedWriteKeepsTheOldFileAndSaysWhy() {
        histogramView_->setHistogram(handMadeHistogram());
        QTemporaryDir dir;
        const QString target = dir.filePath("kept.csv");
        QVERIFY(test::writeFile(target, "old content\n"));
        {
            const FileSizeLimit limit(16);  // the new CSV is longer than 16 bytes
            const QString error = inputErrorOf([&] { exports_->exportHistogram(target); });
            QVERIFY2(error.startsWith(target + ": "), qPrintable(error));
        }
        QCOMPARE(readAll(target), QByteArray("old content\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"kept.csv"}));  // no temporary left

        // A parent that is a regular file cannot hold anything: the message names the path.
        const QString underFile = target + "/plot.png";
        const QString error = inputErrorOf([&] { exports_->exportPlot(underFile); });
        QVERIFY2(error.startsWith(underFile + ": "), qPrintable(error));
        QCOMPARE(readAll(target), QByteArray("old content\n"));
    }

    void copyPutsTheCsvOnTheClipboard() {
        const Histogram histogram = handMadeHistogram();
        histogramView_->setHistogram(histogram);
        exports_->actions()[4]->trigger();
        verifyHistogramCsv(QGuiApplication::clipboard()->text(), histogram);
    }

  private:
    std::unique_ptr<HistogramView> histogramView_;
    std::unique_ptr<TimingView> timingView_;
    std::unique_ptr<TimelineView> timelineView_;
    std::unique_ptr<ExportActions> exports_;
};

QTEST_MAIN(ExportTest)
#include "views_export_test.moc"
