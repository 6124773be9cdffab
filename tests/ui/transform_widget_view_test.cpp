// The on-screen image view (a QOpenGLWidget), chosen through HISTOSCOPE_IMAGE_VIEW=widget as a hardware GL
// renderer would choose it: it draws opened images and the pipeline's processed images (from the display
// link's texture) upright and pixel for pixel. Functional only: under Xvfb's software GL this mode is slow
// by design (gl_canvas.hpp says why), so no timing is judged here.
#include <QGroupBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "ops/pipeline/pipeline.hpp"
#include "ops/rotate/rotate.hpp"
#include "shell_test_support.hpp"
#include "ui/app_settings.hpp"
#include "ui/image_view.hpp"
#include "ui/main_window.hpp"
#include "ui/transform_panel.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

ImageRGBA8 opaqueImage(int width, int height, std::uint32_t seed) {
    ImageRGBA8 image = test::randomImage(width, height, seed);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
    return image;
}

// Compares the view's grab with `image` at the centres of a grid of image pixels (zoomed in, so each image
// pixel covers several screen pixels and nearest magnification shows it exactly). Empty when all match.
QString mismatches(const ImageView& view, const ImageRGBA8& image) {
    const QImage shot = const_cast<ImageView&>(view).grab().toImage();
    QStringList wrong;
    for (int gy = 0; gy <= 4; ++gy) {
        for (int gx = 0; gx <= 4; ++gx) {
            const int x = gx * (image.width - 1) / 4;
            const int y = gy * (image.height - 1) / 4;
            const QPointF centre = view.offset() + QPointF(x + 0.5, y + 0.5) * view.zoom();
            const std::uint8_t* p = image.pixel(x, y);
            const QColor expected(p[0], p[1], p[2]);
            const QColor shown = shot.pixelColor(centre.toPoint());
            if (shown != expected)
                wrong << QStringLiteral("(%1, %2): %3 instead of %4")
                             .arg(x)
                             .arg(y)
                             .arg(shown.name(), expected.name());
        }
    }
    return wrong.join(QStringLiteral("; "));
}

}  // namespace

class WidgetViewTest : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { qputenv("HISTOSCOPE_IMAGE_VIEW", "widget"); }

    void drawsOpenedImagesUpright() {
        ImageView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.canvasKind(), ImageCanvas::Kind::WidgetGl);
        const ImageRGBA8 image = opaqueImage(40, 20, 3);  // zoom 10, 50 pixels of background above and below
        view.setImage(image);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), kResultTimeoutMs);
        QVERIFY(view.zoom() > 4);
        const QString wrong = mismatches(view, image);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        // Around the image: the dark neutral background.
        QCOMPARE(view.grab().toImage().pixelColor(2, 2), QColor(43, 43, 43));
    }

    void showsProcessedImagesFromTheLinkTexture() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("settings.ini")));
        MainWindow window(settings);
        QStringList problems;
        window.setErrorReporter([&problems](const ErrorReport& report) { problems << report.message; });
        QCOMPARE(window.imageView()->canvasKind(), ImageCanvas::Kind::WidgetGl);
        QVERIFY2(!window.imageView()->displayLink(), "the on-screen view gets its link with its context");
        QSignalSpy linked(window.imageView(), &ImageView::displayLinkReady);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(linked.count(), 1, kResultTimeoutMs);
        QVERIFY(window.imageView()->displayLink());
        QTRY_VERIFY_WITH_TIMEOUT(window.controller().devicesKnown(), kResultTimeoutMs);

        const auto image = std::make_shared<const ImageRGBA8>(opaqueImage(48, 48, 4));
        window.showImage(image, QStringLiteral("random 48 × 48"));
        TransformPanel& panel = *window.transformPanel();
        panel.setRotation(90, rotate::FilterMode::Nearest);
        const auto settled = [&] {
            return !window.controller().busy() && window.lastOutcome() && window.lastOutcome()->frame &&
                   window.imageView()->imageReady();
        };
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(window.lastOutcome()->frame->inTexture, "the frame comes in the display link's texture");
        QCOMPARE(window.displayLabel()->text(), QStringLiteral("display: copy"));

        pipeline::Spec spec;
        spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}};
        const ImageRGBA8 expected = pipeline::referencePipeline(*image, spec);
        QTest::qWait(50);  // the widget repaints from the event loop
        const QString wrong = mismatches(*window.imageView(), expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY(window.grab().save(test::artifactPath(QStringLiteral("transform_widget_view.png"))));
    }
};

QTEST_MAIN(WidgetViewTest)
#include "transform_widget_view_test.moc"
