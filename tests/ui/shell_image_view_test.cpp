// ImageView: the view transform (fit, zoom about a point, pan, 1:1), the pixel readout, and that both
// canvases (OpenGL and the raster stand-in) draw the image's own pixels.
#include <QSignalSpy>
#include <QtTest/QtTest>
#include <cmath>

#include "ui/display/image_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

QPointF imagePointAt(const ImageView& view, QPointF widgetPosition) {
    return (widgetPosition - view.offset()) / view.zoom();
}

void sendMouse(QWidget* widget, QEvent::Type type, QPointF position, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
    QMouseEvent event(type, position, widget->mapToGlobal(position), button, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &event);
}

}  // namespace

class ImageViewTest : public QObject {
    Q_OBJECT

  private slots:
    void fitsTheImageCentred() {
        ImageView view;
        QVERIFY(test::showExposed(view, {400, 300}));
        view.setImage(test::opaqueRandomImage(200, 100, 1));
        // Limited by the height? 400/200 = 2 and 300/100 = 3: the width limits, zoom 2, centred vertically.
        QCOMPARE(view.zoom(), 2.0);
        QCOMPARE(view.offset(), QPointF(0, 50));
        QVERIFY(view.fitsWindow());
        QCOMPARE(view.pixelAt({10, 60}), std::optional<QPoint>(QPoint(5, 5)));
        QCOMPARE(view.pixelAt({399.9, 249.9}), std::optional<QPoint>(QPoint(199, 99)));
        QVERIFY(!view.pixelAt({10, 40}));   // above the image
        QVERIFY(!view.pixelAt({10, 250}));  // below it

        view.resize(800, 300);  // still fitting: the zoom follows the window
        QCOMPARE(view.zoom(), 3.0);
        QCOMPARE(view.offset(), QPointF(100, 0));
    }

    void zoomKeepsThePointUnderTheAnchor() {
        ImageView view;
        view.resize(400, 300);
        view.setImage(test::opaqueRandomImage(200, 100, 2));
        view.zoomBy(2, {100, 100});
        QCOMPARE(view.zoom(), 4.0);
        // offset' = anchor - (anchor - offset) * 2 = (100, 100) - (100, 50) * 2
        QCOMPARE(view.offset(), QPointF(-100, 0));
        QCOMPARE(view.pixelAt({100, 100}), std::optional<QPoint>(QPoint(50, 25)));
        QVERIFY(!view.fitsWindow());

        view.zoomBy(1e9, {0, 0});
        QCOMPARE(view.zoom(), ImageView::kMaxZoom);
        view.zoomBy(1e-12, {0, 0});
        QCOMPARE(view.zoom(), ImageView::kMinZoom);
    }

    void wheelZoomsAboutTheCursor() {
        ImageView view;
        view.resize(400, 300);
        view.setImage(test::opaqueRandomImage(200, 100, 3));
        const QPointF cursor(123, 77);
        const QPointF before = imagePointAt(view, cursor);
        QWheelEvent wheel(cursor, view.mapToGlobal(cursor), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&view, &wheel);
        QCOMPARE(view.zoom(), 2.0 * 1.25);
        const QPointF after = imagePointAt(view, cursor);
        QVERIFY(std::abs(after.x() - before.x()) < 1e-9 && std::abs(after.y() - before.y()) < 1e-9);
    }

    void dragPansAndDoubleClickToggles() {
        ImageView view;
        view.resize(400, 300);
        view.setImage(test::opaqueRandomImage(200, 100, 4));
        const QPointF start = view.offset();
        sendMouse(&view, QEvent::MouseButtonPress, {100, 100}, Qt::LeftButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseMove, {130, 90}, Qt::NoButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseButtonRelease, {130, 90}, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(view.offset(), start + QPointF(30, -10));
        QVERIFY(!view.fitsWindow());

        sendMouse(&view, QEvent::MouseButtonDblClick, {130, 90}, Qt::LeftButton, Qt::LeftButton);
        QVERIFY(view.fitsWindow());
        QCOMPARE(view.offset(), start);
        sendMouse(&view, QEvent::MouseButtonDblClick, {130, 90}, Qt::LeftButton, Qt::LeftButton);
        QCOMPARE(view.zoom(), 1.0);  // 1:1 about the clicked point
        QCOMPARE(view.pixelAt({130, 90}), std::optional<QPoint>(QPoint(65, 20)));
    }

    void readoutDescribesThePixelUnderTheCursor() {
        ImageRGBA8 image(4, 5);
        std::uint8_t* p = image.pixel(3, 4);
        p[0] = 200, p[1] = 100, p[2] = 50, p[3] = 255;
        // luma = (299 * 200 + 587 * 100 + 114 * 50 + 500) / 1000 = 124700 / 1000 = 124
        QCOMPARE(ImageView::describePixel(image, {3, 4}),
                 QStringLiteral("x 3  y 4    R 200  G 100  B 50  A 255    luma 124"));

        ImageView view;
        view.resize(256, 320);  // zoom 64 (the largest), the image fills the window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(image);
        QSignalSpy hovered(&view, &ImageView::pixelHovered);
        QCOMPARE(view.zoom(), 64.0);
        sendMouse(&view, QEvent::MouseMove, {3.5 * 64, 4.5 * 64}, Qt::NoButton, Qt::NoButton);
        QCOMPARE(hovered.last().at(0).toString(), ImageView::describePixel(image, {3, 4}));
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(&view, &leave);
        QCOMPARE(hovered.last().at(0).toString(), QString());
    }

    void bothCanvasesDrawTheImagePixels_data() {
        QTest::addColumn<bool>("openGl");
        QTest::newRow("opengl") << true;
        QTest::newRow("raster") << false;
    }

    void bothCanvasesDrawTheImagePixels() {
        QFETCH(bool, openGl);
        ImageView view(nullptr, openGl ? ImageView::Renderer::Automatic : ImageView::Renderer::Raster);
        QVERIFY(test::showExposed(view, {400, 300}));
        QCOMPARE(view.usesOpenGl(), openGl);  // chosen when the view is made

        ImageRGBA8 image = test::opaqueRandomImage(200, 100, 5);
        std::uint8_t* transparent = image.pixel(0, 0);
        transparent[3] = 0;
        view.setImage(image);
        QTRY_VERIFY(view.imageReady());
        view.zoomToActualSize();
        QCOMPARE(view.offset(), QPointF(100, 100));  // integral: screen pixels meet image pixels exactly
        const QImage shot = view.grab().toImage();
        QCOMPARE(shot.size(), QSize(400, 300));
        for (const QPoint pixel :
             {QPoint(1, 0), QPoint(199, 0), QPoint(0, 99), QPoint(199, 99), QPoint(57, 43)})
            QCOMPARE(shot.pixelColor(QPoint(100, 100) + pixel), test::colourOf(image, pixel.x(), pixel.y()));
        // A fully transparent pixel shows the checkerboard's light or dark grey.
        const QColor checker = shot.pixelColor(100, 100);
        QVERIFY2(checker == QColor(102, 102, 102) || checker == QColor(153, 153, 153),
                 qPrintable(checker.name()));
        // Around the image: the dark neutral background.
        QCOMPARE(shot.pixelColor(50, 50), QColor(43, 43, 43));
        view.grab().save(hs::ui::test::artifactPath(
            QStringLiteral("shell_image_view_%1.png")
                .arg(openGl ? QStringLiteral("opengl") : QStringLiteral("raster"))));
    }

    void theNewestImageIsTheOneShown() {
        ImageView view;
        QVERIFY(test::showExposed(view, {400, 300}));
        QSignalSpy displayed(&view, &ImageView::imageDisplayed);
        const ImageRGBA8 last = test::opaqueRandomImage(200, 100, 7);
        for (std::uint32_t seed = 100; seed < 105; ++seed)
            view.setImage(test::opaqueRandomImage(2000, 1000, seed));
        view.setImage(last);
        QVERIFY(!view.imageReady() || !view.usesOpenGl());
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), 60000);
        // The upload thread takes the images in order and hands each texture back in order: every stale
        // upload has reported before the last one made the view ready, so none can replace it later.
        QCOMPARE(displayed.count(), view.usesOpenGl() ? 1 : 6);
        view.zoomToActualSize();
        const QImage shot = view.grab().toImage();
        QCOMPARE(shot.pixelColor(QPoint(100, 100) + QPoint(57, 43)), test::colourOf(last, 57, 43));
    }

    void imagesBeyondTheTextureLimitStillShow() {
        // Wider than llvmpipe's 16384 texels: the GL canvas shows a subsampled texture. Left half red, right
        // half blue.
        ImageRGBA8 image(16800, 1000);
        for (int y = 0; y < image.height; ++y) {
            for (int x = 0; x < image.width; ++x) {
                std::uint8_t* p = image.pixel(x, y);
                p[0] = x < image.width / 2 ? 255 : 0;
                p[2] = x < image.width / 2 ? 0 : 255;
                p[3] = 255;
            }
        }
        ImageView view;
        QVERIFY(test::showExposed(view, {400, 300}));
        view.setImage(image);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), 60000);
        const QImage shot = view.grab().toImage();
        const double middle = view.offset().y() + image.height * view.zoom() / 2;
        QCOMPARE(shot.pixelColor(QPointF(100, middle).toPoint()), QColor(255, 0, 0));
        QCOMPARE(shot.pixelColor(QPointF(300, middle).toPoint()), QColor(0, 0, 255));
    }
};

QTEST_MAIN(ImageViewTest)
#include "shell_image_view_test.moc"
