// ExportActions: every format written, then read back and compared with the data the views were given (the
// histogram's context too; the plot's size, resolution, title and legend); a failed write keeps the previous
// file; a written file is announced; the clipboard holds the histogram as CSV.

#include <qcustomplot.h>
#include <sys/resource.h>
#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTimer>
#include <QXmlStreamReader>
#include <QtTest/QtTest>
#include <csignal>

#include "engine/runtime/error.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/plot_export_dialog.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/timeline_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui/views/visual_words_view.hpp"
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

// A context as a run in the window would set it: a rotated and filtered image on a named device.
io::HistogramContext handMadeContext() {
    io::HistogramContext context;
    context.imagePath = QStringLiteral("/photos/harbour, evening.png");
    context.imageWidth = 640;
    context.imageHeight = 480;
    DeviceInfo device;
    device.name = "pthread-test-device";
    device.platformName = "Portable Computing Language";
    device.platformIndex = 0;
    device.deviceIndex = 1;
    context.device = device;
    context.strategy = QStringLiteral("private-uchar");
    context.requestedStrategy = QStringLiteral("auto");
    context.angle = -33.5;
    context.sampling = QStringLiteral("nearest");
    context.filter = QStringLiteral("custom 3x3 (edge.txt)");
    context.filterMatrix = QStringLiteral("-1 0 1; -2 0 2; -1 0 1 / 4");
    context.stages = {QStringLiteral("rotate"), QStringLiteral("convolve")};
    return context;
}

// The "# key: value" lines before the table; the table's lines are left in `lines`.
QMap<QString, QString> takeContextLines(QStringList& lines) {
    QMap<QString, QString> context;
    while (!lines.isEmpty() && lines.front().startsWith(QLatin1String("# "))) {
        const QString line = lines.takeFirst().mid(2);
        const auto colon = line.indexOf(QLatin1String(": "));
        if (colon > 0) context.insert(line.left(colon), line.mid(colon + 2));
    }
    return context;
}

// Checks "bin,lower,upper,r,g,b,a,luma" CSV text against the histogram, bin by bin.
void verifyHistogramCsv(const QString& csv, const Histogram& histogram, QChar separator = QLatin1Char(',')) {
    QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    takeContextLines(lines);
    QCOMPARE(lines.takeFirst(),
             QStringLiteral("bin,lower,upper,r,g,b,a,luma").replace(QLatin1Char(','), separator));
    QCOMPARE(lines.size(), histogram.bins);
    for (int bin = 0; bin < histogram.bins; ++bin) {
        const QStringList fields = lines[bin].split(separator);
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

// The first page's content stream of a PDF Qt wrote, inflated (Qt compresses it with zlib).
QByteArray pdfPageContent(const QByteArray& pdf) {
    qsizetype from = 0;
    while ((from = pdf.indexOf("stream\n", from)) >= 0) {
        const qsizetype begin = from + 7;
        const qsizetype end = pdf.indexOf("endstream", begin);
        if (end < 0) break;
        QByteArray zlib = pdf.mid(begin, end - begin);
        // qUncompress wants the expected size first, big-endian; an upper bound will do.
        const quint32 bound = 64u << 20;
        zlib.prepend(QByteArray(1, char(bound >> 24)) + char((bound >> 16) & 0xff) + char(0) + char(0));
        const QByteArray inflated = qUncompress(zlib);
        if (inflated.contains(" Tf")) return inflated;
        from = end;
    }
    return {};
}

// Every <text> of an SVG file, in the order drawn, with its font-size attribute.
QList<std::pair<QString, double>> svgTexts(const QString& path) {
    QList<std::pair<QString, double>> texts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return texts;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
            const double size = xml.attributes().value(QLatin1String("font-size")).toDouble();
            texts.append({xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed(), size});
        }
    }
    return texts;
}

QStringList svgTextStrings(const QString& path) {
    QStringList strings;
    for (const auto& [text, size] : svgTexts(path)) strings << text;
    return strings;
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
        model_ = std::make_unique<RunModel>();
        histogramView_->follow(*model_);
        timelineView_ = std::make_unique<TimelineView>();
        visualWordsView_ = std::make_unique<VisualWordsView>();
        QVERIFY(test::showExposed(*histogramView_, {820, 400}));
        settings_ = std::make_unique<AppSettings>(settingsDir_.filePath(QStringLiteral("export.ini")));
        exports_ = std::make_unique<ExportActions>(*model_, histogramView_.get(), timelineView_.get(),
                                                   visualWordsView_.get(), *settings_, nullptr);
    }

    void cleanup() {
        exports_.reset();
        settings_.reset();
        visualWordsView_.reset();
        timelineView_.reset();
        histogramView_.reset();
    }

    void actionsFollowTheData() {
        const QList<QAction*> actions = exports_->actions();
        QCOMPARE(actions.size(), 9);  // the Visual words tab's three among them
        for (QAction* action : actions) QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        show(handMadeHistogram());
        QVERIFY(actions[0]->isEnabled());   // plot
        QVERIFY(actions[1]->isEnabled());   // histogram
        QVERIFY(!actions[2]->isEnabled());  // timings: none yet
        model_->keep(test::oneDeviceRun(run(0), QStringLiteral("serial")));
        QVERIFY(actions[2]->isEnabled());
        QVERIFY(actions[3]->isEnabled());
        QVERIFY(actions.back()->isEnabled());  // timeline
        // The word histogram's plot and table and the sweep: nothing computed in the Visual words tab yet.
        for (int i = 5; i < 8; ++i) QVERIFY2(!actions[i]->isEnabled(), qPrintable(actions[i]->text()));
    }

    void plotAsPngPdfAndSvg() {
        show(handMadeHistogram());
        // Green's fill covers the plot: without it the red curve is drawn on white, and counted below.
        histogramView_->setChannelVisible(Channel::G, false);
        const QSize screenSize = histogramView_->plot()->size();
        settings_->setPlotExportSize({900, 500, 96});
        const QSize plotSize(900, 500);
        QTemporaryDir dir;

        const QString png = dir.filePath("plot.png");
        exports_->exportPlot(png);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), plotSize);
        QCOMPARE(histogramView_->plot()->size(), screenSize);  // the view on screen is left alone

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
        QVERIFY(image.save(test::artifactPath(QStringLiteral("views_export_plot_png_read_back.png"))));
        QVERIFY2(redPixels(image) > 100, qPrintable(QString::number(redPixels(image))));
        QVERIFY2(redPixels(drawnBack) > 100, qPrintable(QString::number(redPixels(drawnBack))));

        QVERIFY_THROWS_EXCEPTION(hs::InputError, exports_->exportPlot(dir.filePath("plot.bmp")));

        for (const char* format : {"png", "pdf", "svg"})
            exports_->exportPlot(test::artifactPath(QStringLiteral("views_export_plot.")) + format);
    }

    void pngSizeFollowsTheChosenSizeAndResolution() {
        show(handMadeHistogram());
        QTemporaryDir dir;
        for (const auto& [size, expected] :
             {std::pair{PlotExportSize{640, 360, 96}, QSize(640, 360)},
              std::pair{PlotExportSize{640, 360, 192}, QSize(1280, 720)},
              std::pair{PlotExportSize{800, 450, 300}, QSize(2500, 1406)}}) {  // 450 * 300 / 96 = 1406.25
            settings_->setPlotExportSize(size);
            const QString png = dir.filePath(QStringLiteral("plot-%1.png").arg(size.dpi));
            exports_->exportPlot(png);
            const QImage image(png);
            QCOMPARE(image.size(), expected);
            // The resolution is recorded, so the file prints at the layout's physical size.
            QCOMPARE(std::lround(image.dotsPerMeterX() * 0.0254), static_cast<long>(size.dpi));
            QVERIFY(redPixels(image) > expected.width() / 10);  // the red curve is drawn at that size
        }
    }

    void plotCarriesTitleAndLegend() {
        show(handMadeHistogram());
        histogramView_->setChannelVisible(Channel::A, false);
        settings_->setPlotExportSize({900, 500, 96});
        QTemporaryDir dir;
        const QString svg = dir.filePath("titled.svg");
        exports_->exportPlot(svg);
        const QStringList texts = svgTextStrings(svg);
        const QString title =
            QStringLiteral("harbour, evening.png — pthread-test-device — private-uchar — 8 bins");
        QVERIFY2(texts.contains(title), qPrintable(texts.join(QLatin1Char('|'))));
        // The legend names the channels shown, not the hidden alpha.
        for (const char* shown : {"R", "G", "B", "Luma"})
            QVERIFY2(texts.contains(QLatin1String(shown)), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(!texts.contains(QStringLiteral("A")), qPrintable(texts.join(QLatin1Char('|'))));
        // On screen there is neither title nor legend.
        QVERIFY(!histogramView_->plot()->legend->visible());
        QCOMPARE(histogramView_->plot()->plotLayout()->rowCount(), 1);
    }

    void vectorTextIsAsLargeRelativeToThePlotAsInThePng() {
        show(handMadeHistogram());
        settings_->setPlotExportSize({900, 500, 96});
        QTemporaryDir dir;
        // The PNG at 96 dpi is drawn into a pixmap of 900 x 500 pixels: its tick labels are as many pixels
        // high as the font is on a pixmap.
        const QFont tickFont = histogramView_->plot()->xAxis->tickLabelFont();
        QPixmap pixmap(1, 1);
        const double pngPixels = QFontInfo(QFont(tickFont, &pixmap)).pixelSize();
        QVERIFY(pngPixels > 0);
        // The SVG is 900 x 500 units: the same label must be as many units high (before, 9 pt was drawn 9
        // units high at the generator's 72 dpi instead of 12).
        const QString svg = dir.filePath("plot.svg");
        exports_->exportPlot(svg);
        const auto texts = svgTexts(svg);
        const auto tick = std::find_if(texts.begin(), texts.end(),
                                       [](const auto& text) { return text.first == QLatin1String("64"); });
        QVERIFY(tick != texts.end());
        QVERIFY2(std::abs(tick->second - pngPixels) <= 0.5,
                 qPrintable(QStringLiteral("SVG %1, PNG %2").arg(tick->second).arg(pngPixels)));
        // The PDF page is 900 x 500 points; its text is drawn in a transform that maps the plot's pixels on
        // the page, at a font size of as many pixels as the PNG's.
        const QString pdf = dir.filePath("plot.pdf");
        exports_->exportPlot(pdf);
        const QByteArray content = pdfPageContent(readAll(pdf));
        QVERIFY(!content.isEmpty());
        // Qt's PDF engine maps the device onto the page with the page's first "cm" matrix and the painter's
        // window onto the device with a "cm" in each painter state; a text's size on the page is its "Tf"
        // size times both scales. The smallest text (tick labels, legend) must be the PNG's size in points.
        const QString page = QString::fromLatin1(content);
        static const QRegularExpression matrix(
            QStringLiteral("([0-9.]+) 0 0 -?[0-9.]+ [-0-9.]+ [-0-9.]+ cm"));
        static const QRegularExpression font(QStringLiteral("/F\\d+ ([0-9.]+) Tf"));
        const auto pageMatrix = matrix.match(page);
        QVERIFY(pageMatrix.hasMatch());
        double smallest = 1e9;
        for (auto fonts = font.globalMatch(page); fonts.hasNext();) {
            const auto text = fonts.next();
            // The last matrix before the text is its painter state's.
            qsizetype at = -1;
            QRegularExpressionMatch state;
            for (auto matrices = matrix.globalMatch(page.left(text.capturedStart())); matrices.hasNext();)
                state = matrices.next(), at = state.capturedStart();
            QVERIFY(at > pageMatrix.capturedStart());
            smallest = std::min(smallest, text.captured(1).toDouble() * pageMatrix.captured(1).toDouble() *
                                              state.captured(1).toDouble());
        }
        QVERIFY2(std::abs(smallest - pngPixels) <= 0.5,
                 qPrintable(QStringLiteral("PDF %1 points, PNG %2 pixels").arg(smallest).arg(pngPixels)));
    }

    void exportsLeaveOutTheSelection() {
        show(handMadeHistogram());
        settings_->setPlotExportSize({600, 300, 96});
        QTemporaryDir dir;
        exports_->exportPlot(dir.filePath("plain.png"));
        histogramView_->selectRange(2, 5);
        exports_->exportPlot(dir.filePath("selected.png"));
        const QImage plain(dir.filePath("plain.png"));
        const QImage selected(dir.filePath("selected.png"));
        QVERIFY(!plain.isNull());
        // Not a pixel of the tint: the file is as it was without a selection.
        QCOMPARE(selected, plain);
        // On screen the selection is still there.
        QVERIFY(histogramView_->selectedRange());
        QCOMPARE(histogramView_->selectedRange()->first, 2);
        QCOMPARE(histogramView_->selectedRange()->last, 5);
        QImage onScreen = histogramView_->plot()->toPixmap(600, 300).toImage();
        QVERIFY(onScreen.convertToFormat(plain.format()) != plain);

        // The timeline's shift-drag selection too.
        timelineView_->setRuns({test::oneDeviceRun(run(0), QStringLiteral("serial"))});
        exports_->exportTimeline(dir.filePath("timeline-plain.png"));
        timelineView_->selectRange(500, 5000);
        exports_->exportTimeline(dir.filePath("timeline-selected.png"));
        QCOMPARE(QImage(dir.filePath("timeline-selected.png")), QImage(dir.filePath("timeline-plain.png")));
        QVERIFY(timelineView_->selection().has_value());
    }

    void timelineLegendNamesTheStagesAndCommands() {
        timelineView_->setRuns({test::oneDeviceRun(run(0), QStringLiteral("serial"))});
        QTemporaryDir dir;
        const QString svg = dir.filePath("timeline.svg");
        exports_->exportTimeline(svg);
        const QStringList texts = svgTextStrings(svg);
        // One entry per stage, in its bars' colour, naming the commands drawn in it.
        for (const char* entry : {"upload: upload", "kernel: histogram", "readback: read counts"})
            QVERIFY2(texts.contains(QLatin1String(entry)), qPrintable(texts.join(QLatin1Char('|'))));
        QCustomPlot* plot = timelineView_->plot();
        QCOMPARE(plot->graphCount(), 3);
        QCOMPARE(plot->graph(1)->brush().color(), seriesColor(static_cast<int>(Stage::Kernel)));
        QVERIFY(!plot->legend->visible());  // on screen the lanes' bars have their tooltips instead
    }

    void dialogStartsFromTheRememberedSizeAndReportsTheOutput() {
        settings_->setPlotExportSize({700, 400, 150});
        PlotExportDialog png(settings_->plotExportSize(), QStringLiteral("png"));
        QCOMPARE(png.widthBox()->value(), 700);
        QCOMPARE(png.heightBox()->value(), 400);
        QCOMPARE(png.dpiBox()->value(), 150);
        png.widthBox()->setValue(960);
        png.dpiBox()->setValue(192);
        QCOMPARE(png.size(), (PlotExportSize{960, 400, 192}));
        QCOMPARE(png.outputText(), QStringLiteral("1920 × 800 pixels"));
        QVERIFY(test::showExposed(png, png.sizeHint()));
        // Titled with the format, and wide enough for a title bar to show the whole title.
        QCOMPARE(png.windowTitle(), QStringLiteral("Plot size — PNG"));
        QVERIFY(png.width() >= png.fontMetrics().horizontalAdvance(png.windowTitle()) + 100);
        QVERIFY(png.grab().save(test::artifactPath(QStringLiteral("views_export_plot_dialog.png"))));
        PlotExportDialog svg(settings_->plotExportSize(), QStringLiteral("svg"));
        QVERIFY(!svg.dpiBox()->isEnabled());
        QCOMPARE(svg.outputText(), QStringLiteral("700 × 400 points (vector)"));
        // What was accepted is there in the next session.
        settings_->setPlotExportSize(png.size());
        QVERIFY(settings_->save());
        const AppSettings reread(settings_->fileName());
        QCOMPARE(reread.plotExportSize(), (PlotExportSize{960, 400, 192}));
        settings_->setPlotExportSize({5, 5, 5000});
        QCOMPARE(settings_->plotExportSize(), (PlotExportSize{100, 100, 1200}));
    }

    void finishedExportsAreAnnouncedWithThePath() {
        show(handMadeHistogram());
        model_->keep(test::oneDeviceRun(run(0), QStringLiteral("serial")));
        QTemporaryDir dir;
        QSignalSpy announced(exports_.get(), &ExportActions::exported);
        exports_->exportHistogram(dir.filePath("h.csv"));
        exports_->exportPlot(dir.filePath("p.svg"));
        exports_->exportTimings(dir.filePath("t.json"));
        exports_->exportTrace(dir.filePath("trace.json"));
        QCOMPARE(announced.size(), 4);
        QCOMPARE(announced[0].at(0).toString(),
                 QStringLiteral("Exported the histogram to %1").arg(dir.filePath("h.csv")));
        QCOMPARE(announced[1].at(0).toString(),
                 QStringLiteral("Exported the plot to %1").arg(dir.filePath("p.svg")));
        QCOMPARE(announced[2].at(0).toString(),
                 QStringLiteral("Exported the timings to %1").arg(dir.filePath("t.json")));
        QCOMPARE(announced[3].at(0).toString(),
                 QStringLiteral("Exported the Chrome trace to %1").arg(dir.filePath("trace.json")));
        // A failed export announces nothing.
        QVERIFY_THROWS_EXCEPTION(hs::InputError, exports_->exportPlot(dir.filePath("p.bmp")));
        QCOMPARE(announced.size(), 4);
    }

    void histogramAsCsvAndJson() {
        const Histogram histogram = handMadeHistogram();
        show(histogram);
        QTemporaryDir dir;
        exports_->exportHistogram(dir.filePath("h.csv"));
        const QString csv = QString::fromUtf8(readAll(dir.filePath("h.csv")));
        verifyHistogramCsv(csv, histogram);
        QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QMap<QString, QString> context = takeContextLines(lines);
        const QMap<QString, QString> expectedContext{
            {"image", "/photos/harbour, evening.png"},
            {"image_width", "640"},
            {"image_height", "480"},
            {"device", "pthread-test-device"},
            {"device_selector", "0:1"},
            {"platform", "Portable Computing Language"},
            {"strategy", "private-uchar"},
            {"requested_strategy", "auto"},
            {"bins", "8"},
            {"angle", "-33.5"},
            {"sampling", "nearest"},
            {"filter", "custom 3x3 (edge.txt)"},
            {"filter_matrix", "-1 0 1; -2 0 2; -1 0 1 / 4"},
            {"fit_canvas", "false"},
            {"ignore_transparent", "false"},
        };
        QCOMPARE(context, expectedContext);

        exports_->exportHistogram(dir.filePath("h.json"));
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("h.json")), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject jsonContext = json.value("context").toObject();
        QCOMPARE(jsonContext.value("image").toObject(),
                 (QJsonObject{{"path", "/photos/harbour, evening.png"}, {"width", 640}, {"height", 480}}));
        QCOMPARE(jsonContext.value("device").toObject(),
                 (QJsonObject{{"name", "pthread-test-device"},
                              {"selector", "0:1"},
                              {"platform", "Portable Computing Language"}}));
        QCOMPARE(jsonContext.value("strategy").toString(), QStringLiteral("private-uchar"));
        QCOMPARE(jsonContext.value("requested_strategy").toString(), QStringLiteral("auto"));
        QCOMPARE(jsonContext.value("bins").toInt(), 8);
        const QJsonArray ranges = jsonContext.value("bin_ranges").toArray();
        QCOMPARE(ranges.size(), 8);
        for (int bin = 0; bin < 8; ++bin)  // 8 bins of 32 values
            QCOMPARE(ranges[bin].toArray(), (QJsonArray{bin * 32, bin * 32 + 31}));
        QCOMPARE(jsonContext.value("transform").toObject(),
                 (QJsonObject{{"angle", -33.5},
                              {"sampling", "nearest"},
                              {"filter", "custom 3x3 (edge.txt)"},
                              {"filter_matrix", "-1 0 1; -2 0 2; -1 0 1 / 4"},
                              {"fit_canvas", false},
                              {"stages", QJsonArray{"rotate", "convolve"}}}));
        QCOMPARE(jsonContext.value("ignore_transparent"), QJsonValue(false));
        // The channels under "histograms", as histoscope-cli's reports have them (and at the top level, the
        // export's first form).
        const QJsonObject histograms = json.value("histograms").toObject();
        QCOMPARE(histograms.keys(), (QStringList{"a", "b", "g", "luma", "r"}));
        for (const Channel channel : hs::histogram::kChannels) {
            const QString name = QString::fromLatin1(hs::histogram::channelName(channel).data());
            QCOMPARE(json.value(name), histograms.value(name));
            const QJsonArray counts = histograms.value(name).toArray();
            QCOMPARE(counts.size(), histogram.bins);
            for (int bin = 0; bin < histogram.bins; ++bin)
                QCOMPARE(counts[bin].toInteger(),
                         static_cast<qint64>(histogram[channel][static_cast<std::size_t>(bin)]));
        }
    }

    void timingsAsCsvJsonAndChromeTrace() {
        const QString device = QStringLiteral("pthread-test-device (0:0)");
        show(handMadeHistogram());  // the window shows each run's histogram as it keeps its timings
        // What each run measured: two images, two specs. The first run's device clock is 250 ns behind the
        // host's.
        io::RunTimings first = test::oneDeviceRun(run(0), QStringLiteral("serial"), device);
        for (Timing& timing : first.devices.front().timings) timing.hostOffsetNs = 250;
        first.image = QStringLiteral("/data/photo one.png");
        first.width = 768;
        first.height = 512;
        first.spec = QStringLiteral("histogram (256 bins)");
        io::RunTimings second = test::oneDeviceRun(run(50'000), QStringLiteral("local-atomic"), device);
        second.image = QStringLiteral("/data/big, \"card\".tif");
        second.width = 4000;
        second.height = 3000;
        second.spec = QStringLiteral("convolve (Box 3×3) → histogram (64 bins)");
        model_->keep(first);
        model_->keep(second);
        QTemporaryDir dir;

        exports_->exportTimings(dir.filePath("t.csv"));
        QStringList lines = QString::fromUtf8(readAll(dir.filePath("t.csv"))).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(
            lines.takeFirst(),
            QStringLiteral("run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns,run_queued_ns,"
                           "run_submit_ns,run_start_ns,run_end_ns,device,mode,overlap_ns,clock_offset_ns,"
                           "image,width,height,spec"));
        QCOMPARE(lines.size(), 6);
        // Runs are numbered from 1, as the timing view shows them (#1, #2); run_* count from each run's first
        // queued command (100 and 50 100 ns); one device: no mode or overlap; then the clock offset and what
        // the run measured (a field with a comma and quotes quoted as RFC 4180 says).
        QCOMPARE(lines[0], QStringLiteral("1,upload,upload,100,200,300,1300,1000,0,100,200,1200,%1,,,250,"
                                          "/data/photo one.png,768,512,histogram (256 bins)")
                               .arg(device));
        QCOMPARE(lines[4],
                 QStringLiteral(
                     "2,kernel,histogram,51400,51500,51600,59600,8000,1300,1400,1500,9500,%1,,,0,"
                     "\"/data/big, \"\"card\"\".tif\",4000,3000,convolve (Box 3×3) → histogram (64 bins)")
                     .arg(device));

        exports_->exportTimings(dir.filePath("t.json"));
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("t.json"))).object();
        QCOMPARE(json.value("device").toString(), QStringLiteral("pthread-test-device"));
        const QJsonArray runs = json.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[1].toObject().value("strategy").toString(), QStringLiteral("local-atomic"));
        QCOMPARE(runs[1].toObject().value("run").toInt(), 2);
        QCOMPARE(runs[1].toObject().value("device").toString(), device);
        QCOMPARE(runs[0].toObject().value("image").toString(), first.image);
        QCOMPARE(runs[0].toObject().value("width").toInt(), 768);
        QCOMPARE(runs[0].toObject().value("height").toInt(), 512);
        QCOMPARE(runs[1].toObject().value("image").toString(), second.image);
        QCOMPARE(runs[1].toObject().value("spec").toString(), second.spec);
        QCOMPARE(runs[0].toObject().value("timings").toArray()[0].toObject().value("clock_offset_ns").toInt(),
                 250);
        const QJsonArray timings = runs[1].toObject().value("timings").toArray();
        QCOMPARE(timings.size(), 3);
        QCOMPARE(timings[2].toObject().value("name").toString(), QStringLiteral("read counts"));
        QCOMPARE(timings[2].toObject().value("end_ns").toInteger(), 60'400);
        QCOMPARE(timings[2].toObject().value("run_end_ns").toInteger(), 10'300);
        QCOMPARE(timings[2].toObject().value("device").toString(), device);

        exports_->exportTrace(dir.filePath("trace.json"));
        QJsonParseError error;
        const QJsonDocument trace = QJsonDocument::fromJson(readAll(dir.filePath("trace.json")), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        int complete = 0;
        for (const QJsonValue event : trace.object().value("traceEvents").toArray()) {
            const QJsonObject object = event.toObject();
            if (object.value("ph").toString() == QLatin1String("X")) {
                ++complete;
                // Each command says what its run measured.
                const QJsonObject args = object.value("args").toObject();
                const io::RunTimings& measured = args.value("run").toInt() == 1 ? first : second;
                QCOMPARE(args.value("image").toString(), measured.image);
                QCOMPARE(args.value("width").toInt(), measured.width);
                QCOMPARE(args.value("height").toInt(), measured.height);
                QCOMPARE(args.value("spec").toString(), measured.spec);
            }
            if (object.value("name").toString() == QLatin1String("thread_name"))
                QCOMPARE(object.value("args").toObject().value("name").toString(), device);  // its only lane
        }
        QCOMPARE(complete, 6);  // one complete event per command
    }

    void failedWriteKeepsTheOldFileAndSaysWhy() {
        show(handMadeHistogram());
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

    void copyPutsATabSeparatedTableOnTheClipboard() {
        const Histogram histogram = handMadeHistogram();
        show(histogram);
        exports_->actions()[4]->trigger();
        // Tab-separated, as a spreadsheet splits a paste into cells.
        verifyHistogramCsv(QGuiApplication::clipboard()->text(), histogram, QLatin1Char('\t'));
    }

    // A save dialog starts with a name: the image's, what is exported and the first filter's suffix.
    void saveDialogsSuggestAName() {
        show(handMadeHistogram());  // of "/photos/harbour, evening.png"
        model_->keep(test::oneDeviceRun(run(0), QStringLiteral("serial")));
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        const auto suggestion = [](QAction* action) {
            QString suggested;
            QTimer poll;
            poll.setInterval(test::kPollMs);
            QObject::connect(&poll, &QTimer::timeout, [&] {
                auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
                if (!dialog || !dialog->isVisible()) return;
                suggested = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))->text();
                poll.stop();
                dialog->reject();
            });
            poll.start();
            action->trigger();
            return suggested;
        };
        const QList<QAction*> actions = exports_->actions();
        QCOMPARE(suggestion(actions[1]), QStringLiteral("harbour, evening-histogram.csv"));
        QCOMPARE(suggestion(actions[0]), QStringLiteral("harbour, evening-plot.png"));
        QCOMPARE(suggestion(actions[2]), QStringLiteral("harbour, evening-timings.csv"));
        QCOMPARE(suggestion(actions[3]), QStringLiteral("harbour, evening-trace.json"));
    }

  private:
    // `histogram` in the model, as the window's result shows it, with the hand-made context.
    void show(const Histogram& histogram) {
        model_->showHistogram(test::valuesAtLowerEdges(histogram), histogram.bins, handMadeContext());
    }

    QTemporaryDir settingsDir_;
    std::unique_ptr<AppSettings> settings_;
    std::unique_ptr<HistogramView> histogramView_;
    std::unique_ptr<RunModel> model_;  // what the exports read and the histogram view follows
    std::unique_ptr<TimelineView> timelineView_;
    std::unique_ptr<VisualWordsView> visualWordsView_;
    std::unique_ptr<ExportActions> exports_;
};

QTEST_MAIN(ExportTest)
#include "views_export_test.moc"
