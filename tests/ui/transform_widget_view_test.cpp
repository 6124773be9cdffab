// The on-screen image view (a QOpenGLWidget), chosen through HISTOSCOPE_IMAGE_VIEW=widget as a hardware GL
// renderer would choose it: it draws opened images and the pipeline's processed images (from the display
// link's texture) upright and pixel for pixel. Functional only: under Xvfb's software GL this mode is slow
// by design (gl_canvas.hpp says why), so no timing is judged here.
#include <QGroupBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest/QtTest>

#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "ui/display/image_view.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

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
            const QColor expected = test::colourOf(image, x, y);
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
        QVERIFY(test::showExposed(view, {400, 300}));
        QCOMPARE(view.canvasKind(), ImageCanvas::Kind::WidgetGl);
        const ImageRGBA8 image =
            test::opaqueRandomImage(40, 20, 3);  // zoom 10, 50 pixels of background above and below
        view.setImage(image);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), kResultTimeoutMs);
        QVERIFY(view.zoom() > 4);
        const QString wrong = mismatches(view, image);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        // Around the image: the dark neutral background.
        QCOMPARE(view.grab().toImage().pixelColor(2, 2), QColor(43, 43, 43));
    }

    void showsProcessedImagesFromTheLinkTexture() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QCOMPARE(test::part<ImageView>(window)->canvasKind(), ImageCanvas::Kind::WidgetGl);
        QVERIFY2(!test::part<ImageView>(window)->displayLink(),
                 "the on-screen view gets its link with its context");
        QSignalSpy linked(test::part<ImageView>(window), &ImageView::displayLinkReady);
        QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
        QTRY_COMPARE_WITH_TIMEOUT(linked.count(), 1, kResultTimeoutMs);
        QVERIFY(test::part<ImageView>(window)->displayLink());

        const auto image = std::make_shared<const ImageRGBA8>(test::opaqueRandomImage(48, 48, 4));
        window.showImage(image, QStringLiteral("random 48 × 48"));
        TransformPanel& panel = *test::part<TransformPanel>(window);
        panel.setRotation(90, rotate::FilterMode::Nearest, false);
        const auto settled = [&] {
            return !window.controller().busy() && window.lastOutcome() && window.lastOutcome()->frame &&
                   test::part<ImageView>(window)->imageReady();
        };
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
        QVERIFY2(window.lastOutcome()->frame->inTexture, "the frame comes in the display link's texture");
        QCOMPARE(test::part<QLabel>(window, "displayLabel")->text(), QStringLiteral("display: copy"));

        pipeline::Spec spec;
        spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}};
        const ImageRGBA8 expected = pipeline::referencePipeline(*image, spec);
        const QString wrong = mismatches(*test::part<ImageView>(window), expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY(window.grab().save(test::artifactPath(QStringLiteral("transform_widget_view.png"))));
    }
};

QTEST_MAIN(WidgetViewTest)
#include "transform_widget_view_test.moc"
