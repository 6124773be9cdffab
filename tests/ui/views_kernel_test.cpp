// KernelView and its OpenCL C highlighter: which format each kind of token gets, read back from the
// highlighted document, the build options shown above the source, and one tab per pipeline stage.

#include <QFontInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest/QtTest>

#include "engine/runtime/kernel_sources.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/opencl_highlighter.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using Role = OpenClHighlighter::Role;

namespace {

const QString kSource = QStringLiteral(
    "#define BINS 256\n"
    "/* counts per\n"
    "   work-group: uint4 is not a type in here */\n"
    "__kernel void histogram(__global const uchar4* pixels, __local uint* counts) {\n"
    "    const size_t i = get_global_id(0); // one pixel each: __global\n"
    "    float2 scale = (float2)(1.5f, 0x1F);\n"
    "    if (i < 10u) atomic_inc(&counts[pixels[i].x]);\n"
    "}\n");

KernelView::Kernel deviceKernel(const QString& stage, const QString& source, const QString& options) {
    return {stage,
            QStringLiteral("%1-strategy").arg(stage),
            QStringLiteral("a test kernel"),
            stage,
            source,
            options,
            QStringLiteral("test device")};
}

// The foreground colour the highlighter gave the first occurrence of `token` on `line`.
QColor colorAt(const KernelView& view, int line, const QString& token) {
    const QTextBlock block = view.editor()->document()->findBlockByNumber(line);
    const int column = static_cast<int>(block.text().indexOf(token));
    if (column < 0) return QColor();
    for (const QTextLayout::FormatRange& range : block.layout()->formats())
        if (range.start <= column && column < range.start + range.length)
            return range.format.foreground().color();
    return QColor();  // unformatted
}

}  // namespace

class KernelViewTest : public QObject {
    Q_OBJECT

  private slots:
    void highlightsEachKindOfToken() {
        KernelView view;
        view.setKernels(
            {deviceKernel(QStringLiteral("histogram"), kSource, QStringLiteral("-cl-std=CL1.2 -DBINS=256"))});
        const OpenClHighlighter& h = *view.highlighter();
        const auto color = [&h](Role role) { return h.format(role).foreground().color(); };
        QCOMPARE(colorAt(view, 0, "#define"), color(Role::Preprocessor));
        QCOMPARE(colorAt(view, 0, "256"), color(Role::Preprocessor));  // the whole directive line
        QCOMPARE(colorAt(view, 1, "counts"), color(Role::Comment));
        QCOMPARE(colorAt(view, 2, "uint4"), color(Role::Comment));  // inside the multi-line comment
        QCOMPARE(colorAt(view, 3, "__kernel"), color(Role::Qualifier));
        QCOMPARE(colorAt(view, 3, "void"), color(Role::Type));
        QCOMPARE(colorAt(view, 3, "__global"), color(Role::Qualifier));
        QCOMPARE(colorAt(view, 3, "const"), color(Role::Keyword));
        QCOMPARE(colorAt(view, 3, "uchar4"), color(Role::Type));  // vector type
        QCOMPARE(colorAt(view, 3, "histogram"), QColor());        // a plain identifier
        QCOMPARE(colorAt(view, 4, "size_t"), color(Role::Type));
        QCOMPARE(colorAt(view, 4, "get_global_id"), color(Role::Builtin));
        QCOMPARE(colorAt(view, 4, "0"), color(Role::Number));
        QCOMPARE(colorAt(view, 4, "// one"), color(Role::Comment));
        QCOMPARE(colorAt(view, 4, "__global"), color(Role::Comment));  // a qualifier inside a comment
        QCOMPARE(colorAt(view, 5, "float2"), color(Role::Type));
        QCOMPARE(colorAt(view, 5, "1.5f"), color(Role::Number));
        QCOMPARE(colorAt(view, 5, "0x1F"), color(Role::Number));
        QCOMPARE(colorAt(view, 6, "if"), color(Role::Keyword));
        QCOMPARE(colorAt(view, 6, "10u"), color(Role::Number));
        QCOMPARE(colorAt(view, 6, "atomic_inc"), color(Role::Builtin));
        // Every role is told apart from the others.
        QSet<QRgb> distinct;
        for (const Role role : {Role::Keyword, Role::Type, Role::Qualifier, Role::Builtin, Role::Preprocessor,
                                Role::Comment, Role::Number})
            distinct.insert(color(role).rgb());
        QCOMPARE(distinct.size(), 7);
    }

    void showsSourceAndBuildOptionsReadOnly() {
        KernelView view;
        QVERIFY(view.currentStage().isEmpty());
        QVERIFY(view.stageTabs()->isHidden());
        view.setKernels(
            {deviceKernel(QStringLiteral("histogram"), kSource, QStringLiteral("-DBINS=256 -DLOCAL=1"))});
        QCOMPARE(view.editor()->toPlainText(), kSource);
        QVERIFY(view.editor()->isReadOnly());
        // The font the editor really draws with (not the one it asked for) is fixed-pitch: a narrow and a
        // wide letter take the same advance, for the source and the build options alike. Without a monospace
        // font installed (scripts/dependencies.sh installs fonts-dejavu-core) this fails.
        for (const QWidget* text : {static_cast<QWidget*>(view.editor()),
                                    static_cast<QWidget*>(view.findChild<QLabel*>("kernelBuildOptions"))}) {
            QVERIFY2(QFontInfo(text->font()).fixedPitch(), qPrintable(QFontInfo(text->font()).family()));
            const QFontMetrics metrics(text->font());
            QCOMPARE(metrics.horizontalAdvance(QLatin1Char('i')),
                     metrics.horizontalAdvance(QLatin1Char('W')));
        }
        QCOMPARE(view.findChild<QLabel*>("kernelBuildOptions")->text(),
                 QStringLiteral("Build options: -DBINS=256 -DLOCAL=1"));
        QVERIFY(
            view.findChild<QLabel*>("kernelTitle")->text().contains(QStringLiteral("kernels/histogram.cl")));

        // A host strategy: no source, and the view says why.
        view.setKernels({{QStringLiteral("histogram"),
                          QStringLiteral("serial"),
                          QStringLiteral("one thread"),
                          {},
                          {},
                          {},
                          {}}});
        QVERIFY(view.source().isEmpty());
        QVERIFY(view.editor()->toPlainText().contains(QStringLiteral("runs on the host")));
        QCOMPARE(view.findChild<QLabel*>("kernelBuildOptions")->text(), QStringLiteral("Build options: –"));
    }

    void oneTabPerStageKeepsTheStageShown() {
        KernelView view;
        const QString rotate = QStringLiteral("__kernel void rotate_image() {}\n");
        const QString convolve = QStringLiteral("__kernel void convolve_image() {}\n");
        view.setKernels({deviceKernel(QStringLiteral("rotate"), rotate, QStringLiteral("-D NEAREST=1")),
                         deviceKernel(QStringLiteral("convolve"), convolve, QStringLiteral("-D TAPS=9")),
                         deviceKernel(QStringLiteral("histogram"), kSource, QStringLiteral("-DBINS=256"))});
        QTabBar* tabs = view.stageTabs();
        QVERIFY(tabs->isVisibleTo(&view));
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(tabs->tabText(1), QStringLiteral("convolve · convolve-strategy"));
        QCOMPARE(view.currentStage(), QStringLiteral("rotate"));  // the first, when none was shown
        QCOMPARE(view.source(), rotate);

        // Picking a tab by hand shows its kernel.
        QTest::mouseClick(tabs, Qt::LeftButton, Qt::NoModifier, tabs->tabRect(1).center());
        QCOMPARE(view.currentStage(), QStringLiteral("convolve"));
        QCOMPARE(view.editor()->toPlainText(), convolve);
        QCOMPARE(view.buildOptions(), QStringLiteral("-D TAPS=9"));

        // New build options for the same stages (another filter): the convolve tab stays, with the new
        // options.
        view.setKernels({deviceKernel(QStringLiteral("rotate"), rotate, QStringLiteral("-D NEAREST=1")),
                         deviceKernel(QStringLiteral("convolve"), convolve, QStringLiteral("-D TAPS=25")),
                         deviceKernel(QStringLiteral("histogram"), kSource, QStringLiteral("-DBINS=256"))});
        QCOMPARE(view.currentStage(), QStringLiteral("convolve"));
        QCOMPARE(view.findChild<QLabel*>("kernelBuildOptions")->text(),
                 QStringLiteral("Build options: -D TAPS=25"));

        // The convolution switched off: the first stage left is shown.
        view.setKernels({deviceKernel(QStringLiteral("rotate"), rotate, QStringLiteral("-D NEAREST=1")),
                         deviceKernel(QStringLiteral("histogram"), kSource, QStringLiteral("-DBINS=256"))});
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(view.currentStage(), QStringLiteral("rotate"));
        QVERIFY(view.showStage(QStringLiteral("histogram")));
        QCOMPARE(view.editor()->toPlainText(), kSource);
        QVERIFY(!view.showStage(QStringLiteral("convolve")));
        QCOMPARE(view.currentStage(), QStringLiteral("histogram"));
    }

    void rendersForPeopleToLookAt() {
        KernelView view;
        const auto source = hs::kernelSource("histogram");
        view.setKernels({deviceKernel(QStringLiteral("histogram"),
                                      QString::fromUtf8(source.data(), static_cast<qsizetype>(source.size())),
                                      QStringLiteral("-cl-std=CL1.2 -DBINS=256 -DWORK_GROUP_SIZE=256"))});
        QVERIFY(test::showExposed(view, {900, 700}));
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_kernel.png"))));
    }
};

QTEST_MAIN(KernelViewTest)
#include "views_kernel_test.moc"
