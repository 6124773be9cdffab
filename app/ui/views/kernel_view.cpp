#include "ui/views/kernel_view.hpp"

#include <QBoxLayout>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QTabBar>

#include "engine/runtime/kernel_sources.hpp"
#include "ui/model/run_model.hpp"
#include "ui/views/opencl_highlighter.hpp"

namespace hs::ui {

namespace {

// The theme's fixed font, unless what it resolves to is not fixed-pitch (fontconfig without a "monospace"
// match): then the first installed fixed-pitch family, so source columns line up wherever one exists.
QFont fixedPitchFont() {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (QFontInfo(font).fixedPitch()) return font;
    for (const QString& family : QFontDatabase::families()) {
        if (QFontDatabase::isFixedPitch(family)) {
            font.setFamily(family);
            break;
        }
    }
    return font;
}

}  // namespace

KernelView::KernelView(QWidget* parent) : QWidget(parent) {
    const QFont monospace = fixedPitchFont();
    tabs_ = new QTabBar(this);
    tabs_->setObjectName("kernelStages");
    tabs_->setDocumentMode(true);
    tabs_->setExpanding(false);
    tabs_->setDrawBase(false);
    title_ = new QLabel(this);
    title_->setObjectName("kernelTitle");
    title_->setWordWrap(true);
    options_ = new QLabel(this);
    options_->setObjectName("kernelBuildOptions");
    options_->setFont(monospace);
    options_->setTextFormat(Qt::PlainText);
    options_->setWordWrap(true);
    options_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    options_->setToolTip(tr("The options passed to clBuildProgram on the device"));
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName("kernelSource");
    editor_->setReadOnly(true);
    editor_->setFont(monospace);
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setTabStopDistance(4 * editor_->fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    highlighter_ = new OpenClHighlighter(editor_->document());

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(tabs_);
    layout->addWidget(title_);
    layout->addWidget(options_);
    layout->addWidget(editor_, 1);

    connect(tabs_, &QTabBar::currentChanged, this, &KernelView::showKernel);
    tabs_->hide();
    showKernel(-1);
}

QVector<KernelView::Kernel> KernelView::kernelsOf(const RunOutcome& outcome) {
    const QString device = outcome.device ? QString::fromStdString(outcome.device->name) : QString();
    QVector<Kernel> kernels;
    // The strategies that ran (a fallback or auto's choice included), with the programs they built; a host
    // strategy built none. A stage builds one program (its kernels come from one source).
    for (const auto& stage : outcome.stages) {
        // Pipeline mode counts on its second device.
        const bool onConsumer = outcome.consumer && stage.stage == "histogram";
        Kernel kernel{stageText(stage.stage),
                      stage.strategyName(),
                      stage.strategyDescription(),
                      {},
                      {},
                      {},
                      onConsumer ? QString::fromStdString(outcome.consumer->name) : device};
        if (!stage.builds.empty()) {
            const KernelBuild& build = stage.builds.front();
            kernel.sourceName = QString::fromStdString(build.source);
            // A user kernel's text rides along; the built-ins' are embedded.
            kernel.source = QString::fromUtf8(build.text.empty() ? kernelSource(build.source) : build.text);
            kernel.buildOptions = QString::fromStdString(build.options);
        }
        kernels << kernel;
    }
    return kernels;
}

void KernelView::follow(const RunModel& model) {
    connect(&model, &RunModel::histogramChanged, this, [this, &model] {
        if (model.outcome()) setKernels(kernelsOf(*model.outcome()));
    });
}

void KernelView::setKernels(const QVector<Kernel>& kernels) {
    if (kernels == kernels_) return;
    const QString shown = currentStage();
    kernels_ = kernels;
    int current = 0;
    {
        const QSignalBlocker blocker(tabs_);
        while (tabs_->count() > 0) tabs_->removeTab(0);
        for (int i = 0; i < kernels_.size(); ++i) {
            const Kernel& kernel = kernels_[i];
            tabs_->addTab(QStringLiteral("%1 · %2").arg(kernel.stage, kernel.strategy));
            tabs_->setTabToolTip(i, kernel.description);
            if (kernel.stage == shown) current = i;
        }
        tabs_->setCurrentIndex(kernels_.isEmpty() ? -1 : current);
    }
    tabs_->setVisible(!kernels_.isEmpty());
    showKernel(kernels_.isEmpty() ? -1 : current);
}

bool KernelView::showStage(const QString& stage) {
    for (int i = 0; i < kernels_.size(); ++i) {
        if (kernels_[i].stage != stage) continue;
        tabs_->setCurrentIndex(i);  // shows it through currentChanged when it is another tab
        return true;
    }
    return false;
}

QString KernelView::currentStage() const {
    const int index = tabs_->currentIndex();
    return index >= 0 && index < kernels_.size() ? kernels_[index].stage : QString();
}

QString KernelView::source() const {
    const int index = tabs_->currentIndex();
    return index >= 0 && index < kernels_.size() ? kernels_[index].source : QString();
}

QString KernelView::buildOptions() const {
    const int index = tabs_->currentIndex();
    return index >= 0 && index < kernels_.size() ? kernels_[index].buildOptions : QString();
}

void KernelView::showKernel(int index) {
    const bool known = index >= 0 && index < kernels_.size();
    const Kernel kernel = known ? kernels_[index] : Kernel{};
    title_->setToolTip(kernel.description);
    if (!known) {
        title_->setText(tr("<b>Nothing has run yet</b>"));
        options_->setText(tr("Build options: –"));
        editor_->clear();
        return;
    }
    const QString strategy = QStringLiteral("<b>%1</b>").arg(kernel.strategy.toHtmlEscaped());
    if (kernel.sourceName.isEmpty()) {
        title_->setText(tr("%1 runs on the host: %2").arg(strategy, kernel.description.toHtmlEscaped()));
        options_->setText(tr("Build options: –"));
        editor_->setPlainText(tr("// %1 runs on the host: there is no OpenCL kernel.").arg(kernel.strategy));
        return;
    }
    title_->setText(tr("%1 — kernels/%2.cl on %3")
                        .arg(strategy, kernel.sourceName.toHtmlEscaped(), kernel.device.toHtmlEscaped()));
    options_->setText(
        tr("Build options: %1").arg(kernel.buildOptions.isEmpty() ? tr("(none)") : kernel.buildOptions));
    editor_->setPlainText(kernel.source);
}

}  // namespace hs::ui
