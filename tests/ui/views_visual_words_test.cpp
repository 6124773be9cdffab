// The Visual words tab: the word histogram it shows against bow-serial over the engine's CPU reference
// descriptors, k-means from two images and the saved vocabulary re-read, Cancel stopping k-means and the
// sweep, the grid overlay against the engine's grid, a bad .npy reported with the previous vocabulary kept,
// and the exports re-read.

#include <qcustomplot.h>
#include <QCheckBox>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest/QtTest>

#include "engine/ops/bow/descriptors.hpp"
#include "engine/runtime/runtime.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/views/visual_words_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kTimeoutMs = 120000;  // PoCL builds the descriptor and builder kernels on first use

// The first `k` reference descriptors of `image` that are not all zeros, as a vocabulary.
bow::Matrix vocabularyFrom(const ImageRGBA8& image, std::size_t k) {
    const bow::Matrix descriptors = bow::referenceDescriptors(image, {});
    bow::Matrix vocabulary;
    for (std::size_t i = 0; i < descriptors.rows() && vocabulary.rows() < k; i += 3)
        vocabulary.values.insert(vocabulary.values.end(), descriptors.row(i),
                                 descriptors.row(i) + bow::kDimensions);
    return vocabulary;
}

// Discs, bars and a gradient with noise over them (no flat window, whose descriptor would be all zeros): an
// image whose words show structure in a screenshot.
ImageRGBA8 shapesImage(int width, int height) {
    QImage picture(width, height, QImage::Format_RGBA8888);
    QPainter painter(&picture);
    QLinearGradient gradient(0, 0, width, height);
    gradient.setColorAt(0, QColor(30, 60, 120));
    gradient.setColorAt(1, QColor(230, 200, 120));
    painter.fillRect(picture.rect(), gradient);
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < 7; ++i) {
        painter.setBrush(QColor::fromHsv((i * 53) % 360, 200, 90 + 20 * i));
        painter.drawEllipse(QPointF(width * (0.1 + 0.13 * i), height * (0.3 + 0.08 * (i % 4))), 18.0 + 6 * i,
                            18.0 + 6 * i);
    }
    for (int x = 0; x < width / 3; x += 12) painter.fillRect(x, height * 3 / 4, 6, height / 4, Qt::black);
    painter.end();
    ImageRGBA8 image(width, height);
    std::mt19937 random(7);
    std::uniform_int_distribution<int> noise(-12, 12);
    for (int y = 0; y < height; ++y) {
        const auto* line = picture.constScanLine(y);
        for (int x = 0; x < width * 4; ++x) {
            const int value = (x % 4 == 3) ? 255 : std::clamp(line[x] + noise(random), 0, 255);
            image.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 4 +
                         static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(value);
        }
    }
    return image;
}

QVector<double> asDoubles(const std::vector<std::uint32_t>& counts) {
    QVector<double> values;
    for (const auto count : counts) values << static_cast<double>(count);
    return values;
}

// The lines of a CSV file that are not "# key: value" context.
QStringList tableLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    QStringList lines;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(QLatin1Char('#'))) lines << line;
    return lines;
}

QJsonObject jsonOf(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

// Holds the k-means worker at its first step until released, so that Cancel is pressed while k-means runs
// whatever the device's speed.
struct StepGate {
    std::mutex mutex;
    std::condition_variable changed;
    bool arrived = false;
    bool released = false;

    QThread* thread = nullptr;  // where k-means ran

    void arrive() {
        std::unique_lock lock(mutex);
        arrived = true;
        thread = QThread::currentThread();
        changed.wait(lock, [this] { return released; });
    }
    bool hasArrived() {
        std::lock_guard lock(mutex);
        return arrived;
    }
    void release() {
        std::lock_guard lock(mutex);
        released = true;
        changed.notify_all();
    }
};

// Lets `passes` rows of a sweep through, then holds the worker before the next one until released.
struct RowGate {
    explicit RowGate(int rowsToPass) : passes(rowsToPass) {}
    std::mutex mutex;
    std::condition_variable changed;
    const int passes;
    int arrivals = 0;
    bool released = false;

    void arrive() {
        std::unique_lock lock(mutex);
        ++arrivals;
        changed.wait(lock, [this] { return released || arrivals <= passes; });
    }
    bool holding() {
        std::lock_guard lock(mutex);
        return arrivals > passes && !released;
    }
    void release() {
        std::lock_guard lock(mutex);
        released = true;
        changed.notify_all();
    }
};

}  // namespace

class VisualWordsViewTest : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        firstPath_ = dir_.filePath(QStringLiteral("first.png"));
        secondPath_ = dir_.filePath(QStringLiteral("second.png"));
        io::saveImage(firstPath_, first_);
        io::saveImage(secondPath_, second_);
        vocabularyPath_ = dir_.filePath(QStringLiteral("vocabulary.npy"));
        io::writeDescriptorArray(vocabularyPath_, vocabularyFrom(first_, 8));
    }

    // In a window as large as it opens on a 1280 × 800 screen (1280 × 760, the panel's bar aside), the tab
    // fits its dock: the dock's scroll area has nothing to scroll and the word histogram (its axis titles)
    // shows whole. Taller than the dock, the tab scrolled and the y-axis title read "ptors" (issue 23).
    void fitsTheBottomDockOfA1280x800Screen() {
        test::PrivateWindow window;
        QVERIFY(test::showExposed(window.window, {1280, 760}));
        auto* dock = window.window.findChild<QDockWidget*>(QStringLiteral("visualWordsDock"));
        QVERIFY(dock);
        dock->raise();
        // The bottom docks' height in the app opened on a 1280 × 800 screen (screenshot of issue 23).
        window.window.resizeDocks({dock}, {290}, Qt::Vertical);
        auto* view = test::part<VisualWordsView>(window.window);
        QTRY_VERIFY(view->isVisible());
        auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
        QVERIFY(scroll);
        QTRY_COMPARE(scroll->verticalScrollBar()->maximum(), 0);
        const auto* plot = test::part<QCustomPlot>(*view, "wordHistogramPlot");
        // Top to bottom inside what the dock shows.
        const int top = plot->mapTo(scroll->viewport(), QPoint(0, 0)).y();
        QVERIFY(top >= 0);
        QVERIFY2(top + plot->height() <= scroll->viewport()->height(),
                 qPrintable(QStringLiteral("plot %1..%2, dock shows %3")
                                .arg(top)
                                .arg(top + plot->height())
                                .arg(scroll->viewport()->height())));
    }

    // The window's tab on the first image and device 0:0, with a saved vocabulary loaded through Load….
    void showsTheWordHistogramOfSerialOverReferenceDescriptors() {
        test::PrivateWindow window;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(window.window, reports, kTimeoutMs));
        window.window.chooseDevice(QStringLiteral("0:0"));
        window.window.showImage(std::make_shared<const ImageRGBA8>(first_), QStringLiteral("first"));
        auto* view = test::part<VisualWordsView>(window.window);
        QVERIFY(view);
        window.window.findChild<QDockWidget*>(QStringLiteral("visualWordsDock"))->raise();
        QSignalSpy shown(view, &VisualWordsView::wordsShown);
        test::answerNextFileDialog(vocabularyPath_);
        test::part<QPushButton>(*view, "loadVocabulary")->click();
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        QCOMPARE(view->words()->request.device, QStringLiteral("0:0"));

        const bow::Matrix vocabulary = io::readDescriptorArray(vocabularyPath_);
        const bow::Matrix descriptors = bow::referenceDescriptors(first_, view->descriptorParams());
        const auto expected =
            bow::assignWords(nullptr, descriptors, vocabulary, bow::findStrategy("bow-serial")).histogram;
        QCOMPARE(view->plottedHistogram(), asDoubles(expected));
        QCOMPARE(view->overlay()->drawnWindows(), descriptors.rows());

        // Exports of what is shown, re-read.
        const QString csv = dir_.filePath(QStringLiteral("words.csv"));
        const QString json = dir_.filePath(QStringLiteral("words.json"));
        const QString png = dir_.filePath(QStringLiteral("words.png"));
        window.window.exports().exportWordHistogram(csv);
        window.window.exports().exportWordHistogram(json);
        window.window.exports().exportWordPlot(png);
        QStringList rows = tableLines(csv);
        QCOMPARE(rows.takeFirst(), QStringLiteral("word,descriptors"));
        QCOMPARE(rows.size(), static_cast<int>(expected.size()));
        for (int word = 0; word < rows.size(); ++word)
            QCOMPARE(rows[word],
                     QStringLiteral("%1,%2").arg(word).arg(expected[static_cast<std::size_t>(word)]));
        const QJsonObject document = jsonOf(json);
        const QJsonArray counts = document[QStringLiteral("histogram")].toArray();
        QCOMPARE(counts.size(), static_cast<int>(expected.size()));
        for (int word = 0; word < counts.size(); ++word)
            QCOMPARE(counts[word].toInteger(), static_cast<qint64>(expected[static_cast<std::size_t>(word)]));
        QCOMPARE(document[QStringLiteral("context")][QStringLiteral("vocabulary")].toString(),
                 QStringLiteral("vocabulary.npy"));
        QCOMPARE(document[QStringLiteral("context")][QStringLiteral("window")].toInt(),
                 view->descriptorParams().window);
        QImage plot;
        QVERIFY(plot.load(png));
        // Laid out at the remembered export size, scaled by its DPI.
        const PlotExportSize size = window.settings.plotExportSize();
        QCOMPARE(plot.width(), size.width * size.dpi / PlotExportSize::kScreenDpi);

        // A small sweep, its table exported and re-read.
        view->setSweepSizes(QStringLiteral("256"), QStringLiteral("4, 8"));
        QSignalSpy swept(view, &VisualWordsView::sweepShown);
        test::part<QPushButton>(*view, "runSweep")->click();
        QVERIFY(swept.wait(kTimeoutMs));
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        const std::size_t strategies = bow::strategies().size();
        QCOMPARE(view->sweep()->rows.size(), 2 * strategies);
        const QString sweepCsv = dir_.filePath(QStringLiteral("sweep.csv"));
        const QString sweepJson = dir_.filePath(QStringLiteral("sweep.json"));
        window.window.exports().exportSweep(sweepCsv);
        window.window.exports().exportSweep(sweepJson);
        QStringList sweepRows = tableLines(sweepCsv);
        QVERIFY(sweepRows.takeFirst().startsWith(QStringLiteral("descriptors,centroids,strategy,clock,")));
        QCOMPARE(sweepRows.size(), static_cast<int>(2 * strategies));
        const QJsonArray jsonRows = jsonOf(sweepJson)[QStringLiteral("rows")].toArray();
        QCOMPARE(jsonRows.size(), static_cast<int>(2 * strategies));
        for (int i = 0; i < jsonRows.size(); ++i) {
            const auto& row = view->sweep()->rows[static_cast<std::size_t>(i)];
            const QJsonObject read = jsonRows[i].toObject();
            QCOMPARE(read[QStringLiteral("strategy")].toString(), QString::fromStdString(row.strategy));
            QCOMPARE(read[QStringLiteral("centroids")].toInteger(), static_cast<qint64>(row.centroids));
            QVERIFY(sweepRows[i].startsWith(
                QStringLiteral("256,%1,%2,").arg(row.centroids).arg(QString::fromStdString(row.strategy))));
            QCOMPARE(read[QStringLiteral("misassigned")].toInteger(), 0);
        }
        // The bars: one series per strategy, on a log axis.
        QCOMPARE(view->sweepPlot()->plottableCount(), static_cast<int>(strategies));
        QCOMPARE(view->sweepPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    }

    // The tab as a user sees it on the current device: a vocabulary built from an image of shapes, its words
    // over the image, then the sweep.
    void screenshots() {
        test::PrivateWindow window;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(window.window, reports, kTimeoutMs));
        const QString shapesPath = dir_.filePath(QStringLiteral("shapes.png"));
        const ImageRGBA8 shapes = shapesImage(480, 320);
        io::saveImage(shapesPath, shapes);
        VisualWordsView view;
        QSignalSpy problems(&view, &VisualWordsView::problemReported);
        QVERIFY(test::showExposed(view, QSize(1200, 560)));
        view.setSource(std::make_shared<const ImageRGBA8>(shapes), shapesPath, window.window.currentDevice());
        QCOMPARE(view.strategy(), QString::fromUtf8(bow::kDefaultStrategy));
        view.setVocabularySize(12);
        QSignalSpy shown(&view, &VisualWordsView::wordsShown);
        view.buildVocabulary({shapesPath});
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY(problems.isEmpty());
        test::replotNow(view);
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("visual-words.png"))));
        view.setSweepSizes(QStringLiteral("1024, 4096"), QStringLiteral("16, 64"));
        test::part<QTabWidget>(view, "visualWordsTabs")->setCurrentIndex(1);
        QSignalSpy swept(&view, &VisualWordsView::sweepShown);
        view.runSweep();
        QVERIFY(swept.wait(kTimeoutMs));
        QVERIFY(problems.isEmpty());
        test::replotNow(view);
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("visual-words-sweep.png"))));
    }

    // k-means over the descriptors of two images: progress reported from the first step, and the vocabulary
    // saved and re-read unchanged.
    void buildsAVocabularyFromTwoImages() {
        VisualWordsView view;
        QSignalSpy problems(&view, &VisualWordsView::problemReported);
        QSignalSpy progress(&view, &VisualWordsView::vocabularyProgress);
        QSignalSpy changed(&view, &VisualWordsView::vocabularyChanged);
        view.setVocabularySize(6);
        view.buildVocabulary({firstPath_, secondPath_});
        QVERIFY(view.building());
        QVERIFY(changed.wait(kTimeoutMs));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.isEmpty() ? QString() : problems[0][1].toString()));
        QVERIFY(!view.building());
        QCOMPARE(view.vocabulary()->rows(), 6u);
        // The first step assigns every descriptor of both images, counted from the engine's grids.
        const std::size_t descriptors = bow::descriptorGrid(first_.width, first_.height, {}).count() +
                                        bow::descriptorGrid(second_.width, second_.height, {}).count();
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress[0][0].toInt(), 1);
        QCOMPARE(progress[0][1].toULongLong(), static_cast<qulonglong>(descriptors));

        const QString path = dir_.filePath(QStringLiteral("built.npy"));
        view.saveVocabulary(path);
        QCOMPARE(io::readDescriptorArray(path).values, view.vocabulary()->values);
    }

    void cancelStopsKMeansAndKeepsThePreviousVocabulary() {
        VisualWordsView view;
        QVERIFY(view.loadVocabulary(vocabularyPath_));
        const auto previous = view.vocabulary();
        StepGate gate;
        view.setKMeansProbe([&gate] { gate.arrive(); });
        QSignalSpy cancelled(&view, &VisualWordsView::vocabularyCancelled);
        QSignalSpy changed(&view, &VisualWordsView::vocabularyChanged);
        QSignalSpy progress(&view, &VisualWordsView::vocabularyProgress);
        view.setVocabularySize(5);
        view.buildVocabulary({firstPath_});
        QVERIFY(QTest::qWaitFor([&gate] { return gate.hasArrived(); }, kTimeoutMs));
        auto* cancel = test::part<QPushButton>(view, "cancelVocabulary");
        QVERIFY(cancel->isEnabled());
        cancel->click();
        gate.release();
        QVERIFY(cancelled.wait(kTimeoutMs));
        view.setKMeansProbe({});
        QVERIFY(!view.building());
        QCOMPARE(view.vocabulary(), previous);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(progress.count(), 1);  // stopped at the step where Cancel was pressed
        // k-means ran off the GUI thread, which answered the click while k-means was held.
        QVERIFY(gate.thread && gate.thread != QThread::currentThread());
    }

    void gridOverlayHasTheEngineGridPoints() {
        VisualWordsView view;
        QVERIFY(test::showExposed(view, QSize(900, 500)));
        // By hand: 100 x 80, window 40 (s = 2), stride 20: x0 + 42 <= 100 gives x0 in {0, 20, 40}, y0 + 42 <=
        // 80 gives y0 in {0, 20}: 6 windows.
        view.setSource(std::make_shared<const ImageRGBA8>(test::opaqueRandomImage(100, 80, 3)), {},
                       std::nullopt);
        view.setDescriptorParams({40, 20});
        QCOMPARE(view.overlay()->drawnWindows(), 6u);
        // Any other size: as many as the engine's reference computes descriptors.
        const ImageRGBA8 odd = test::opaqueRandomImage(203, 161, 4);
        view.setSource(std::make_shared<const ImageRGBA8>(odd), {}, std::nullopt);
        view.setDescriptorParams({60, 17});
        QCOMPARE(view.overlay()->drawnWindows(), bow::referenceDescriptors(odd, {60, 17}).rows());
        // A window typed off the multiples of 20 snaps to the nearest one.
        test::part<QSpinBox>(view, "descriptorWindow")->setValue(50);
        QCOMPARE(view.descriptorParams().window, 60);
        QCOMPARE(view.overlay()->drawnWindows(), bow::referenceDescriptors(odd, {60, 17}).rows());
        test::part<QSpinBox>(view, "descriptorWindow")->setValue(41);
        QCOMPARE(view.descriptorParams().window, 40);
        QCOMPARE(view.overlay()->drawnWindows(), bow::referenceDescriptors(odd, {40, 17}).rows());
        test::part<QCheckBox>(view, "showDescriptorGrid")->setChecked(false);
        QCOMPARE(view.overlay()->drawnWindows(), 0u);
    }

    // A sweep, then another held before a row of its second size and cancelled there: while it runs the
    // previous sweep stays shown; once cancelled the rows measured until then replace it in the table, the
    // plot and sweep() (in the sweep's order, the first size's complete), the buttons come back, and the
    // next sweep runs to its end.
    void cancelStopsTheSweepBetweenRowsAndKeepsTheRowsMeasured() {
        Runtime runtime;
        QVERIFY(!runtime.devices().empty());
        VisualWordsView view;
        QSignalSpy problems(&view, &VisualWordsView::problemReported);
        QVERIFY(test::showExposed(view, QSize(1200, 560)));
        view.setSource(std::make_shared<const ImageRGBA8>(first_), firstPath_, runtime.devices().front());
        test::part<QTabWidget>(view, "visualWordsTabs")->setCurrentIndex(1);
        view.setSweepSizes(QStringLiteral("256, 512"), QStringLiteral("4, 8"));
        test::part<QSpinBox>(view, "sweepRepetitions")->setValue(1);
        const int strategies = static_cast<int>(bow::strategies().size());
        const int total = 4 * strategies;
        QSignalSpy shown(&view, &VisualWordsView::sweepShown);
        QSignalSpy cancelled(&view, &VisualWordsView::sweepCancelled);
        auto* run = test::part<QPushButton>(view, "runSweep");
        auto* cancel = test::part<QPushButton>(view, "cancelSweep");
        auto* progress = test::part<QProgressBar>(view, "sweepProgress");
        auto* table = test::part<QTableWidget>(view, "sweepTable");
        auto* label = test::part<QLabel>(view, "sweepLabel");
        const auto sweepToTheEnd = [&] {
            const int before = shown.count();
            run->click();
            QVERIFY(QTest::qWaitFor([&] { return shown.count() > before; }, kTimeoutMs));
            QVERIFY(!view.sweep()->cancelled);
            QCOMPARE(static_cast<int>(view.sweep()->rows.size()), total);
            QCOMPARE(table->rowCount(), total);
            QVERIFY(label->text().isEmpty());
        };
        sweepToTheEnd();
        if (QTest::currentTestFailed()) return;

        // Held before the fourth row of the second size (strategy order: the registry's).
        const int measured = strategies + 3;
        RowGate gate(measured);
        view.setSweepProbe([&gate] { gate.arrive(); });
        QVERIFY(!cancel->isVisible());
        run->click();
        QVERIFY(QTest::qWaitFor([&gate] { return gate.holding(); }, kTimeoutMs));
        QTRY_COMPARE_WITH_TIMEOUT(progress->value(), measured, kTimeoutMs);
        QVERIFY(view.sweeping());
        QVERIFY(!run->isEnabled());
        QVERIFY(cancel->isVisible() && cancel->isEnabled());
        QCOMPARE(progress->maximum(), total);
        QCOMPARE(table->rowCount(), total);  // the previous sweep's, until this one ends
        test::replotNow(view);
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("visual-words-sweep-cancel.png"))));

        cancel->click();
        gate.release();
        QVERIFY(cancelled.wait(kTimeoutMs));
        view.setSweepProbe({});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.isEmpty() ? QString() : problems[0][1].toString()));
        QCOMPARE(shown.count(), 2);
        QVERIFY(!view.sweeping());
        QVERIFY(run->isEnabled());
        QCOMPARE(run->text(), QStringLiteral("Sweep"));
        QVERIFY(!cancel->isVisible());
        QVERIFY(view.sweep()->cancelled);
        const auto& rows = view.sweep()->rows;
        QCOMPARE(static_cast<int>(rows.size()), measured);
        QCOMPARE(table->rowCount(), measured);
        for (int r = 0; r < measured; ++r) {
            const auto& row = rows[static_cast<std::size_t>(r)];
            QCOMPARE(row.descriptors, std::size_t(r < 2 * strategies ? 256 : 512));
            QCOMPARE(row.centroids, std::size_t((r / strategies) % 2 == 0 ? 4 : 8));
            QCOMPARE(row.strategy,
                     std::string(bow::strategies()[static_cast<std::size_t>(r % strategies)]->name()));
            QCOMPARE(table->item(r, 2)->text(), QString::fromStdString(row.strategy));
            // bow-tensor needs NVIDIA tensor cores: elsewhere its rows say why and hold no figures.
            if (row.strategy == "bow-tensor" && runtime.devices().front().nvidiaComputeCapability < 80) {
                QVERIFY2(!row.kernel && row.detail.find("tensor cores") != std::string::npos,
                         row.detail.c_str());
                continue;
            }
            QVERIFY2(row.kernel.has_value(), row.detail.c_str());
            QCOMPARE(row.misassigned, std::size_t{0});
            QCOMPARE(table->item(r, 2)->text(), QString::fromStdString(row.strategy));
            QCOMPARE(table->item(r, 1)->text(), QString::number(row.centroids));
        }
        // Every strategy ran at the first size: one series each.
        QCOMPARE(view.sweepPlot()->plottableCount(), strategies);
        QVERIFY2(label->text().contains(QStringLiteral("%1 of %2").arg(measured).arg(total)),
                 qPrintable(label->text()));
        test::replotNow(view);
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("visual-words-sweep-cancelled.png"))));

        sweepToTheEnd();
        QCOMPARE(cancelled.count(), 1);
    }

    // Without a device only host strategies run; the engine's default comes back with a device.
    void strategiesFollowTheDevice() {
        VisualWordsView view;
        auto* box = test::part<QComboBox>(view, "bowStrategy");
        const auto image = std::make_shared<const ImageRGBA8>(first_);
        view.setSource(image, {}, std::nullopt);
        const auto* model = qobject_cast<const QStandardItemModel*>(box->model());
        QCOMPARE(box->count(), static_cast<int>(bow::strategies().size()));
        for (int i = 0; i < box->count(); ++i) {
            const bow::Strategy& strategy = *bow::strategies()[static_cast<std::size_t>(i)];
            QCOMPARE(box->itemText(i), QString::fromUtf8(strategy.name()));
            QCOMPARE(model->item(i)->isEnabled(), !strategy.runsOnDevice());
        }
        QVERIFY(!view.setStrategy(QString::fromUtf8(bow::kDefaultStrategy)));
        QVERIFY(!bow::findStrategy(view.strategy().toStdString()).runsOnDevice());

        Runtime runtime;
        QVERIFY(!runtime.devices().empty());
        const DeviceInfo& device = runtime.devices().front();
        view.setSource(image, {}, device);
        QCOMPARE(view.strategy(), QString::fromUtf8(bow::kDefaultStrategy));
        const bow::Shape shape{bow::descriptorGrid(first_.width, first_.height, {}).count(), 64};
        for (int i = 0; i < box->count(); ++i)
            QCOMPARE(
                model->item(i)->isEnabled(),
                bow::strategies()[static_cast<std::size_t>(i)]->supported(&device, shape, bow::Matrix{}).ok);
    }

    // Through the window: the Load button's dialog, a message box's report, and the vocabulary kept.
    void badNpyIsReportedAndThePreviousVocabularyStays() {
        test::PrivateWindow window;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(window.window, reports, kTimeoutMs));
        auto* view = test::part<VisualWordsView>(window.window);
        QVERIFY(view);
        auto* load = test::part<QPushButton>(*view, "loadVocabulary");
        test::answerNextFileDialog(vocabularyPath_);
        load->click();
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        const auto previous = view->vocabulary();
        QVERIFY(previous);

        // Not NumPy at all, and a float32 array of the wrong width.
        const QString garbage = dir_.filePath(QStringLiteral("garbage.npy"));
        QVERIFY(test::writeFile(garbage, QByteArray("this is not an array\n")));
        QByteArray narrow = io::descriptorArrayBytes(vocabularyFrom(first_, 2));
        narrow.replace("(2, 64)", "(4, 32)");
        const QString wrongWidth = dir_.filePath(QStringLiteral("wrong-width.npy"));
        QVERIFY(test::writeFile(wrongWidth, narrow));
        for (const QString& bad : {garbage, wrongWidth}) {
            reports.clear();
            test::answerNextFileDialog(bad);
            load->click();
            QCOMPARE(reports.size(), 1);
            QVERIFY2(reports[0].message.contains(bad), qPrintable(reports[0].message));
            QCOMPARE(view->vocabulary(), previous);
        }
        // No images and k beyond the descriptors: reported, nothing built.
        reports.clear();
        view->buildVocabulary({});
        QCOMPARE(reports.size(), 1);
        QSignalSpy failedBuild(view, &VisualWordsView::problemReported);
        view->setVocabularySize(1000);
        view->buildVocabulary({firstPath_});
        QVERIFY(failedBuild.wait(kTimeoutMs));
        QVERIFY2(reports.last().message.contains(QStringLiteral("1000")), qPrintable(reports.last().message));
        QVERIFY(!view->building());
        QCOMPARE(view->vocabulary(), previous);
    }

  private:
    QTemporaryDir dir_;
    ImageRGBA8 first_ = test::opaqueRandomImage(320, 240, 11);
    ImageRGBA8 second_ = test::opaqueRandomImage(200, 140, 12);
    QString firstPath_;
    QString secondPath_;
    QString vocabularyPath_;
};

QTEST_MAIN(VisualWordsViewTest)
#include "views_visual_words_test.moc"
