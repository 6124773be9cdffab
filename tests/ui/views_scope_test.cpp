// The Scopes dock and the region of interest (issue 25), in the main window: the dock's counts against
// scope::referenceScope of the image, the drawn waveform of a two-column image cell by cell, the hover
// readout, a region set programmatically and drawn by a Shift+drag (the histogram against one counted by the
// test over the cropped pixels), Esc, the per-image memory, and the NPY/CSV/PNG exports re-read.

#include <QDockWidget>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <QtTest/QtTest>
#include <cstring>

#include "engine/image/region.hpp"
#include "engine/ops/scope/scope.hpp"
#include "io/image_io.hpp"
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

// Every <text> of an SVG file, in the order drawn.
QStringList svgTexts(const QString& path) {
    QStringList texts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return texts;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    return texts;
}

// A zlib stream of a PDF Qt wrote, inflated (qUncompress wants the size first, big-endian: a bound will do).
QByteArray inflated(QByteArray zlib) {
    const quint32 bound = 64u << 20;
    zlib.prepend(QByteArray(1, char(bound >> 24)) + char((bound >> 16) & 0xff) + char(0) + char(0));
    return qUncompress(zlib);
}

// The text a PDF Qt wrote shows, in the order drawn: each glyph of the page's "/F<n> <size> Tf ... <gid> Tj"
// mapped back to its character through the ToUnicode map of font resource /F<n> (bfchar and bfrange
// entries), as a PDF reader's text extraction does.
QString pdfText(const QByteArray& pdf) {
    std::map<int, QByteArray> objects;  // number -> dictionary and inflated stream
    static const QRegularExpression objectPattern(QStringLiteral("(\\d+) 0 obj(.*?)endobj"),
                                                  QRegularExpression::DotMatchesEverythingOption);
    for (auto it = objectPattern.globalMatch(QString::fromLatin1(pdf)); it.hasNext();) {
        const auto match = it.next();
        QByteArray body = match.captured(2).toLatin1();
        if (const qsizetype stream = body.indexOf("stream\n"); stream >= 0) {
            const qsizetype end = body.lastIndexOf("endstream");
            const QByteArray data = body.mid(stream + 7, end - stream - 7);
            body = body.left(stream) + (body.left(stream).contains("/FlateDecode") ? inflated(data) : data);
        }
        objects[match.captured(1).toInt()] = body;
    }
    const auto hexNumber = [](const QString& hex) { return hex.toUInt(nullptr, 16); };
    // Font resource name -> glyph id -> character.
    std::map<QString, std::map<uint, QString>> maps;
    static const QRegularExpression resource(QStringLiteral("/(F\\d+) (\\d+) 0 R"));
    static const QRegularExpression toUnicode(QStringLiteral("/ToUnicode (\\d+) 0 R"));
    static const QRegularExpression range(
        QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*(?:<([0-9A-Fa-f]+)>|\\[([^\\]]*)\\])"));
    static const QRegularExpression single(QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>"));
    static const QRegularExpression hex(QStringLiteral("<([0-9A-Fa-f]+)>"));
    for (const auto& [number, body] : objects)
        for (auto it = resource.globalMatch(QString::fromLatin1(body)); it.hasNext();) {
            const auto font = it.next();
            const auto unicode = toUnicode.match(QString::fromLatin1(objects[font.captured(2).toInt()]));
            if (!unicode.hasMatch()) continue;
            const QString cmap = QString::fromLatin1(objects[unicode.captured(1).toInt()]);
            std::map<uint, QString>& glyphs = maps[font.captured(1)];
            const auto character = [](uint code) { return QString(QChar(char16_t(code))); };
            for (const QString& block : cmap.split(QStringLiteral("beginbfrange")).mid(1))
                for (auto r = range.globalMatch(block.section(QStringLiteral("endbfrange"), 0, 0));
                     r.hasNext();) {
                    const auto entry = r.next();
                    const uint first = hexNumber(entry.captured(1));
                    const uint last = hexNumber(entry.captured(2));
                    if (!entry.captured(3).isEmpty()) {
                        for (uint g = first; g <= last; ++g)
                            glyphs[g] = character(hexNumber(entry.captured(3)) + (g - first));
                    } else {
                        uint g = first;
                        for (auto h = hex.globalMatch(entry.captured(4)); h.hasNext() && g <= last; ++g)
                            glyphs[g] = character(hexNumber(h.next().captured(1)));
                    }
                }
            for (const QString& block : cmap.split(QStringLiteral("beginbfchar")).mid(1))
                for (auto c = single.globalMatch(block.section(QStringLiteral("endbfchar"), 0, 0));
                     c.hasNext();) {
                    const auto entry = c.next();
                    glyphs[hexNumber(entry.captured(1))] = character(hexNumber(entry.captured(2)));
                }
        }
    QString text;
    static const QRegularExpression operation(
        QStringLiteral("/(F\\d+)\\s+[-0-9.]+\\s+Tf|<([0-9A-Fa-f]+)>\\s*Tj"));
    for (const auto& [number, body] : objects) {
        if (!body.contains(" Tf")) continue;
        QString font;
        for (auto it = operation.globalMatch(QString::fromLatin1(body)); it.hasNext();) {
            const auto match = it.next();
            if (!match.captured(1).isEmpty()) {
                font = match.captured(1);
                continue;
            }
            const QString glyphs = match.captured(2);
            for (qsizetype at = 0; at + 4 <= glyphs.size(); at += 4)
                text += maps[font][hexNumber(glyphs.mid(at, 4))];
        }
    }
    return text;
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

    // Hovering a pane of the dock shows its cell's readout in the toolbar, in both intensity scales.
    void hoverReadoutInTheDock() {
        for (const auto kind : {scope::Kind::Waveform, scope::Kind::Vectorscope}) {
            for (const bool log : {false, true}) {
                view_->setLogIntensity(log);
                ScopePane* pane = view_->pane(kind);
                const QPoint at = pane->scopeArea().center().toPoint();
                QTest::mouseMove(pane, at);
                QTRY_COMPARE(view_->readout(), pane->describe(at));
                QVERIFY(view_->readout().contains(kind == scope::Kind::Vectorscope ? "Cb " : "column "));
                QTest::mouseMove(pane, at + QPoint(1, 1));  // a fresh position for the next round
            }
        }
        view_->setLogIntensity(false);
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

    // A lone count stays visible on a pane smaller than the counts: shrunkByMaximum keeps the brightest cell
    // of each block (checked by hand on 4 x 4 cells), and the drawn pane lights the lone cell's block at
    // every side from 120 to 160 pixels.
    void aLoneCountSurvivesASmallPane() {
        QImage cells(4, 4, QImage::Format_RGB32);
        cells.fill(Qt::black);
        cells.setPixel(3, 1, qRgb(10, 200, 30));
        cells.setPixel(0, 3, qRgb(90, 0, 0));
        const QImage shrunk = shrunkByMaximum(cells, QSize(2, 2));
        QCOMPARE(shrunk.pixel(1, 0), qRgb(10, 200, 30));
        QCOMPARE(shrunk.pixel(0, 1), qRgb(90, 0, 0));
        QCOMPARE(shrunk.pixel(0, 0), qRgb(0, 0, 0));
        QCOMPARE(shrunk.pixel(1, 1), qRgb(0, 0, 0));

        const std::uint8_t pixel[4] = {10, 200, 30, 255};
        const int cb = scope::cb(10, 200, 30);
        const int cr = scope::cr(10, 200, 30);
        ScopePane pane(scope::Kind::Vectorscope);
        pane.setCounts(scope::referenceScope(pixel, 1, 1, paramsOf(scope::Kind::Vectorscope)), false);
        for (int side = 120; side <= 160; ++side) {
            pane.resize(side, side);
            const QImage drawn = pane.grab().toImage();
            const int left = cb * side / 256;
            const int top = (255 - cr) * side / 256;
            int brightest = 0;
            for (int y = top; y <= (256 - cr) * side / 256 && y < side; ++y)
                for (int x = left; x <= (cb + 1) * side / 256 && x < side; ++x)
                    brightest = std::max(brightest, qGray(drawn.pixel(x, y)));
            QVERIFY2(brightest > 200, qPrintable(QStringLiteral("side %1: %2").arg(side).arg(brightest)));
        }
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

    // The graticule's labels, hand-placed: on 256 pixels with 12-pixel labels all five fit; on 60 pixels the
    // 0 % label is clamped up to centre 54 and the 100 % one down to 6, 50 % sits at 30, and 25 % (45) and
    // 75 % (15) come within 14 pixels (a label and the gap) of them; on 20 pixels 100 % (6) is within 14 of
    // 0 % (14); a pane lower than a label and its gaps gets none.
    void graticuleLabelsDoNotOverlap() {
        QCOMPARE(graticuleLabels(256, 12), (std::vector<int>{0, 25, 50, 75, 100}));
        QCOMPARE(graticuleLabels(60, 12), (std::vector<int>{0, 50, 100}));
        QCOMPARE(graticuleLabels(20, 12), (std::vector<int>{0}));
        QCOMPARE(graticuleLabels(15, 12), std::vector<int>());
        // Drawn small, the pane still shows its readouts (value and column) and both intensity scales.
        ScopePane pane(scope::Kind::Waveform);
        pane.resize(200, 120);  // its minimum height
        ImageRGBA8 image(1, 1);
        image.pixels = {128, 128, 128, 255};
        const scope::Counts counts =
            scope::referenceScope(image.pixels.data(), 1, 1, paramsOf(scope::Kind::Waveform));
        for (const bool log : {false, true}) {
            pane.setCounts(counts, log);
            // Value 128 is row 127 of 256 from the top: 120 * 127.5 / 256 = 59.8 pixels down.
            QCOMPARE(pane.describe(QPointF(100, 59.8)), QStringLiteral("luma value 128  column 0  count 1"));
            QVERIFY(pane.grab().save(
                test::artifactPath(QStringLiteral("views_scope_small_%1.png").arg(log ? "log" : "linear"))));
        }
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

    // Opening image A, drawing a region, opening B (no region), then A again: A's region counts again.
    void regionFollowsTheImageOpened() {
        QTemporaryDir folder;
        const ImageRGBA8 a = test::opaqueRandomImage(64, 48, 3);
        const ImageRGBA8 b = test::opaqueRandomImage(50, 40, 4);
        const QString pathA = folder.filePath(QStringLiteral("a.png"));
        const QString pathB = folder.filePath(QStringLiteral("b.png"));
        io::saveImage(pathA, a);
        io::saveImage(pathB, b);
        const Region region{40, 30, 24, 18};  // A's bottom-right corner
        showAndWait([&] { window_.window.openImage(pathA); }, std::nullopt);
        showAndWait([&] { regions_->setRegion(region); }, region);
        showAndWait([&] { window_.window.openImage(pathB); }, std::nullopt);
        QCOMPARE(window_.window.model().values(), test::referenceOf(b, 256));
        showAndWait([&] { window_.window.openImage(pathA); }, region);
        QCOMPARE(window_.window.model().values(),
                 test::referenceOf(cropped(a.pixels.data(), a.width, region), 256));
        QVERIFY(*countsOf(window_.window.model(), scope::Kind::Vectorscope) ==
                scope::referenceScope(a.pixels.data(), a.width, a.height,
                                      paramsOf(scope::Kind::Vectorscope, scope::Channel::Luma, region)));
        showAndWait([&] { regions_->clear(); }, std::nullopt);
        image_ = std::make_shared<const ImageRGBA8>(test::opaqueRandomImage(211, 97, 25));
        showAndWait([this] { window_.window.showImage(image_, QStringLiteral("random 211 × 97")); },
                    std::nullopt);
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

        for (const auto kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope}) {
            const QString name = QString::fromUtf8(scope::kindName(kind));
            const QSize size = ScopeView::documentSize(kind);
            const QString title = view_->titleOf(kind);
            const QString context = view_->contextOf(kind);
            QVERIFY2(context.contains(QStringLiteral("211 × 97 pixels")), qPrintable(context));

            const QString png = folder.filePath(name + QStringLiteral(".png"));
            view_->exportImage(kind, png);
            const QImage read(png);
            QCOMPARE(read.size(), size);
            QVERIFY(read.save(test::artifactPath(QStringLiteral("views_scope_%1_export.png").arg(name))));

            // The SVG's texts are the title and the context line; drawn back, it has the PNG's size.
            const QString svg = folder.filePath(name + QStringLiteral(".svg"));
            view_->exportImage(kind, svg);
            const QStringList texts = svgTexts(svg);
            QVERIFY2(texts.contains(title) && texts.contains(context), qPrintable(texts.join('|')));
            QSvgRenderer renderer(svg);
            QVERIFY(renderer.isValid());
            QCOMPARE(renderer.viewBox(), QRect(QPoint(0, 0), size));
            QImage drawnBack(size, QImage::Format_RGB32);
            QPainter painter(&drawnBack);
            renderer.render(&painter);
            painter.end();
            QVERIFY(drawnBack.save(
                test::artifactPath(QStringLiteral("views_scope_%1_svg_drawn_back.png").arg(name))));

            // The PDF: one page of the layout's size in points, titled, its text the title and the context.
            const QString pdf = folder.filePath(name + QStringLiteral(".pdf"));
            view_->exportImage(kind, pdf);
            QFile pdfFile(pdf);
            QVERIFY(pdfFile.open(QIODevice::ReadOnly));
            const QByteArray pdfBytes = pdfFile.readAll();
            QVERIFY(pdfBytes.startsWith("%PDF-") && pdfBytes.trimmed().endsWith("%%EOF"));
            const auto mediaBox =
                QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"))
                    .match(QString::fromLatin1(pdfBytes));
            QVERIFY(mediaBox.hasMatch());
            QCOMPARE(mediaBox.captured(1).toDouble(), size.width());
            QCOMPARE(mediaBox.captured(2).toDouble(), size.height());
            // How a space is drawn (a glyph, a move, a tab's glyph) is the PDF writer's choice: compared
            // without white space.
            const auto bare = [](QString text) {
                return text.remove(QRegularExpression(QStringLiteral("\\s")));
            };
            const QString shown = bare(pdfText(pdfBytes));
            QVERIFY2(shown.contains(bare(title)) && shown.contains(bare(context)), qPrintable(shown));
            for (const char* format : {"png", "pdf", "svg"})
                view_->exportImage(kind,
                                   test::artifactPath(QStringLiteral("views_scope_%1.%2").arg(name, format)));
        }
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
