#include "ui/kernel_view.hpp"

#include <QBoxLayout>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>

#include "ui/opencl_highlighter.hpp"

KernelView::KernelView(QWidget* parent) : QWidget(parent) {
    const QFont monospace = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    title_ = new QLabel(this);
    title_->setObjectName("kernelTitle");
    options_ = new QLabel(this);
    options_->setObjectName("kernelBuildOptions");
    options_->setFont(monospace);
    options_->setTextFormat(Qt::PlainText);
    options_->setWordWrap(true);
    options_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    options_->setToolTip(tr("The options passed to clBuildProgram on the selected device"));
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName("kernelSource");
    editor_->setReadOnly(true);
    editor_->setFont(monospace);
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setTabStopDistance(4 * editor_->fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    highlighter_ = new OpenClHighlighter(editor_->document());

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addWidget(options_);
    layout->addWidget(editor_, 1);
    setKernel(QString(), QString(), QString());
}

void KernelView::setKernel(const QString& title, const QString& source, const QString& buildOptions) {
    source_ = source;
    buildOptions_ = buildOptions;
    title_->setText(title.isEmpty() ? tr("<b>No strategy selected</b>")
                                    : QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    if (source.isEmpty()) {
        options_->setText(tr("Build options: –"));
        editor_->setPlainText(title.isEmpty()
                                  ? QString()
                                  : tr("// This strategy runs on the host: there is no OpenCL kernel."));
        return;
    }
    options_->setText(tr("Build options: %1").arg(buildOptions.isEmpty() ? tr("(none)") : buildOptions));
    editor_->setPlainText(source);
}

QString KernelView::source() const {
    return source_;
}
QString KernelView::buildOptions() const {
    return buildOptions_;
}
