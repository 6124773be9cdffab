// KernelView and its OpenCL C highlighter: which format each kind of token gets, read back from the
// highlighted document, and the build options shown above the source.

#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest/QtTest>

#include "runtime/kernel_sources.hpp"
#include "ui/kernel_view.hpp"
#include "ui/opencl_highlighter.hpp"

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
        view.setKernel(QStringLiteral("local-atomic"), kSource, QStringLiteral("-cl-std=CL1.2 -DBINS=256"));
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
        view.setKernel(QStringLiteral("local-atomic"), kSource, QStringLiteral("-DBINS=256 -DLOCAL=1"));
        QCOMPARE(view.editor()->toPlainText(), kSource);
        QVERIFY(view.editor()->isReadOnly());
        QVERIFY(view.editor()->font().fixedPitch() || QFontInfo(view.editor()->font()).fixedPitch());
        QCOMPARE(view.findChild<QLabel*>("kernelBuildOptions")->text(),
                 QStringLiteral("Build options: -DBINS=256 -DLOCAL=1"));

        view.setKernel(QStringLiteral("serial"), QString(), QString());
        QVERIFY(view.editor()->toPlainText().contains(QStringLiteral("runs on the host")));
        QCOMPARE(view.findChild<QLabel*>("kernelBuildOptions")->text(), QStringLiteral("Build options: –"));
    }

    void rendersForPeopleToLookAt() {
        KernelView view;
        const auto source = hs::kernelSource("histogram");
        view.setKernel(QStringLiteral("histogram.cl"),
                       QString::fromUtf8(source.data(), static_cast<qsizetype>(source.size())),
                       QStringLiteral("-cl-std=CL1.2 -DBINS=256 -DWORK_GROUP_SIZE=256"));
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.grab().save(QStringLiteral(HISTOSCOPE_TEST_ARTIFACT_DIR "/views_kernel.png")));
    }
};

QTEST_MAIN(KernelViewTest)
#include "views_kernel_test.moc"
