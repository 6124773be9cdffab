// The Scopes dock and the region of interest (issue 25), in the main window: the dock's counts against
// scope::referenceScope of the image, the drawn waveform of a two-column image cell by cell, the hover
// readout, a region set programmatically and drawn by a Shift+drag (the histogram against one counted by the
// test over the cropped pixels), Esc, the per-image memory, and the NPY/CSV/PNG exports re-read.

#include <QDockWidget>
#include <QSignalSpy>
#include <QtTest/QtTest>
#include <cstring>

#include "engine/image/region.hpp"
#include "engine/ops/scope/scope.hpp"
#include "ui/display/image_view.hpp"
#include "ui/display/region_selector.hpp"
#include "ui/views/scope_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

scope::Params paramsOf(scope::Kind kind, scope::Channel channel = scope::Channel::Luma,
                       std::optional<Region> roi = std::nullopt) {
    scope::Params params;
    params.kind = kind;
    params.channel = channel;
    params.roi = roi;
    return params;
}

const scope::Counts* countsOf(const RunModel& model, scope::Kind kind) {
    for (const auto& counts : model.scopes())
        if (counts.kind == kind) return &counts;
    return nullptr;
}

}  // namespace

class ScopeViewTest : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(test::showWithDevices(window_.window, reports_, kResultTimeoutMs));
        view_ = test::part<ScopeView>(window_.window);
        dock_ = window_.window.findChild<QDockWidget*>(QStringLiteral("scopesDock"));
        regions_ = window_.window.findChild<RegionSelector*>();
        imageView_ = test::part<ImageView>(window_.window);
        QVERIFY(view_ && dock_ && regions_ && imageView_);
        dock_->show();
        dock_->raise();
        for (const auto kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope})
            view_->setScopeShown(kind, true);
        view_->setWaveformChannel(scope::Channel::G);
    }

    // Every scope the dock shows is referenceScope of the image shown, and the panes hold the same counts.
    void countsEqualTheReference() {
        image_ = std::make_shared<const ImageRGBA8>(test::opaqueRandomImage(211, 97, 25));
        showAndWait([this] { window_.window.showImage(image_, QStringLiteral("random 211 × 97")); },
                    std::nullopt);
        const RunModel& model = window_.window.model();
        QCOMPARE(model.scopes().size(), std::size_t(3));
        const auto* rgba = image_->pixels.data();
        QVERIFY(*countsOf(model, scope::Kind::Waveform) ==
                scope::referenceScope(rgba, 211, 97, paramsOf(scope::Kind::Waveform, scope::Channel::G)));
        QVERIFY(*countsOf(model, scope::Kind::Parade) ==
                scope::referenceScope(rgba, 211, 97, paramsOf(scope::Kind::Parade)));
        QVERIFY(*countsOf(model, scope::Kind::Vectorscope) ==
                scope::referenceScope(rgba, 211, 97, paramsOf(scope::Kind::Vectorscope)));
        for (const auto kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope})
            QVERIFY(view_->pane(kind)->counts() == *countsOf(model, kind));
        QVERIFY(view_->grab().save(test::artifactPath(QStringLiteral("views_scope_dock.png"))));
    }

    // Column 0 all value 10, column 1 all value 200 (grey): the waveform lights exactly the cells (0, 10) and
    // (1, 200), drawn with the value rising upwards; the hover readout names the cell.
    void twoColumnWaveformLightsItsCells() {
        ImageRGBA8 image(2, 5);
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 2; ++x) {
                const std::uint8_t value = x == 0 ? 10 : 200;
                std::uint8_t* pixel = &image.pixels[(std::size_t(y) * 2 + std::size_t(x)) * 4];
                pixel[0] = pixel[1] = pixel[2] = value;
                pixel[3] = 255;
            }
        const scope::Counts counts =
            scope::referenceScope(image.pixels.data(), 2, 5, paramsOf(scope::Kind::Waveform));
        for (const bool log : {false, true}) {
            const QImage drawn = scopeIntensity(counts, log);
            QCOMPARE(drawn.size(), QSize(2, 256));
            for (int y = 0; y < 256; ++y)
                for (int x = 0; x < 2; ++x) {
                    const bool lit = (x == 0 && y == 255 - 10) || (x == 1 && y == 255 - 200);
                    QVERIFY2((qGray(drawn.pixel(x, y)) > 0) == lit,
                             qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
                }
        }
        ScopePane pane(scope::Kind::Waveform);
        pane.resize(200, 256);
        pane.setCounts(counts, false);
        // Column 0 is the left half; value 10 is row 245 of 256 rows.
        QCOMPARE(pane.describe(QPointF(50, 245.5)), QStringLiteral("luma value 10  column 0  count 5"));
        QCOMPARE(pane.describe(QPointF(150, 55.5)), QStringLiteral("luma value 200  column 1  count 5"));
        QCOMPARE(pane.describe(QPointF(150, 100.5)), QStringLiteral("luma value 155  column 1  count 0"));
    }

    // A vectorscope pane wider than tall draws into its centred square: a grey pixel (Cb 128, Cr 128) is read
    // back under the square's centre, and the pane's margins beside the square read nothing.
    void vectorscopeKeepsASquare() {
        const std::uint8_t grey[4] = {128, 128, 128, 255};
        scope::Params params;
        params.kind = scope::Kind::Vectorscope;
        ScopePane pane(scope::Kind::Vectorscope);
        pane.resize(400, 200);
        pane.setCounts(scope::referenceScope(grey, 1, 1, params), false);
        QCOMPARE(pane.scopeArea(), QRectF(100, 0, 200, 200));
        // Cell 128 of 256 across 200 px starts at 100 px into the square; row 127 from the top is Cr 128.
        QCOMPARE(pane.describe(QPointF(100 + 100.2, 99.5)), QStringLiteral("Cb 128  Cr 128  count 1"));
        QCOMPARE(pane.describe(QPointF(50, 100)), QString());
        QCOMPARE(pane.describe(QPointF(350, 100)), QString());
    }

    // The 75 % colour bars' targets, hand-computed from the Cb/Cr definitions: red (191, 0, 0) gives
    // Cb = (-11059·191 + 8421375) >> 16 = 6309106 >> 16 = 96, Cr = (32768·191 + 8421375) >> 16 = 14680063 >>
    // 16 = 223.
    void vectorscopeTargets() {
        const auto targets = colourBarTargets();
        QCOMPARE(targets[0].name, QStringLiteral("R"));
        QCOMPARE(targets[0].cb, 96);
        QCOMPARE(targets[0].cr, 223);
        QCOMPARE(targets[4].name, QStringLiteral("G"));
        QCOMPARE(targets[4].cb, (-21709 * 191 + 8421375) >> 16);
        QCOMPARE(targets[4].cr, (-27439 * 191 + 8421375) >> 16);
    }

    // A region set programmatically: the histogram is the cropped image's, the scopes count the region.
    void regionSetProgrammatically() {
        const Region region{150, 80, 61, 17};  // on the bottom-right border
        showAndWait([&] { regions_->setRegion(region); }, region);
        checkRegion(region);
        QVERIFY(window_.window.grab().save(test::artifactPath(QStringLiteral("views_scope_region.png"))));
    }

    // A Shift+drag on the image view draws the region: every image pixel the rectangle touches counts.
    void regionDrawnByDragThenEsc() {
        const QPoint from = widgetPoint(20.3, 10.6);
        const QPoint to = widgetPoint(80.7, 40.2);
        const auto imageAt = [this](QPoint widget) {
            return (QPointF(widget) - imageView_->offset()) / imageView_->zoom();
        };
        const QPointF a = imageAt(from);
        const QPointF b = imageAt(to);
        const int x0 = int(std::floor(a.x()));
        const int y0 = int(std::floor(a.y()));
        const Region expected{x0, y0, int(std::ceil(b.x())) - x0, int(std::ceil(b.y())) - y0};
        showAndWait(
            [&] {
                QTest::mousePress(imageView_, Qt::LeftButton, Qt::ShiftModifier, from);
                QTest::mouseMove(imageView_, widgetPoint(50, 25));
                QTest::mouseMove(imageView_, to);
                QTest::mouseRelease(imageView_, Qt::LeftButton, Qt::ShiftModifier, to);
            },
            expected);
        QCOMPARE(regions_->region(), std::optional<Region>(expected));
        checkRegion(expected);

        showAndWait([&] { QTest::keyClick(imageView_, Qt::Key_Escape); }, std::nullopt);
        QVERIFY(!regions_->region());
        QCOMPARE(window_.window.model().values(), test::referenceOf(*image_, 256));
    }

    // Each image path keeps its region for the session.
    void regionRememberedPerImage() {
        const Region region{5, 6, 7, 8};
        regions_->setImagePath(QStringLiteral("/images/a.png"));
        regions_->setRegion(region);
        regions_->setImagePath(QStringLiteral("/images/b.png"));
        QVERIFY(!regions_->region());
        regions_->setImagePath(QStringLiteral("/images/a.png"));
        QCOMPARE(regions_->region(), std::optional<Region>(region));
        showAndWait([&] { regions_->clear(); }, std::nullopt);
    }

    // The counts exported as NPY re-read byte by byte equal the model's; CSV and PNG as described.
    void exportsReRead() {
        QTemporaryDir folder;
        const auto& counts = *countsOf(window_.window.model(), scope::Kind::Parade);
        const QString npy = folder.filePath(QStringLiteral("parade.npy"));
        view_->exportCounts(scope::Kind::Parade, npy);
        QFile file(npy);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("\x93NUMPY\x01\x00"));
        const int headerLength = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9])
                                                                            << 8;
        const QByteArray header = bytes.mid(10, headerLength);
        QVERIFY2(header.contains("'descr': '<u4'") &&
                     header.contains(QStringLiteral("'shape': (3, 256, %1)").arg(counts.columns).toLatin1()),
                 header.constData());
        const QByteArray data = bytes.mid(10 + headerLength);
        QCOMPARE(data.size(), qsizetype(counts.counts.size() * 4));
        std::vector<std::uint32_t> reread(counts.counts.size());
        std::memcpy(reread.data(), data.constData(), std::size_t(data.size()));  // little-endian host
        QVERIFY(reread == counts.counts);

        const QString csv = folder.filePath(QStringLiteral("parade.csv"));
        view_->exportCounts(scope::Kind::Parade, csv);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().split('\n');
        // Header, then 3 × 256 rows; row "g,<v>" is plane 1's value v.
        QCOMPARE(lines[0].split(',').size(), 2 + counts.columns);
        const QList<QByteArray> g17 = lines[1 + 256 + 17].split(',');
        QCOMPARE(g17[0], QByteArray("g"));
        QCOMPARE(g17[2 + 3].toUInt(), counts.at(1, 17, 3));

        const QString png = folder.filePath(QStringLiteral("vectorscope.png"));
        view_->exportImage(scope::Kind::Vectorscope, png);
        QImage read(png);
        QVERIFY(!read.isNull());
        QVERIFY(read.save(test::artifactPath(QStringLiteral("views_scope_vectorscope_export.png"))));
        QVERIFY_THROWS_EXCEPTION(
            InputError, view_->exportCounts(scope::Kind::Parade, folder.filePath(QStringLiteral("x.txt"))));
    }

    // For people to look at: each scope of an image of theirs (HISTOSCOPE_SAMPLE_IMAGE, say the app's
    // sample), then the window with a region drawn on it, under artifacts/.
    void screenshotsOfAnImage() {
        const QString path = qEnvironmentVariable("HISTOSCOPE_SAMPLE_IMAGE");
        if (path.isEmpty()) QSKIP("HISTOSCOPE_SAMPLE_IMAGE names no image to take screenshots of");
        view_->setWaveformChannel(scope::Channel::Luma);
        showAndWait([&] { window_.window.openImage(path); }, std::nullopt);
        for (const auto kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope}) {
            const QString name = QStringLiteral("views_scope_sample_%1.png").arg(static_cast<int>(kind));
            QVERIFY(view_->renderWithTitle(kind, QSize(900, 560)).save(test::artifactPath(name)));
        }
        const QSize size = imageView_->imageSize();
        const Region region{size.width() / 4, size.height() / 4, size.width() / 3, size.height() / 3};
        showAndWait([&] { regions_->setRegion(region); }, region);
        QVERIFY(
            window_.window.grab().save(test::artifactPath(QStringLiteral("views_scope_sample_region.png"))));
        showAndWait([&] { regions_->clear(); }, std::nullopt);
    }

  private:
    // Runs `act` and waits for the result that counts `region`.
    template <typename Act>
    void showAndWait(Act act, std::optional<Region> region) {
        QSignalSpy shown(&window_.window, &MainWindow::resultShown);
        act();
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() &&
                                     window_.window.model().histogramContext().roi == region &&
                                     !window_.window.controller().busy(),
                                 kResultTimeoutMs);
        QVERIFY2(reports_.isEmpty(), test::messagesOf(reports_).constData());
    }

    void checkRegion(const Region& region) {
        const ImageRGBA8 crop = cropped(image_->pixels.data(), image_->width, region);
        const RunModel& model = window_.window.model();
        QCOMPARE(model.values(), test::referenceOf(crop, 256));
        QVERIFY(*countsOf(model, scope::Kind::Vectorscope) ==
                scope::referenceScope(crop.pixels.data(), crop.width, crop.height,
                                      paramsOf(scope::Kind::Vectorscope)));
        QVERIFY(*countsOf(model, scope::Kind::Waveform) ==
                scope::referenceScope(image_->pixels.data(), image_->width, image_->height,
                                      paramsOf(scope::Kind::Waveform, scope::Channel::G, region)));
    }

    QPoint widgetPoint(double x, double y) const {
        return (imageView_->offset() + QPointF(x, y) * imageView_->zoom()).toPoint();
    }

    test::PrivateWindow window_;
    QList<ErrorReport> reports_;
    std::shared_ptr<const ImageRGBA8> image_;
    ScopeView* view_ = nullptr;
    QDockWidget* dock_ = nullptr;
    RegionSelector* regions_ = nullptr;
    ImageView* imageView_ = nullptr;
};

QTEST_MAIN(ScopeViewTest)
#include "views_scope_test.moc"
