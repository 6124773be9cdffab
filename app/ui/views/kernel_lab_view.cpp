#include "ui/views/kernel_lab_view.hpp"

#include <QAbstractSpinBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/runtime/atomic_file.hpp"
#include "engine/runtime/error.hpp"
#include "ui/model/run_model.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/opencl_highlighter.hpp"

namespace hs::ui {

// The lab's text editor: line numbers, a mark in the margin beside each line a diagnostic names, the
// diagnostics' messages as the line's tooltip.
class LabEditor : public QPlainTextEdit {
  public:
    explicit LabEditor(QWidget* parent) : QPlainTextEdit(parent), margin_(new Margin(this)) {
        setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        setLineWrapMode(QPlainTextEdit::NoWrap);
        connect(this, &QPlainTextEdit::blockCountChanged, this,
                [this] { setViewportMargins(marginWidth(), 0, 0, 0); });
        connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
            if (dy != 0)
                margin_->scroll(0, dy);
            else
                margin_->update(0, rect.y(), margin_->width(), rect.height());
        });
        setViewportMargins(marginWidth(), 0, 0, 0);
    }

    void setMarkers(const QMap<int, QString>* markers, const QMap<int, bool>& errors) {
        markers_ = markers;
        errorLines_ = errors;
        QList<QTextEdit::ExtraSelection> selections;
        for (auto line = errors.begin(); line != errors.end(); ++line) {
            const QTextBlock block = document()->findBlockByNumber(line.key() - 1);
            if (!block.isValid()) continue;
            QTextEdit::ExtraSelection selection;
            selection.cursor = QTextCursor(block);
            selection.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            selection.format.setUnderlineColor(line.value() ? QColor(220, 40, 40) : QColor(220, 160, 0));
            selections.append(selection);
        }
        setExtraSelections(selections);
        margin_->update();
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QPlainTextEdit::resizeEvent(event);
        const QRect area = contentsRect();
        margin_->setGeometry(area.left(), area.top(), marginWidth(), area.height());
    }

    bool viewportEvent(QEvent* event) override {
        if (event->type() == QEvent::ToolTip && markers_) {
            auto* help = static_cast<QHelpEvent*>(event);
            const int line = cursorForPosition(help->pos()).blockNumber() + 1;
            if (const auto found = markers_->find(line); found != markers_->end())
                QToolTip::showText(help->globalPos(), found.value(), viewport());
            else
                QToolTip::hideText();
            return true;
        }
        return QPlainTextEdit::viewportEvent(event);
    }

  private:
    class Margin : public QWidget {
      public:
        explicit Margin(LabEditor* editor) : QWidget(editor), editor_(editor) {}

      protected:
        void paintEvent(QPaintEvent* event) override { editor_->paintMargin(event->rect()); }

      private:
        LabEditor* editor_;
    };

    int marginWidth() const {
        const int digits = QString::number(std::max(1, blockCount())).size();
        return fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 1) + fontMetrics().height();
    }

    void paintMargin(const QRect& rect) {
        QPainter painter(margin_);
        painter.fillRect(rect, palette().alternateBase());
        const int mark = fontMetrics().height();
        QTextBlock block = firstVisibleBlock();
        int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
        while (block.isValid() && top <= rect.bottom()) {
            const int height = qRound(blockBoundingRect(block).height());
            if (block.isVisible() && top + height >= rect.top()) {
                const int line = block.blockNumber() + 1;
                if (const auto error = errorLines_.find(line); error != errorLines_.end()) {
                    painter.setPen(Qt::NoPen);
                    painter.setBrush(error.value() ? QColor(220, 40, 40) : QColor(220, 160, 0));
                    painter.drawEllipse(QRectF(2, top + mark * 0.2, mark * 0.6, mark * 0.6));
                }
                painter.setPen(palette().color(QPalette::PlaceholderText));
                painter.drawText(mark, top, margin_->width() - mark - 2, height,
                                 Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
            }
            top += height;
            block = block.next();
        }
    }

    Margin* margin_;
    const QMap<int, QString>* markers_ = nullptr;
    QMap<int, bool> errorLines_;  // line -> whether an error (else only warnings) is on it
};

namespace {

const QString kUntitled = QStringLiteral("untitled.cl");

// "-D NAME=VALUE -DOTHER" as #define lines, so that a copy of a built-in kernel builds as it ran. Other
// options (-cl-std, ...) have no source form and are left to the driver's defaults.
QString definesOf(const QString& options) {
    QString defines;
    const QStringList words = options.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int i = 0; i < words.size(); ++i) {
        QString definition;
        if (words[i] == QLatin1String("-D") && i + 1 < words.size())
            definition = words[++i];
        else if (words[i].startsWith(QLatin1String("-D")))
            definition = words[i].mid(2);
        else
            continue;
        const int equals = definition.indexOf(QLatin1Char('='));
        defines +=
            equals < 0
                ? QStringLiteral("#define %1\n").arg(definition)
                : QStringLiteral("#define %1 %2\n").arg(definition.left(equals), definition.mid(equals + 1));
    }
    return defines;
}

}  // namespace

KernelLabView::KernelLabView(KernelView* shown, const QString& dataDirectory, QWidget* parent)
    : QWidget(parent), shown_(shown), dataDirectory_(dataDirectory), builder_(new LabBuilder(this)) {
    pages_ = new QTabWidget;
    pages_->addTab(shown_, tr("Run's kernels"));
    auto* lab = new QWidget;
    pages_->addTab(lab, tr("Lab"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(pages_);

    auto* newButton = new QToolButton;
    newButton->setText(tr("New kernel"));
    newButton->setPopupMode(QToolButton::InstantPopup);
    auto* templates = new QMenu(newButton);
    for (const QString& name : templateNames())
        templates->addAction(name, this, [this, name] { newFromTemplate(name); });
    newButton->setMenu(templates);
    auto* copyButton = new QPushButton(tr("Edit a copy"));
    copyButton->setToolTip(tr("A copy of the shown run's kernel, with the build options it ran with"));
    auto* openButton = new QPushButton(tr("Open…"));
    auto* saveButton = new QPushButton(tr("Save…"));
    recentButton_ = new QToolButton;
    recentButton_->setText(tr("Recent"));
    recentButton_->setPopupMode(QToolButton::InstantPopup);
    recentButton_->setMenu(new QMenu(recentButton_));
    auto* buildButton = new QPushButton(tr("Build"));
    buildButton->setToolTip(tr("Build now on every device of the platform (Ctrl+B)"));
    run_ = new QPushButton(tr("Run"));
    run_->setObjectName(QStringLiteral("labRun"));
    run_->setCheckable(true);
    run_->setToolTip(tr("Run the kernel as a stage of the pipeline, after rotation and convolution"));
    check_ = new QPushButton(tr("Check"));
    check_->setObjectName(QStringLiteral("labCheck"));
    check_->setToolTip(
        tr("Run the kernel on a 16×16 image under Oclgrind, in a child process, and put its "
           "findings (out-of-bounds accesses, races) on their lines; press again to stop"));
    // The stage's own parameter gives the range and the words, as the CLI's --kernel-group.
    const auto& groupParameter = *stages::findKind("kernel").parameter("kernel-group");
    group_ = new QSpinBox;
    group_->setObjectName(QStringLiteral("labGroup"));
    group_->setRange(static_cast<int>(groupParameter.min), static_cast<int>(groupParameter.max));
    group_->setSpecialValueText(QString::fromStdString(groupParameter.automaticText));
    group_->setToolTip(QString::fromStdString(groupParameter.help));
    connect(group_, &QSpinBox::valueChanged, this, [this] {
        if (running_) emit runRequested();
    });
    auto* groupLabel = new QLabel(QString::fromStdString(groupParameter.label));
    groupLabel->setBuddy(group_);
    auto* buttons = new QHBoxLayout;
    for (QWidget* button :
         std::initializer_list<QWidget*>{newButton, copyButton, openButton, saveButton, recentButton_,
                                         buildButton, run_, check_, groupLabel, group_})
        buttons->addWidget(button);
    buttons->addStretch();

    editor_ = new LabEditor(lab);
    editor_->setObjectName(QStringLiteral("labEditor"));
    new OpenClHighlighter(editor_->document());
    diagnostics_ = new QListWidget;
    diagnostics_->setObjectName(QStringLiteral("labDiagnostics"));
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* params = new QWidget;
    paramsForm_ = new QFormLayout(params);
    status_ = new QLabel;
    status_->setWordWrap(true);
    auto* side = new QSplitter(Qt::Vertical);
    side->addWidget(params);
    side->addWidget(diagnostics_);
    side->addWidget(log_);
    auto* split = new QSplitter;
    split->addWidget(editor_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(lab);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
    referenceCheck_ = new QLabel;
    referenceCheck_->setObjectName(QStringLiteral("labReferenceCheck"));
    referenceCheck_->setWordWrap(true);
    referenceCheck_->hide();
    layout->addWidget(referenceCheck_);
    runStatus_ = new QLabel;
    runStatus_->setObjectName(QStringLiteral("labRunStatus"));
    abandon_ = new QPushButton(tr("Abandon"));
    abandon_->setObjectName(QStringLiteral("labAbandon"));
    abandon_->setToolTip(tr("Give the run up: its result is discarded when the device ends it"));
    auto* running = new QHBoxLayout;
    running->addWidget(runStatus_, 1);
    running->addWidget(abandon_);
    runStatus_->hide();
    abandon_->hide();
    layout->addLayout(running);
    layout->addWidget(status_);
    runTicker_ = new QTimer(this);
    runTicker_->setInterval(250);
    connect(runTicker_, &QTimer::timeout, this, &KernelLabView::updateRunStatus);
    connect(abandon_, &QPushButton::clicked, this, [this] {
        abandon_->setEnabled(false);
        abandoned_ = true;
        emit abandonRequested();
        updateRunStatus();
    });
    connect(check_, &QPushButton::clicked, this, [this] { checking() ? cancelCheck() : (void)check(); });

    typingPause_ = new QTimer(this);
    typingPause_->setSingleShot(true);
    typingPause_->setInterval(kBuildDelayMs);
    connect(typingPause_, &QTimer::timeout, this, &KernelLabView::pauseInTyping);
    connect(editor_, &QPlainTextEdit::textChanged, this, &KernelLabView::textEdited);
    connect(builder_, &LabBuilder::built, this, &KernelLabView::showBuild);
    connect(diagnostics_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { jumpTo(item->data(Qt::UserRole).toInt()); });
    connect(diagnostics_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { jumpTo(item->data(Qt::UserRole).toInt()); });
    connect(copyButton, &QPushButton::clicked, this, &KernelLabView::editCopy);
    connect(openButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel"), QFileInfo(path_).path(),
                                                          tr("OpenCL C (*.cl);;All files (*)"));
        if (!path.isEmpty()) openFile(path);
    });
    connect(saveButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save kernel"), path_.isEmpty() ? kUntitled : path_,
                                         tr("OpenCL C (*.cl);;All files (*)"));
        if (!path.isEmpty()) saveFile(path);
    });
    connect(buildButton, &QPushButton::clicked, this, &KernelLabView::buildNow);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_B), lab);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &KernelLabView::buildNow);
    connect(run_, &QPushButton::toggled, this, &KernelLabView::setRunning);

    const QSettings state(QDir(dataDirectory_).filePath(QStringLiteral("lab.ini")), QSettings::IniFormat);
    recent_ = state.value(QStringLiteral("recent")).toStringList();
    addRecent({});
    QFile autosave(autosavePath());
    if (autosave.open(QIODevice::ReadOnly))
        setText(QString::fromUtf8(autosave.readAll()), state.value(QStringLiteral("path")).toString());
    else
        newFromTemplate(QStringLiteral("invert"));
    // The text a window opens with builds at its first edit or Ctrl+B, not at every start: a window that
    // never uses the lab makes no OpenCL call for it.
    typingPause_->stop();
    updateParams();
}

QStringList KernelLabView::templateNames() {
    QStringList names;
    for (const QString& file : QDir(QStringLiteral(":/kernel-templates")).entryList({QStringLiteral("*.cl")}))
        names << QFileInfo(file).completeBaseName();
    return names;
}

bool KernelLabView::newFromTemplate(const QString& name) {
    QFile file(QStringLiteral(":/kernel-templates/%1.cl").arg(name));
    if (!file.open(QIODevice::ReadOnly)) return false;
    setText(QString::fromUtf8(file.readAll()), {});
    return true;
}

bool KernelLabView::editCopy() {
    const QString source = shown_->source();
    if (source.isEmpty()) {
        status_->setText(
            tr("The shown run has no kernel to copy (a host strategy ran, or nothing ran yet)."));
        return false;
    }
    const QString options = shown_->buildOptions();
    QString header =
        QStringLiteral("// A copy of the %1 stage's kernel as it ran").arg(shown_->currentStage());
    header += options.isEmpty() ? QStringLiteral(".\n") : QStringLiteral(", options '%1':\n").arg(options);
    const int shownIndex = shown_->stageTabs()->currentIndex();
    const QString strategy = shown_->kernels()[shownIndex].strategy;
    header += QStringLiteral(
                  "// Run replaces the %1 strategy's kernels with this text: keep their names and "
                  "arguments.\n")
                  .arg(strategy);
    setText(header + definesOf(options) + source, {});
    copiedStage_ = shown_->currentStage();
    copiedStrategy_ = strategy;
    pages_->setCurrentIndex(1);
    return true;
}

bool KernelLabView::openFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        status_->setText(tr("%1: cannot read it: %2").arg(path, file.errorString()));
        return false;
    }
    setText(QString::fromUtf8(file.readAll()), path);
    addRecent(path);
    return true;
}

bool KernelLabView::saveFile(const QString& path) {
    try {
        writeFileAtomically(path.toStdString(), text().toStdString());
    } catch (const Error& error) {
        status_->setText(QString::fromUtf8(error.what()));
        return false;
    }
    path_ = path;
    addRecent(path);
    status_->setText(tr("Saved %1").arg(path));
    return true;
}

void KernelLabView::showSource(const QString& text, const QString& path) {
    setText(text, path);
    buildNow();
}

void KernelLabView::setText(const QString& text, const QString& path) {
    path_ = path;
    copiedStage_.clear();
    copiedStrategy_.clear();
    referenceCheck_->hide();
    editor_->setPlainText(text);  // textEdited() follows: a build after the pause
}

void KernelLabView::addRecent(const QString& path) {
    if (!path.isEmpty()) {
        recent_.removeAll(path);
        recent_.prepend(path);
        while (recent_.size() > 10) recent_.removeLast();
    }
    QMenu* menu = recentButton_->menu();
    menu->clear();
    for (const QString& file : recent_) menu->addAction(file, this, [this, file] { openFile(file); });
    recentButton_->setEnabled(!recent_.isEmpty());
    writeState();
}

void KernelLabView::writeState() const {
    QDir().mkpath(dataDirectory_);
    QSettings state(QDir(dataDirectory_).filePath(QStringLiteral("lab.ini")), QSettings::IniFormat);
    state.setValue(QStringLiteral("recent"), recent_);
    state.setValue(QStringLiteral("path"), path_);
}

QString KernelLabView::autosavePath() const {
    return QDir(dataDirectory_).filePath(QStringLiteral("autosave.cl"));
}

QString KernelLabView::text() const {
    return editor_->toPlainText();
}

QString KernelLabView::status() const {
    return status_->text();
}

QPlainTextEdit* KernelLabView::editor() const {
    return editor_;
}

QString KernelLabView::label() const {
    return path_.isEmpty() ? kUntitled : QFileInfo(path_).fileName();
}

void KernelLabView::textEdited() {
    typingPause_->start();  // restarts: the build waits for the last keystroke
}

void KernelLabView::pauseInTyping() {
    // The text is kept before it is built: a driver that crashes the process loses none of it.
    try {
        QDir().mkpath(dataDirectory_);
        writeFileAtomically(autosavePath().toStdString(), text().toStdString());
        writeState();
    } catch (const Error& error) {
        status_->setText(QString::fromUtf8(error.what()));
    }
    updateParams();
    builder_->build(text(), label(), deviceSelector_ ? deviceSelector_() : QString());
}

void KernelLabView::buildNow() {
    typingPause_->stop();
    pauseInTyping();
}

void KernelLabView::setRunning(bool running) {
    if (running_ == running) return;
    running_ = running;
    run_->setChecked(running);
    emit runRequested();
}

void KernelLabView::updateParams() {
    lab::KernelSource source;
    try {
        source = lab::parseKernelSource(text().toStdString(), label().toStdString());
    } catch (const Error& error) {
        status_->setText(QString::fromUtf8(error.what()));
        return;
    }
    kernelName_ = QString::fromStdString(source.kernelName);
    if (!copiedStrategy_.isEmpty())
        status_->setText(
            tr("A copy of the %1 strategy's kernels (%2 stage): Run builds %1 from this text in its "
               "place and checks the result against the stage's CPU reference")
                .arg(copiedStrategy_, copiedStage_));
    else
        status_->setText(tr("Kernel %1, %n parameter(s)", nullptr, static_cast<int>(source.params.size()))
                             .arg(kernelName_));
    auto sameControls = [](const lab::KernelParam& a, const lab::KernelParam& b) {
        return a.name == b.name && a.type == b.type && a.min == b.min && a.max == b.max;
    };
    if (std::equal(source.params.begin(), source.params.end(), params_.begin(), params_.end(), sameControls))
        return;
    params_ = source.params;
    while (paramsForm_->rowCount() > 0) paramsForm_->removeRow(0);
    std::map<std::string, double> values;
    for (const lab::KernelParam& param : params_) {
        const auto kept = values_.find(param.name);
        const double value = kept != values_.end() && kept->second >= param.min && kept->second <= param.max
                                 ? kept->second
                                 : param.defaultValue;
        values[param.name] = value;
        const bool integer = param.type == lab::KernelParam::Type::Int;
        // A float's slider moves in 1000 steps over its range; its spin box takes any value of it.
        constexpr int kFloatSteps = 1000;
        auto* slider = new QSlider(Qt::Horizontal);
        slider->setObjectName(QStringLiteral("param-%1").arg(QString::fromStdString(param.name)));
        QAbstractSpinBox* box = nullptr;
        const std::string name = param.name;
        auto toSlider = [param, integer](double v) {
            if (integer) return static_cast<int>(v);
            if (param.max <= param.min) return 0;  // MIN = MAX: one value, one slider position
            return static_cast<int>(std::lround((v - param.min) / (param.max - param.min) * kFloatSteps));
        };
        if (integer) {
            auto* spin = new QSpinBox;
            spin->setRange(static_cast<int>(param.min), static_cast<int>(param.max));
            spin->setValue(static_cast<int>(value));
            slider->setRange(static_cast<int>(param.min), static_cast<int>(param.max));
            connect(slider, &QSlider::valueChanged, spin, &QSpinBox::setValue);
            connect(spin, &QSpinBox::valueChanged, slider, &QSlider::setValue);
            connect(spin, &QSpinBox::valueChanged, this,
                    [this, name](int v) { setParamValue(QString::fromStdString(name), v); });
            box = spin;
        } else {
            auto* spin = new QDoubleSpinBox;
            spin->setDecimals(4);
            spin->setRange(param.min, param.max);
            spin->setSingleStep((param.max - param.min) / 100);
            spin->setValue(value);
            slider->setRange(0, param.max > param.min ? kFloatSteps : 0);
            connect(slider, &QSlider::valueChanged, spin, [spin, param](int step) {
                spin->setValue(param.min + (param.max - param.min) * step / kFloatSteps);
            });
            connect(spin, &QDoubleSpinBox::valueChanged, slider,
                    [slider, toSlider](double v) { slider->setValue(toSlider(v)); });
            connect(spin, &QDoubleSpinBox::valueChanged, this,
                    [this, name](double v) { setParamValue(QString::fromStdString(name), v); });
            box = spin;
        }
        slider->setValue(toSlider(value));
        box->setObjectName(QStringLiteral("param-%1-value").arg(QString::fromStdString(param.name)));
        auto* row = new QHBoxLayout;
        row->addWidget(slider, 1);
        row->addWidget(box);
        paramsForm_->addRow(QString::fromStdString(param.name), row);
    }
    values_ = std::move(values);
}

bool KernelLabView::setParamValue(const QString& name, double value) {
    const auto found = values_.find(name.toStdString());
    if (found == values_.end()) return false;
    if (found->second == value) return true;
    found->second = value;
    // The control shows it (its change comes back here and finds the value already set).
    const QString control = QStringLiteral("param-%1-value").arg(name);
    if (auto* spin = findChild<QSpinBox*>(control)) spin->setValue(static_cast<int>(value));
    if (auto* spin = findChild<QDoubleSpinBox*>(control)) spin->setValue(value);
    if (running_) emit runRequested();
    return true;
}

void KernelLabView::setWorkGroup(int items) {
    group_->setValue(items);
}

int KernelLabView::workGroup() const {
    return group_->value();
}

stages::StageList KernelLabView::stages() const {
    // An edited built-in runs in its strategy's place (editedStrategy), not as a stage of its own.
    if (!running_ || !copiedStrategy_.isEmpty()) return {};
    const std::string path = label().toStdString();
    const std::string source = text().toStdString();
    std::ostringstream params;  // one NAME=VALUE a line, as the stage's repeated --param
    params.precision(17);
    for (const lab::KernelParam& param : params_) {
        const auto value = values_.find(param.name);
        if (params.tellp() > 0) params << '\n';
        params << param.name << '=' << (value != values_.end() ? value->second : param.defaultValue);
    }
    stages::Values values{{"kernel", path}};
    if (!params_.empty()) values["param"] = params.str();
    if (group_->value() > 0) values["kernel-group"] = std::to_string(group_->value());
    try {
        // The stage reads the editor's text, not a file: what runs is what the user sees.
        return {stages::findKind("kernel").configure(
            values, {}, [source](const std::string&, std::uint64_t, std::string_view) { return source; })};
    } catch (const Error& error) {
        status_->setText(QString::fromUtf8(error.what()));
        return {};
    }
}

stages::StageList KernelLabView::withStage(stages::StageList others) const {
    stages::StageList list = stages();
    list.insert(list.end(), others.begin(), others.end());
    return list;
}

void KernelLabView::showBuild(const LabBuildResult& result) {
    markers_.clear();
    findings_.clear();
    diagnostics_->clear();
    QMap<int, bool> errorLines;
    QString log;
    QStringList seen;  // devices of one platform often report the same diagnostic: shown once
    for (const LabDeviceBuild& device : result.devices) {
        log +=
            QStringLiteral("── %1: %2 in %3 ms\n")
                .arg(device.device.isEmpty() ? tr("no device") : device.device,
                     device.built ? tr("built") : tr("failed"), QString::number(device.milliseconds, 'f', 1));
        if (!device.failure.isEmpty()) log += device.failure + QLatin1Char('\n');
        log += QString::fromStdString(device.log.raw);
        if (!log.endsWith(QLatin1Char('\n'))) log += QLatin1Char('\n');
        for (const lab::Diagnostic& diagnostic : device.log.diagnostics) {
            const QString where = diagnostic.line > 0
                                      ? QStringLiteral("%1:%2").arg(diagnostic.line).arg(diagnostic.column)
                                      : tr("(no line)");
            const QString message =
                QStringLiteral("%1: %2").arg(QString::fromUtf8(lab::severityName(diagnostic.severity)),
                                             QString::fromStdString(diagnostic.message));
            const QString key = where + QLatin1Char(' ') + message;
            if (seen.contains(key)) continue;
            seen << key;
            auto* item = new QListWidgetItem(QStringLiteral("%1 %2 (%3)").arg(where, message, device.device));
            item->setData(Qt::UserRole, diagnostic.line);
            diagnostics_->addItem(item);
            if (diagnostic.line <= 0 || diagnostic.severity == lab::Diagnostic::Severity::Note) continue;
            QString& text = markers_[diagnostic.line];
            text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + message;
            errorLines[diagnostic.line] =
                errorLines.value(diagnostic.line) || diagnostic.severity == lab::Diagnostic::Severity::Error;
        }
    }
    log_->setPlainText(log);
    buildMarkers_ = markers_;
    buildErrorLines_ = errorLines;
    editor_->setMarkers(&markers_, errorLines);
    emit buildShown();
    // A running kernel runs again once its new text builds; a text that does not build is not run, so that
    // typing does not raise a failed run at every pause.
    const bool allBuilt = std::all_of(result.devices.begin(), result.devices.end(),
                                      [](const LabDeviceBuild& device) { return device.built; });
    if (running_ && allBuilt) emit runRequested();
}

void KernelLabView::jumpTo(int line) {
    const QTextBlock block = editor_->document()->findBlockByNumber(line - 1);
    if (!block.isValid()) return;
    editor_->setTextCursor(QTextCursor(block));
    editor_->centerCursor();
    editor_->setFocus();
}

std::optional<RunRequest::EditedStrategy> KernelLabView::editedStrategy() const {
    if (!running_ || copiedStrategy_.isEmpty()) return std::nullopt;
    return RunRequest::EditedStrategy{copiedStage_.toStdString(), copiedStrategy_.toStdString(),
                                      label().toStdString(), text().toStdString()};
}

void KernelLabView::follow(const RunModel& model) {
    connect(&model, &RunModel::histogramChanged, this, [this, &model] {
        if (model.outcome()) showReferenceCheck(*model.outcome());
    });
}

void KernelLabView::showReferenceCheck(const RunOutcome& outcome) {
    const auto checked =
        std::find_if(outcome.stages.begin(), outcome.stages.end(),
                     [](const StageOutcome& stage) { return stage.referenceCheck.has_value(); });
    if (checked == outcome.stages.end() || !outcome.request.edited) {
        referenceCheck_->hide();
        return;
    }
    const lab::ReferenceCheck& check = *checked->referenceCheck;
    referenceCheck_->setText(tr("Reference check of the edited %1 (%2 stage): %3")
                                 .arg(checked->strategyName(), QString::fromStdString(checked->stage),
                                      QString::fromStdString(check.describe())));
    referenceCheck_->setStyleSheet(check.matches() ? QStringLiteral("color: #2e7d32; font-weight: bold;")
                                                   : QStringLiteral("color: #c62828; font-weight: bold;"));
    referenceCheck_->show();
}

QString KernelLabView::referenceCheckText() const {
    return referenceCheck_->isHidden() ? QString() : referenceCheck_->text();
}

bool KernelLabView::checking() const {
    return checker_ != nullptr;
}

bool KernelLabView::check() {
    if (checking()) return false;
    if (!copiedStrategy_.isEmpty()) {
        status_->setText(tr("Check runs image kernels of your own; an edited %1 is checked against its CPU "
                            "reference by Run")
                             .arg(copiedStrategy_));
        return false;
    }
    const QString cli =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("histoscope-cli"));
    if (!QFileInfo(cli).isExecutable()) {
        status_->setText(tr("%1: not found beside the app: Check runs it").arg(cli));
        return false;
    }
    auto folder = std::make_unique<QTemporaryDir>();
    if (!folder->isValid()) {
        status_->setText(tr("Check: cannot make a temporary folder: %1").arg(folder->errorString()));
        return false;
    }
    updateParams();                // the text as it is now, whether or not typing has paused since
    folder->setAutoRemove(false);  // removed when the check ends (checkEnded)
    checkFolder_ = folder->path();
    // The text as shown, under its own name (the findings name it); a 16×16 image of distinct pixels.
    const QString kernel = QDir(checkFolder_).filePath(label());
    const QString image = QDir(checkFolder_).filePath(QStringLiteral("check.png"));
    QImage pixels(16, 16, QImage::Format_RGBA8888);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) pixels.setPixel(x, y, qRgba(x * 16, y * 16, (x + y) * 8, 255));
    try {
        writeFileAtomically(kernel.toStdString(), text().toStdString());
    } catch (const Error& error) {
        status_->setText(QString::fromUtf8(error.what()));
        return false;
    }
    pixels.save(image);
    QStringList arguments = {QStringLiteral("check"), image, QStringLiteral("--kernel"), kernel};
    for (const lab::KernelParam& param : params_) {
        const auto value = values_.find(param.name);
        arguments << QStringLiteral("--param")
                  << QStringLiteral("%1=%2")
                         .arg(QString::fromStdString(param.name))
                         .arg(value != values_.end() ? value->second : param.defaultValue, 0, 'g', 17);
    }
    checker_ = new QProcess(this);
    checker_->setProgram(cli);
    checker_->setArguments(arguments);
    connect(checker_, &QProcess::finished, this, &KernelLabView::checkEnded);
    connect(checker_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) checkEnded();
    });
    checker_->start();
    check_->setText(tr("Stop check"));
    status_->setText(tr("Checking %1 under Oclgrind…").arg(label()));
    return true;
}

void KernelLabView::cancelCheck() {
    if (!checker_) return;
    checker_->disconnect(this);
    checker_->kill();
    checker_->waitForFinished(1000);
    checker_->deleteLater();
    checker_ = nullptr;
    QDir(checkFolder_).removeRecursively();
    check_->setText(tr("Check"));
    status_->setText(tr("Check stopped"));
    emit checkFinished();
}

void KernelLabView::checkEnded() {
    QProcess* process = checker_;
    checker_ = nullptr;
    process->deleteLater();
    check_->setText(tr("Check"));
    const QString kernel = QDir(checkFolder_).filePath(label());
    QDir(checkFolder_).removeRecursively();
    findings_.clear();
    const int code = process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
    if (process->error() == QProcess::FailedToStart || (code != 0 && code != 5)) {
        QString why = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
        why = why.section(QLatin1Char('\n'), -1)
                  .remove(QRegularExpression(QStringLiteral("^histoscope-cli: ")));
        if (why.isEmpty()) why = process->errorString();
        status_->setText(tr("Check could not run: %1").arg(why.replace(kernel, label())));
        emit checkFinished();
        return;
    }
    // histoscope-cli check's lines: "FILE:LINE: finding (kernel NAME)", or "FILE: finding" without a line.
    const QStringList lines = QString::fromUtf8(process->readAllStandardOutput()).split(QLatin1Char('\n'));
    for (QString line : lines) {
        if (!line.startsWith(kernel + QLatin1Char(':'))) continue;
        line = line.mid(kernel.size() + 1);
        lab::Finding finding;
        const int colon = line.indexOf(QStringLiteral(": "));
        bool numbered = false;
        const int number = line.left(colon).toInt(&numbered);
        if (colon > 0 && numbered) {
            finding.line = number;
            line = line.mid(colon + 2);
        } else {
            line = line.trimmed();
        }
        finding.message = line.toStdString();
        findings_.push_back(finding);
    }
    showMarkers();
    status_->setText(findings_.empty() ? tr("Check: Oclgrind found nothing wrong in %1").arg(label())
                                       : tr("Check: %n finding(s) under Oclgrind", nullptr,
                                            static_cast<int>(findings_.size())));
    emit checkFinished();
}

void KernelLabView::showMarkers() {
    markers_ = buildMarkers_;
    QMap<int, bool> errorLines = buildErrorLines_;
    for (const lab::Finding& finding : findings_) {
        const QString message = tr("oclgrind: %1").arg(QString::fromStdString(finding.message));
        const QString where = finding.line > 0 ? QString::number(finding.line) : tr("(no line)");
        auto* item = new QListWidgetItem(QStringLiteral("%1 %2").arg(where, message));
        item->setData(Qt::UserRole, finding.line);
        diagnostics_->addItem(item);
        if (finding.line <= 0) continue;
        QString& text = markers_[finding.line];
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + message;
        errorLines[finding.line] = true;
    }
    editor_->setMarkers(&markers_, errorLines);
}

void KernelLabView::setRunInFlight(bool inFlight) {
    const bool ours = inFlight && running_;
    if (ours && !runClock_) {
        runClock_ = std::make_unique<QElapsedTimer>();
        runClock_->start();
        abandon_->setEnabled(true);
        runTicker_->start();
    } else if (!ours) {
        runClock_.reset();
        runTicker_->stop();
        abandoned_ = false;
    }
    runStatus_->setVisible(ours);
    abandon_->setVisible(ours);
    updateRunStatus();
}

void KernelLabView::updateRunStatus() {
    if (!runClock_) return;
    const QString what = copiedStrategy_.isEmpty() ? tr("kernel %1 (%2)").arg(kernelName_, label())
                                                   : tr("the edited %1 (%2)").arg(copiedStrategy_, label());
    const QString seconds = QString::number(static_cast<double>(runClock_->elapsed()) / 1000.0, 'f', 1);
    // A CPU driver cannot stop a kernel (README): the abandoned run's result is dropped, and runs asked for
    // meanwhile start once the device has finished it.
    if (abandoned_)
        runStatus_->setText(tr("Abandoned: %1 still runs on the device (%2 s); its result will be discarded, "
                               "and the next run starts when the device is done with it")
                                .arg(copiedStrategy_.isEmpty() ? kernelName_ : copiedStrategy_, seconds));
    else
        runStatus_->setText(tr("Running %1 for %2 s").arg(what, seconds));
}

QString KernelLabView::runStatus() const {
    return runStatus_->isHidden() ? QString() : runStatus_->text();
}

}  // namespace hs::ui
