#include "ui/shell/main_window.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/runtime/kernel_sources.hpp"
#include "engine/stages/shared_options.hpp"
#include "io/image_io.hpp"
#include "io/timeline.hpp"
#include "ui/display/image_view.hpp"
#include "ui/display/region_selector.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/number_field.hpp"
#include "ui/shell/preferences_dialog.hpp"
#include "ui/shell/run_history.hpp"
#include "ui/shell/scope_wiring.hpp"
#include "ui/shell/shortcuts_dialog.hpp"
#include "ui/shell/strategy_box.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/shell/user_guide.hpp"
#include "ui/views/compare_view.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/kernel_lab_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/scope_view.hpp"
#include "ui/views/sweep_view.hpp"
#include "ui/views/timeline_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui/views/view_helpers.hpp"
#include "ui/views/visual_words_view.hpp"

namespace hs::ui {

namespace {

// The strategy of a first start: `auto` where the registry has it (histoscope-cli defaults to it too), else
// the first one listed.
constexpr std::string_view kPreferredDefaultStrategy = "auto";
constexpr int kDefaultRepetitions = 10;  // Compare, per strategy
constexpr int kNoteWidth = 420;          // pixels of the status bar for a stage's fallback note

QIcon themed(const char* name, QStyle::StandardPixmap fallback) {
    return QIcon::fromTheme(QLatin1String(name), QApplication::style()->standardIcon(fallback));
}

// Qt's standard icons have nothing that reads as zoom: without an icon theme these actions show text only.
QIcon themed(const char* name) {
    return QIcon::fromTheme(QLatin1String(name));
}

// The dock that holds `view` (inside its scroll area).
QDockWidget* dockOf(QWidget* view) {
    QWidget* parent = view->parentWidget();
    while (parent && !qobject_cast<QDockWidget*>(parent)) parent = parent->parentWidget();
    return qobject_cast<QDockWidget*>(parent);
}

// A view as its dock holds it: in a scroll area that the view fills while the dock is tall enough, and that
// scrolls vertically once the dock is shorter than the view's minimum. So no panel's minimum height (every
// stage page of the Transform panel, the device's properties) becomes the window's: the window fits a
// 1280 × 800 screen and every control stays reachable. Widths stay the views' own minimum (they reflow,
// elide or scroll inside; a sideways-scrolling panel would hide its controls' right ends).
class VerticalScrollArea final : public QScrollArea {
  public:
    explicit VerticalScrollArea(QWidget* view) {
        setWidget(view);
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }
    QSize minimumSizeHint() const override {
        return {widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width(),
                kMinimumHeight};
    }
    QSize sizeHint() const override {
        return widget()->sizeHint() + QSize(verticalScrollBar()->sizeHint().width(), 0);
    }

  private:
    static constexpr int kMinimumHeight = 60;
};

QString droppedImage(const QMimeData* mime) {
    if (!mime || !mime->hasUrls() || mime->urls().isEmpty() || !mime->urls().first().isLocalFile()) return {};
    const QString path = mime->urls().first().toLocalFile();
    return io::readableSuffixes().contains(QFileInfo(path).suffix().toLower()) ? path : QString();
}

// A device as the status bar names it: with its selector, which tells two identical devices apart.
QString deviceText(const DeviceInfo& device) {
    return QStringLiteral("%1 (%2)").arg(QString::fromStdString(device.name),
                                         QString::fromStdString(device.selector()));
}

void applyHistogramDisplay(HistogramView& view, const AppSettings::HistogramDisplay& display) {
    view.setLogScale(display.logScale);
    view.setCumulative(display.cumulative);
    view.setClipDominant(display.clipPeak);
    for (const auto channel : histogram::kChannels)
        view.setChannelVisible(channel,
                               display.channels.contains(QString::fromUtf8(histogram::channelName(channel))));
}

AppSettings::HistogramDisplay histogramDisplayOf(const HistogramView& view) {
    AppSettings::HistogramDisplay display{view.logScale(), view.cumulative(), view.clipDominant(), {}};
    for (const auto channel : histogram::kChannels)
        if (view.channelVisible(channel))
            display.channels << QString::fromUtf8(histogram::channelName(channel));
    return display;
}

struct Decoded {
    std::shared_ptr<const ImageRGBA8> image;
    QString error;
};

}  // namespace

MainWindow::MainWindow(AppSettings& settings, QWidget* parent)
    : QMainWindow(parent),
      settings_(settings),
      controller_(new Controller(this)),
      model_(new RunModel(this)) {
    setWindowTitle(QStringLiteral("HistoScope"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    reporter_ = [this](const ErrorReport& problem) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, problem.title, problem.message, QMessageBox::Ok, this);
        box->setInformativeText(problem.hint);
        box->setDetailedText(problem.details);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    };

    imageView_ = new ImageView(this);
    setCentralWidget(imageView_);
    // The offscreen canvas has its link at once, the on-screen one once it is first shown.
    if (DisplayLink* link = imageView_->displayLink()) controller_->setDisplay(link);
    connect(imageView_, &ImageView::displayLinkReady, controller_, &Controller::setDisplay);
    connect(imageView_, &ImageView::imageDisplayed, this, &MainWindow::imageOnScreenChanged);
    buildActions();
    buildDocks();
    applyPreferences(settings_.preferences());
    history_ = new RunHistory(*this, settings_);
    buildToolBar();
    buildMenus();
    buildStatusBar();
    restoreLayout();

    connect(controller_, &Controller::devicesReady, this, &MainWindow::onDevicesReady);
    connect(controller_, &Controller::histogramReady, this, &MainWindow::onHistogramReady);
    connect(controller_, &Controller::failed, this, &MainWindow::onRunFailed);
    connect(controller_, &Controller::busyChanged, this, &MainWindow::onBusyChanged);
    connect(controller_, &Controller::cancelled, this, &MainWindow::onCancelled);
    connect(controller_, &Controller::discarded, model_, &RunModel::discard);
    connect(controller_, &Controller::compareReady, this, [this](const measure::Comparison& comparison) {
        compareView_->showComparison(comparison);
        dockOf(compareView_)->raise();
    });
    connect(controller_, &Controller::autoTrialProgress, this,
            [this](int candidate, int candidates, const QString& strategy) {
                busyLabel_->setText(
                    tr("auto: trying %1 of %2 (%3)").arg(candidate).arg(candidates).arg(strategy));
            });
    // A run that takes longer than this marks the histogram on screen as the previous settings' one.
    constexpr int kMomentMs = 250;
    previousSettingsDelay_ = new QTimer(this);
    previousSettingsDelay_->setSingleShot(true);
    previousSettingsDelay_->setInterval(kMomentMs);
    connect(previousSettingsDelay_, &QTimer::timeout, this, [this] {
        const auto& shown = model_->outcome();
        markPreviousSettings(shown && shown->requestId < requestedHistogramId_);
    });
    connect(controller_, &Controller::progress, this, [this](int done, int total) {
        if (progressTarget_ == ProgressTarget::Timings) {
            timingView_->setProgress(done, total);
        } else {
            busyBar_->setRange(0, total);
            busyBar_->setValue(done);
            busyBar_->show();
        }
    });
    controller_->start();
}

MainWindow::~MainWindow() {
    // The controller releases the display link's OpenCL objects on its worker thread: before the image view,
    // which owns the link's GL context, goes.
    delete controller_;
}

void MainWindow::setErrorReporter(ErrorReporter reporter) {
    reporter_ = std::move(reporter);
}

void MainWindow::reportProblem(const ErrorReport& problem) {
    statusBar()->showMessage(problem.message, 10000);
    reporter_(problem);
}

// ---- building the window ----

QAction* MainWindow::action(Command command) const {
    return actions_.at(command);
}

QAction* MainWindow::addCommand(Command command, const QIcon& icon, const QString& text,
                                const QList<QKeySequence>& shortcuts, const QString& toolTip,
                                std::function<void()> triggered) {
    auto* action = new QAction(icon, text, this);
    action->setShortcuts(shortcuts);
    if (!toolTip.isEmpty()) action->setToolTip(toolTip);
    connect(action, &QAction::triggered, this, std::move(triggered));
    actions_[command] = action;
    return action;
}

void MainWindow::buildActions() {
    addCommand(Command::Open, themed("document-open", QStyle::SP_DialogOpenButton), tr("&Open Image…"),
               {QKeySequence(QKeySequence::Open)}, {}, [this] { chooseOpenFile(); })
        ->setStatusTip(tr("Open an image file"));
    addCommand(Command::Quit, themed("application-exit", QStyle::SP_DialogCloseButton), tr("&Quit"),
               {QKeySequence(QKeySequence::Quit)}, {}, [this] { close(); })
        ->setMenuRole(QAction::QuitRole);
    addCommand(Command::Run, themed("media-playback-start", QStyle::SP_MediaPlay), tr("&Run"),
               {QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)},
               tr("Compute the histogram again (F5)"), [this] { runHistogram(); });
    // Its text names the count, which lives in the Timings dock (set there; the text follows it).
    addCommand(Command::RunRepeated, themed("view-refresh", QStyle::SP_BrowserReload), tr("Run ×N"),
               {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)},
               tr("Measure the current work several times; the count is set in the Timings dock"), [this] {
                   // The Timings dock holds the count and shows the progress.
                   dockOf(timingView_)->raise();
                   runRepeated(timingView_->repeatCount());
               });
    addCommand(Command::Compare, themed("view-statistics", QStyle::SP_FileDialogDetailedView),
               tr("&Compare…"), {QKeySequence(Qt::CTRL | Qt::Key_K)},
               tr("Run every supported strategy and compare their kernel times"), [this] {
                   bool ok = false;
                   const int repetitions =
                       QInputDialog::getInt(this, tr("Compare strategies"), tr("Repetitions per strategy:"),
                                            kDefaultRepetitions, 1, 1000, 1, &ok);
                   if (ok) runCompare(repetitions);
               });
    addCommand(Command::Cancel, themed("process-stop", QStyle::SP_BrowserStop), tr("C&ancel"),
               {QKeySequence(Qt::Key_Escape)}, {}, [this] { controller_->cancel(); })
        ->setEnabled(false);
    addCommand(Command::FitToWindow, themed("zoom-fit-best"), tr("&Fit to Window"),
               {QKeySequence(Qt::CTRL | Qt::Key_0)}, {}, [this] { imageView_->fitToWindow(); });
    addCommand(Command::ActualSize, themed("zoom-original"), tr("&Actual Pixels"),
               {QKeySequence(Qt::CTRL | Qt::Key_1)}, {}, [this] { imageView_->zoomToActualSize(); });
    addCommand(Command::ZoomIn, themed("zoom-in"), tr("Zoom &In"), {QKeySequence(QKeySequence::ZoomIn)}, {},
               [this] { imageView_->zoomIn(); });
    addCommand(Command::ZoomOut, themed("zoom-out"), tr("Zoom &Out"), {QKeySequence(QKeySequence::ZoomOut)},
               {}, [this] { imageView_->zoomOut(); });
    // The platform's key where it has one (Ctrl+, on KDE and macOS), else Ctrl+, as most Linux programs do.
    QList<QKeySequence> preferenceKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    if (preferenceKeys.isEmpty()) preferenceKeys << QKeySequence(Qt::CTRL | Qt::Key_Comma);
    addCommand(Command::Preferences, themed("preferences-system", QStyle::SP_FileDialogInfoView),
               tr("&Preferences…"), preferenceKeys, {}, [this] { openPreferences(); })
        ->setMenuRole(QAction::PreferencesRole);
    action(Command::Preferences)
        ->setStatusTip(tr("The device at start, the runs kept, the program cache, the typing pause"));
}

void MainWindow::buildDocks() {
    // The device column runs the full height on the left, the transforms under the device; the histogram sits
    // beside the image; timings, comparison and kernel source share the bottom.
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);

    devicePanel_ = new DevicePanel;
    transformPanel_ = new TransformPanel;
    transformPanel_->applySettings(settings_.transform());
    histogramView_ = new HistogramView;
    if (const auto display = settings_.histogramDisplay()) applyHistogramDisplay(*histogramView_, *display);
    timingView_ = new TimingView(*model_);
    timingView_->setRepeatCount(settings_.repeatCount());
    timelineView_ = new TimelineView;
    compareView_ = new CompareView;
    kernelView_ = new KernelView;
    kernelLab_ =
        new KernelLabView(kernelView_, QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                           QStringLiteral("/kernel-lab"));
    kernelLab_->setDeviceSource([this] { return devicePanel_->currentSelector(); });
    connect(kernelLab_, &KernelLabView::runRequested, this, &MainWindow::runHistogram);
    sweepView_ = new SweepView;
    sweepView_->setImageSource([this] { return image_; });
    sweepView_->setDeviceSource([this] { return devicePanel_->currentSelector(); });
    kernelLab_->pages()->addTab(sweepView_, tr("Sweep"));
    connect(sweepView_, &SweepView::sweepFinished, this, &MainWindow::sweepShown);
    connect(sweepView_, &SweepView::sweepFailed, this, [this](const QString& message) {
        reportProblem({ErrorKind::OpenCl, tr("Sweep failed"), message, {}, {}});
    });
    kernelLab_->follow(*model_);
    connect(controller_, &Controller::busyChanged, kernelLab_, &KernelLabView::setRunInFlight);
    connect(kernelLab_, &KernelLabView::abandonRequested, controller_, &Controller::cancel);
    visualWordsView_ = new VisualWordsView;
    scopeView_ = new ScopeView;
    // Every docked view, once, in the View menu's order. The side areas stack their views, the bottom shows
    // its views as tabs, the first one in front. A dock's object name is where saveState() remembers it.
    const struct {
        QString title;
        const char* objectName;
        QWidget* view;
        Qt::DockWidgetArea area;
    } docked[] = {
        {tr("Device"), "deviceDock", devicePanel_, Qt::LeftDockWidgetArea},
        {tr("Transform"), "transformDock", transformPanel_, Qt::LeftDockWidgetArea},
        {tr("Histogram"), "histogramDock", histogramView_, Qt::RightDockWidgetArea},
        {tr("Timings"), "timingDock", timingView_, Qt::BottomDockWidgetArea},
        {tr("Scopes"), "scopesDock", scopeView_, Qt::BottomDockWidgetArea},
        {tr("Timeline"), "timelineDock", timelineView_, Qt::BottomDockWidgetArea},
        {tr("Compare"), "compareDock", compareView_, Qt::BottomDockWidgetArea},
        {tr("Kernel"), "kernelDock", kernelLab_, Qt::BottomDockWidgetArea},
        {tr("Visual words"), "visualWordsDock", visualWordsView_, Qt::BottomDockWidgetArea},
    };
    std::map<Qt::DockWidgetArea, QDockWidget*> lastInArea;
    for (const auto& entry : docked) {
        auto* dock = new QDockWidget(entry.title, this);
        dock->setObjectName(QLatin1String(entry.objectName));
        dock->setWidget(new VerticalScrollArea(entry.view));
        addDockWidget(entry.area, dock);
        QDockWidget*& last = lastInArea[entry.area];
        if (last && entry.area == Qt::BottomDockWidgetArea)
            tabifyDockWidget(last, dock);
        else if (last)
            splitDockWidget(last, dock, Qt::Vertical);
        last = dock;
    }
    dockOf(timingView_)->raise();

    // The views that show the model follow it; the exports read it.
    histogramView_->follow(*model_);
    timelineView_->follow(*model_);
    kernelView_->follow(*model_);
    regions_ = new RegionSelector(*imageView_, this);
    attachScopes(*this, *scopeView_, *dockOf(scopeView_), *model_, *regions_);
    exportActions_ =
        new ExportActions(*model_, histogramView_, timelineView_, visualWordsView_, settings_, this);
    connect(exportActions_, &ExportActions::exported, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });

    connect(devicePanel_, &DevicePanel::deviceChanged, this, &MainWindow::onDeviceChanged);
    connect(transformPanel_, &TransformPanel::transformChanged, this, &MainWindow::runHistogram);
    connect(transformPanel_, &TransformPanel::problemReported, this, [this](const QString& message) {
        reportProblem({ErrorKind::Input, tr("Cannot load filter"), message, {}, {}});
    });
    connect(transformPanel_, &TransformPanel::pipelineRefused, this, [this](const QString& message) {
        reportProblem({ErrorKind::OpenCl, tr("Cannot run the pipeline on these devices"), message, {}, {}});
    });
    connect(timingView_, &TimingView::runRepeatedRequested, this, &MainWindow::runRepeated);
    const auto showRepeatCount = [this](int count) {
        action(Command::RunRepeated)->setText(tr("Run ×%1").arg(count));
    };
    connect(timingView_, &TimingView::repeatCountChanged, this, showRepeatCount);
    showRepeatCount(timingView_->repeatCount());
    connect(timingView_, &TimingView::cancelRequested, controller_, &Controller::cancel);
    connect(compareView_, &CompareView::compareRequested, this, &MainWindow::runCompare);
    connect(visualWordsView_, &VisualWordsView::problemReported, this,
            [this](const QString& title, const QString& message) {
                reportProblem({ErrorKind::Input, title, message, {}, {}});
            });
}

void MainWindow::buildToolBar() {
    auto* toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(action(Command::Open));
    toolBar->addSeparator();

    strategyBox_ = new StrategyBox;
    strategyBox_->setObjectName(QStringLiteral("strategy"));
    if (!strategyBox_->setCurrentStrategy(settings_.strategy()))
        strategyBox_->setCurrentStrategy(QString::fromUtf8(kPreferredDefaultStrategy));
    auto* strategyLabel = new QLabel(tr("Strategy "));
    strategyLabel->setBuddy(strategyBox_->comboBox());
    toolBar->addWidget(strategyLabel);
    toolBar->addWidget(strategyBox_);

    auto* binsField = new IntField([](std::string_view text) { return options::parseBins(text); });
    bins_ = binsField;
    bins_->setObjectName(QStringLiteral("bins"));
    bins_->setRange(1, histogram::kMaxBins);
    bins_->setValue(settings_.bins());
    bins_->setToolTip(tr("Number of equal bins over 0…255 (bin = value · N / 256)"));
    auto* binsLabel = new QLabel(tr("  Bins "));
    binsLabel->setBuddy(bins_);
    toolBar->addWidget(binsLabel);
    // The field and, beside it, what it has to say about a refused count.
    auto* binsBox = new QWidget;
    auto* binsRow = new QHBoxLayout(binsBox);
    binsRow->setContentsMargins(0, 0, 0, 0);
    binsRow->addWidget(bins_);
    binsField->note()->setWordWrap(false);
    binsRow->addWidget(binsField->note());
    toolBar->addWidget(binsBox);
    ignoreTransparent_ = new QCheckBox(tr("Ignore transparent"));
    ignoreTransparent_->setObjectName(QStringLiteral("ignoreTransparent"));
    ignoreTransparent_->setChecked(settings_.ignoreTransparent());
    ignoreTransparent_->setToolTip(
        tr("Leave fully transparent pixels (alpha 0, such as a rotation's padding) out of R, G, B and luma; "
           "A still counts them"));
    toolBar->addWidget(ignoreTransparent_);
    toolBar->addSeparator();
    toolBar->addAction(action(Command::Run));
    toolBar->addAction(action(Command::RunRepeated));
    toolBar->addAction(action(Command::Compare));
    toolBar->addAction(action(Command::Cancel));
    toolBar->addSeparator();
    toolBar->addAction(action(Command::FitToWindow));
    toolBar->addAction(action(Command::ActualSize));

    connect(strategyBox_, &StrategyBox::strategyChanged, this, &MainWindow::runHistogram);
    connect(bins_, &QSpinBox::valueChanged, this, &MainWindow::onBinsChanged);
    connect(ignoreTransparent_, &QCheckBox::toggled, this, &MainWindow::runHistogram);
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(action(Command::Open));
    file->addActions(history_->sessionActions());
    recentMenu_ = file->addMenu(themed("document-open-recent", QStyle::SP_DirIcon), tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addSeparator();
    auto* exportMenu = file->addMenu(themed("document-save-as", QStyle::SP_DialogSaveButton), tr("&Export"));
    exportMenu->addActions(exportActions_->actions());
    exportMenu->addActions(history_->exportActions());
    exportMenu->addActions(scopeView_->exportActions());
    file->addSeparator();
    file->addAction(action(Command::Quit));

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(action(Command::Preferences));

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(action(Command::FitToWindow));
    viewMenu_->addAction(action(Command::ActualSize));
    viewMenu_->addAction(action(Command::ZoomIn));
    viewMenu_->addAction(action(Command::ZoomOut));
    viewMenu_->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>()) viewMenu_->addAction(dock->toggleViewAction());
    for (auto* toolBar : findChildren<QToolBar*>()) viewMenu_->addAction(toolBar->toggleViewAction());
    viewMenu_->addSeparator();
    viewMenu_->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout)
        ->setStatusTip(tr("Every panel back in its place and the window back to its first size"));

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(action(Command::Run));
    run->addAction(action(Command::RunRepeated));
    run->addAction(action(Command::Compare));
    run->addSeparator();
    run->addAction(action(Command::Cancel));
    run->addAction(history_->recordAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&User Guide"), QKeySequence(QKeySequence::HelpContents), this,
                    [this] { showUserGuide(*this); })
        ->setStatusTip(tr("How to use HistoScope: the README and the guides of docs/"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    [this] { ShortcutsDialog(*this, this).exec(); })
        ->setStatusTip(tr("Every shortcut of the window, read from its actions"));
    help->addAction(tr("&About HistoScope"), this, [this] {
        QMessageBox::about(this, tr("About HistoScope"),
                           tr("<h3>HistoScope %1</h3><p>A workbench for OpenCL image kernels: histograms by "
                              "several strategies on every OpenCL device, with the time of every command.</p>"
                              "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
                               .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::buildStatusBar() {
    readoutLabel_ = new QLabel;
    // Whatever width the permanent fields leave (they come first): the read-out never widens the window.
    readoutLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(readoutLabel_, 1);
    busyBar_ = new QProgressBar;
    busyBar_->setMaximumWidth(160);
    busyBar_->setMaximumHeight(14);
    busyBar_->setTextVisible(false);
    busyBar_->hide();
    statusBar()->addPermanentWidget(busyBar_);
    busyLabel_ = new QLabel(tr("running…"));
    busyLabel_->setObjectName(QStringLiteral("busyLabel"));
    busyLabel_->hide();
    statusBar()->addPermanentWidget(busyLabel_);
    zoomLabel_ = new QLabel;
    zoomLabel_->setToolTip(tr("Zoom"));
    imageLabel_ = new QLabel(tr("no image"));
    imageLabel_->setToolTip(tr("Image size"));
    deviceLabel_ = new QLabel;
    deviceLabel_->setToolTip(tr("OpenCL device"));
    noteLabel_ = new QLabel;
    noteLabel_->setObjectName(QStringLiteral("noteLabel"));
    noteLabel_->setStyleSheet(QStringLiteral("color: #c77c02;"));
    noteLabel_->hide();
    displayLabel_ = new QLabel;
    displayLabel_->setObjectName(QStringLiteral("displayLabel"));
    strategyLabel_ = new QLabel;
    kernelTimeLabel_ = new QLabel;
    kernelTimeLabel_->setToolTip(tr("Kernel time of the last run"));
    for (auto* label : {noteLabel_, zoomLabel_, imageLabel_, deviceLabel_, displayLabel_, strategyLabel_,
                        kernelTimeLabel_}) {
        label->setContentsMargins(4, 0, 4, 0);
        statusBar()->addPermanentWidget(label);
    }
    // A rule between the fields, which would otherwise read as one run of words.
    statusBar()->setStyleSheet(
        QStringLiteral("QStatusBar::item { border: none; border-left: 1px solid palette(mid); }"));

    connect(imageView_, &ImageView::pixelHovered, readoutLabel_, &QLabel::setText);
    connect(imageView_, &ImageView::zoomChanged, this, [this](double zoom) {
        zoomLabel_->setText(QStringLiteral("%1 %").arg(zoom * 100, 0, 'f', zoom < 0.1 ? 1 : 0));
    });
}

void MainWindow::restoreLayout() {
    // The docks as buildDocks arranged them: what View ▸ Reset Layout goes back to.
    defaultState_ = saveState();
    if (restoreGeometry(settings_.windowGeometry())) {
        restoreState(settings_.windowState());
        return;
    }
    resetLayout();
}

void MainWindow::resetLayout() {
    restoreState(defaultState_);
    // The scopes are counted only while their dock is shown (each one a stage after the histogram): closed in
    // this layout (View ▸ Scopes opens it), so that a run is the stages the user chose until they ask for
    // scopes.
    for (auto* dock : findChildren<QDockWidget*>()) {
        dock->setFloating(false);
        dock->setVisible(dock != dockOf(scopeView_));
    }
    for (auto* toolBar : findChildren<QToolBar*>()) toolBar->show();
    dockOf(timingView_)->raise();
    // A generous window that still fits small screens, its docks sized in proportion to it (the docks'
    // minimum sizes would otherwise decide, and leave the tables of the bottom docks a few rows).
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1600, 1000);
    if (isMaximized()) showNormal();
    resize(std::min(1560, available.width() * 95 / 100), std::min(980, available.height() * 95 / 100));
    const auto dock = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
    resizeDocks({dock("deviceDock"), dock("histogramDock")}, {width() * 22 / 100, width() * 41 / 100},
                Qt::Horizontal);
    resizeDocks({dock("deviceDock")}, {height() * 30 / 100}, Qt::Vertical);
    resizeDocks({dock("timingDock")}, {height() * 40 / 100}, Qt::Vertical);
}

QString MainWindow::statusSummary() const {
    QStringList parts;
    for (const auto* label : {imageLabel_, deviceLabel_, displayLabel_, strategyLabel_, kernelTimeLabel_,
                              noteLabel_, readoutLabel_}) {
        if (!label->text().isEmpty()) parts << label->text();
    }
    return parts.join(QStringLiteral(" | "));
}

// ---- opening images ----

void MainWindow::chooseOpenFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Image"), settings_.lastFolder(), io::openDialogFilter());
    if (!path.isEmpty()) openImage(path);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = settings_.recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        auto* action =
            recentMenu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
                                   [this, path] { openImage(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (!files.isEmpty()) recentMenu_->addSeparator();
    auto* clear = recentMenu_->addAction(tr("&Clear Menu"), this, [this] {
        settings_.clearRecentFiles();
        rebuildRecentMenu();
    });
    clear->setEnabled(!files.isEmpty());
}

void MainWindow::openImage(const QString& path) {
    const quint64 generation = ++loadGeneration_;
    statusBar()->showMessage(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
    auto* watcher = new QFutureWatcher<Decoded>(this);
    connect(watcher, &QFutureWatcher<Decoded>::finished, this, [this, watcher, generation, path] {
        const Decoded decoded = watcher->result();
        watcher->deleteLater();
        imageDecoded(generation, path, decoded.image, decoded.error);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        try {
            return Decoded{std::make_shared<const ImageRGBA8>(io::loadImage(path)), {}};
        } catch (const std::exception& e) {
            return Decoded{nullptr, QString::fromUtf8(e.what())};
        }
    }));
}

void MainWindow::imageDecoded(quint64 generation, const QString& path,
                              std::shared_ptr<const ImageRGBA8> image, const QString& error) {
    if (generation != loadGeneration_) return;  // a newer open superseded this one
    statusBar()->clearMessage();
    if (!openNote_.isEmpty()) {
        statusBar()->showMessage(openNote_, 10000);
        idleNotice_ = openNote_;  // the run of the new image clears the status bar when it ends
    }
    openNote_.clear();
    if (!image) {
        settings_.removeRecentFile(path);
        reportProblem({ErrorKind::Input, tr("Cannot open image"), error, {}, {}});
        emit imageLoadFailed(path, error);
        return;
    }
    const QFileInfo file(path);
    settings_.addRecentFile(path);
    settings_.setLastFolder(file.absolutePath());
    imagePath_ = file.absoluteFilePath();
    {
        // The run showImage starts counts this image's region; no run of the new image with the last one's.
        const QSignalBlocker quiet(regions_);
        regions_->setImagePath(imagePath_);
    }
    showImage(std::move(image), file.fileName());
    emit imageLoaded(path);
}

void MainWindow::showImage(std::shared_ptr<const ImageRGBA8> image, const QString& title) {
    image_ = std::move(image);
    imageView_->setImage(image_);
    showsProcessed_ = false;
    setWindowTitle(QStringLiteral("%1 — HistoScope").arg(title));
    imageLabel_->setText(image_ ? QStringLiteral("%1 × %2").arg(image_->width).arg(image_->height)
                                : tr("no image"));
    // Measurements of another image are not comparable.
    compareView_->clear();
    refreshSupport();
    runHistogram();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedImage(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = droppedImage(event->mimeData());
    if (path.isEmpty()) return;
    event->acceptProposedAction();
    // One image at a time: the others dropped with it are named, not silently left out.
    const qsizetype dropped = event->mimeData()->urls().size();
    openNote_ = dropped > 1 ? tr("%1 files were dropped; HistoScope shows one image at a time: %2")
                                  .arg(dropped)
                                  .arg(QFileInfo(path).fileName())
                            : QString();
    openImage(path);
}

// ---- devices, strategy, bins ----

void MainWindow::chooseDevice(const QString& selector) {
    preferredDevice_ = selector;
    if (controller_->devicesKnown()) onDevicesReady();
}

bool MainWindow::chooseStrategy(const QString& name) {
    return strategyBox_->setCurrentStrategy(name);
}

bool MainWindow::chooseStageStrategy(const QString& kind, const QString& name) {
    QComboBox* list = kind == QLatin1String("rotate")     ? transformPanel_->rotateStrategyBox()
                      : kind == QLatin1String("convolve") ? transformPanel_->convolveStrategyBox()
                                                          : nullptr;
    const int index = list ? list->findText(name) : -1;
    if (index < 0) return false;
    list->setCurrentIndex(index);
    return true;
}

void MainWindow::setBins(int bins) {
    bins_->setValue(bins);
}

void MainWindow::setIgnoreTransparent(bool ignore) {
    ignoreTransparent_->setChecked(ignore);
}

void MainWindow::setRotation(double degrees, rotate::FilterMode mode, bool fitCanvas) {
    transformPanel_->setRotation(degrees, mode, fitCanvas);
}

void MainWindow::setFilter(const QString& spec) {
    transformPanel_->applyFilterSpec(spec);
}

void MainWindow::setCustomFilter(const QString& text) {
    transformPanel_->applyCustomMatrix(text);
}

QString MainWindow::customFilter() const {
    return transformPanel_->customMatrix();
}

std::optional<DeviceInfo> MainWindow::currentDevice() const {
    return devicePanel_->currentDevice();
}

QString MainWindow::strategyUnsupportedReason(const QString& strategy) const {
    return strategyBox_->unsupportedReason(strategy);
}

bool MainWindow::imageOnScreen() const {
    return imageView_->imageReady();
}

void MainWindow::onDevicesReady() {
    const auto& devices = controller_->devices();
    {
        const QSignalBlocker blocker(devicePanel_);
        devicePanel_->setDevices(devices);
    }
    transformPanel_->setDevices(devices);
    QString selector;
    if (!preferredDevice_.isEmpty()) {
        try {
            selector =
                QString::fromStdString(selectDevice(devices, preferredDevice_.toStdString()).selector());
        } catch (const Error& e) {
            reportProblem({e.kind(), tr("Device not found"), QString::fromUtf8(e.what()), {}, {}});
        }
    } else {
        selector = startDeviceSelector(devices);
        if (selector.isEmpty() && !devices.empty()) {
            try {
                selector = QString::fromStdString(selectDevice(devices, {}).selector());
            } catch (const Error& e) {
                // $HISTOSCOPE_DEVICE names no device: the panel's first device stands, and the status bar
                // says why ("HISTOSCOPE_DEVICE='…': no device matches …").
                statusBar()->showMessage(QString::fromUtf8(e.what()), 10000);
                selector = devicePanel_->currentSelector();
            }
        }
    }
    {
        const QSignalBlocker blocker(devicePanel_);
        devicePanel_->selectDevice(selector);
    }
    deviceLabel_->setText(devices.empty() ? tr("no OpenCL device")
                                          : deviceText(*devicePanel_->currentDevice()));
    refreshSupport();
    emit devicesShown();
    runHistogram();
}

QString MainWindow::startDeviceSelector(const std::vector<DeviceInfo>& devices) {
    const Preferences preferences = settings_.preferences();
    if (!preferences.startDeviceSelector.isEmpty()) {
        for (const auto& device : devices) {
            if (QString::fromStdString(device.selector()) == preferences.startDeviceSelector &&
                QString::fromStdString(device.name) == preferences.startDeviceName)
                return preferences.startDeviceSelector;
        }
        statusBar()->showMessage(tr("The device chosen for the start, %1 (%2), is not present: the last one "
                                    "used instead")
                                     .arg(preferences.startDeviceName, preferences.startDeviceSelector),
                                 10000);
    }
    // The last one used: of its name and platform, the one at its selector where that is one of them (two
    // identical devices), else the first.
    QString lastUsed;
    for (const auto& device : devices) {
        if (QString::fromStdString(device.name) != settings_.deviceName() ||
            QString::fromStdString(device.platformName) != settings_.platformName())
            continue;
        const QString selector = QString::fromStdString(device.selector());
        if (lastUsed.isEmpty() || selector == settings_.deviceSelector()) lastUsed = selector;
    }
    return lastUsed;
}

void MainWindow::onDeviceChanged() {
    if (const auto device = devicePanel_->currentDevice()) deviceLabel_->setText(deviceText(*device));
    // Measurements from another device are not comparable.
    compareView_->clear();
    refreshSupport();
    runHistogram();
}

void MainWindow::refreshSupport() {
    if (!controller_->devicesKnown()) return;  // no device yet is not "no device"
    const auto device = devicePanel_->currentDevice();
    visualWordsView_->setSource(image_, imagePath_, device);
    const QSignalBlocker blocker(strategyBox_);
    strategyBox_->updateSupport(device ? &*device : nullptr, bins_->value());
    transformPanel_->updateSupport(device ? &*device : nullptr,
                                   image_ ? QSize(image_->width, image_->height) : QSize());
}

void MainWindow::onBinsChanged() {
    refreshSupport();
    runHistogram();
}

// ---- running ----

bool MainWindow::runSweep(const QString& spec) {
    kernelLab_->pages()->setCurrentWidget(sweepView_);
    if (auto* dock = dockOf(kernelLab_)) {
        dock->raise();
        // Room for the heat map: as much height as the docks above it let go.
        resizeDocks({dock}, {height()}, Qt::Vertical);
    }
    return sweepView_->configure(spec) && sweepView_->run();
}

QString MainWindow::sweepStatus() const {
    return sweepView_->status();
}

bool MainWindow::canRun() const {
    return image_ && controller_->devicesKnown();
}

RunRequest MainWindow::currentRequest() const {
    RunRequest request{image_,
                       devicePanel_->currentSelector(),
                       strategyBox_->selected(),
                       bins_->value(),
                       transformPanel_->rotation(),
                       transformPanel_->convolution(),
                       kernelLab_->withStage(transformPanel_->otherStages()),
                       ignoreTransparent_->isChecked(),
                       transformPanel_->twoDevices(),
                       forceCopyDisplay_,
                       imagePath_};
    addRegionAndScopes(request, *scopeView_, *dockOf(scopeView_), *regions_);
    request.edited = kernelLab_->editedStrategy();
    return request;
}

bool MainWindow::switchStageOn(const QString& name) {
    StagePage* page = transformPanel_->stagePage(name);
    if (!page) return false;
    page->setChecked(true);
    return true;
}

bool MainWindow::switchStageOn(const stages::Stage& stage) {
    StagePage* page = transformPanel_->stagePage(QString::fromUtf8(stage.kind().name()));
    if (!page) return false;
    QMap<QString, QString> settings{{QStringLiteral("on"), QStringLiteral("false")}};
    if (const auto* strategy = stage.requestedStrategy())
        settings.insert(QStringLiteral("strategy"), QString::fromUtf8(strategy->name()));
    for (const auto& parameter : stage.kind().parameters()) {
        const QString name = QString::fromStdString(parameter.name);
        if (parameter.type == stages::Parameter::Type::Flag)
            settings.insert(name, stage.values().contains(parameter.name) ? QStringLiteral("true")
                                                                          : QStringLiteral("false"));
        else if (const auto value = stages::valueOr(stage.kind(), stage.values(), parameter.name))
            settings.insert(name, QString::fromStdString(*value));
    }
    page->applySettings(settings);  // quietly, and off: switching on below runs once
    page->setChecked(true);
    return true;
}

QString MainWindow::userKernelPath() const {
    return kernelLab_->path();
}

QString MainWindow::userKernelText() const {
    return kernelLab_->text();
}

bool MainWindow::runUserKernel(const QString& path, const QString& text, const QMap<QString, double>& params,
                               int workGroup) {
    kernelLab_->showSource(text, path);
    kernelLab_->setWorkGroup(workGroup);
    for (auto param = params.cbegin(); param != params.cend(); ++param)
        if (!kernelLab_->setParamValue(param.key(), param.value())) return false;
    kernelLab_->setRunning(true);
    return true;
}

void MainWindow::switchImageStagesOff() {
    transformPanel_->twoDevicesGroup()->setChecked(false);
    transformPanel_->rotationGroup()->setChecked(false);
    transformPanel_->convolutionGroup()->setChecked(false);
    for (const auto* kind : stages::kinds()) {
        if (StagePage* page = transformPanel_->stagePage(QString::fromUtf8(kind->name())))
            page->setChecked(false);
    }
    kernelLab_->setRunning(false);
}

void MainWindow::setForceCopyDisplay(bool force) {
    forceCopyDisplay_ = force;
}

void MainWindow::showScopes(const std::vector<scope::Kind>& kinds) {
    showScopeDock(*scopeView_, *dockOf(scopeView_), kinds);
}

void MainWindow::setRegion(std::optional<Region> region) {
    regions_->setRegion(region);
}

void MainWindow::runHistogram() {
    if (!canRun()) return;
    latestKind_ = RunKind::Run;
    requestedHistogramId_ = controller_->runHistogram(currentRequest());
    emit runRequested(requestedHistogramId_);
    if (!previousSettingsDelay_->isActive()) previousSettingsDelay_->start();
}

quint64 MainWindow::runRepeated(int count) {
    if (!canRun()) return 0;
    progressTarget_ = ProgressTarget::Timings;
    timingView_->setProgress(0, count);
    latestKind_ = RunKind::Repeated;
    requestedHistogramId_ = controller_->runRepeated(currentRequest(), count);
    emit runRequested(requestedHistogramId_);
    if (!previousSettingsDelay_->isActive()) previousSettingsDelay_->start();
    return requestedHistogramId_;
}

void MainWindow::runCompare(int repetitions) {
    if (!canRun()) return;
    progressTarget_ = ProgressTarget::StatusBar;
    dockOf(compareView_)->raise();
    statusBar()->showMessage(tr("Comparing every strategy, %1 runs each…").arg(repetitions));
    latestKind_ = RunKind::Compare;
    emit runRequested(controller_->runCompare(currentRequest(), repetitions));
}

void MainWindow::onBusyChanged(bool busy) {
    action(Command::Cancel)->setEnabled(busy);
    // A still label rather than an animated busy bar, whose every frame would repaint the status bar
    // throughout each run.
    busyLabel_->setVisible(busy);
    if (busy) return;
    busyLabel_->setText(tr("running…"));
    busyLabel_->setToolTip({});
    busyBar_->hide();
    timingView_->setProgress(0, 0);
    statusBar()->clearMessage();
    if (!idleNotice_.isEmpty()) statusBar()->showMessage(idleNotice_, 10000);
    idleNotice_.clear();
}

void MainWindow::onCancelled() {
    action(Command::Cancel)->setEnabled(false);
    timingView_->setProgress(0, 0);
    busyBar_->hide();
    switch (latestKind_) {
        case RunKind::Run:
            idleNotice_ = tr("Run cancelled: its result is discarded, not shown");
            break;
        case RunKind::Repeated:
            idleNotice_ =
                tr("Run ×N cancelled: the runs finished before are kept, the one in flight is "
                   "discarded");
            break;
        case RunKind::Compare:
            idleNotice_ = tr("Compare cancelled: the strategies measured so far are kept");
            break;
    }
    // The worker is still busy until the device finishes what it was given: an OpenCL command cannot be
    // interrupted. The label is short: a permanent field of the status bar is part of the window's minimum
    // width.
    busyLabel_->setText(tr("cancelled: discarded when it ends"));
    busyLabel_->setToolTip(
        tr("The device cannot interrupt the run in flight; its result is discarded when it ends."));
    statusBar()->showMessage(
        tr("%1; the device cannot interrupt the run in flight: its result is discarded when it ends")
            .arg(idleNotice_));
}

void MainWindow::markPreviousSettings(bool previous) {
    if (previous == showsPreviousSettings_) return;
    showsPreviousSettings_ = previous;
    dockOf(histogramView_)->setWindowTitle(previous ? tr("Histogram (previous settings)") : tr("Histogram"));
    if (previous) {
        auto* greyed = new QGraphicsOpacityEffect;
        greyed->setOpacity(0.4);
        histogramView_->setGraphicsEffect(greyed);
    } else {
        histogramView_->setGraphicsEffect(nullptr);
    }
}

void MainWindow::onHistogramReady(const RunOutcome& outcome) {
    if (outcome.requestId >= requestedHistogramId_) {
        previousSettingsDelay_->stop();
        markPreviousSettings(false);
    }
    model_->show(outcome, imagePath_);
    const QString ran = QString::fromUtf8(outcome.result.strategy->name());
    const QString requested = QString::fromUtf8(outcome.request.strategy->name());
    strategyBox_->showStrategyThatRan(ran);
    strategyLabel_->setText(ran == requested ? ran : QStringLiteral("%1 → %2").arg(requested, ran));
    strategyLabel_->setToolTip(tr("Strategies that ran: %1").arg(stagesText(outcome)));
    const double kernelMs = static_cast<double>(totalNs(outcome.result.timings, Stage::Kernel)) / 1e6;
    kernelTimeLabel_->setText(tr("kernel %1").arg(millisecondsText(kernelMs)));
    devicePanel_->clearFailure(outcome.request.device);
    showProcessedImage(outcome);
    emit resultShown();
}

void MainWindow::showProcessedImage(const RunOutcome& outcome) {
    // The output's size where the image stages changed it (a fit-canvas rotation).
    const QString input =
        QStringLiteral("%1 × %2").arg(outcome.request.image->width).arg(outcome.request.image->height);
    const bool resized = outcome.frame && (outcome.frame->width != outcome.request.image->width ||
                                           outcome.frame->height != outcome.request.image->height);
    imageLabel_->setText(
        resized ? tr("%1 → %2 × %3").arg(input).arg(outcome.frame->width).arg(outcome.frame->height) : input);
    if (outcome.frame) {
        imageView_->showFrame(*outcome.frame);
        showsProcessed_ = true;
    } else if (showsProcessed_) {
        // The image stages were switched off: the original again, in the view the user had.
        imageView_->replaceImage(image_);
        showsProcessed_ = false;
    }
    if (outcome.display) {
        displayLabel_->setText(tr("display: %1").arg(outcome.display->path));
        displayLabel_->setToolTip(tr("How processed images reach the screen\ndisplay: %1 — %2")
                                      .arg(outcome.display->path, outcome.display->reason));
    }
    // Where a stage ran another strategy than the one chosen (an image beyond the device's image limits).
    QStringList notes;
    for (const auto& stage : outcome.stages) {
        if (!stage.note.isEmpty()) notes << QStringLiteral("%1: %2").arg(stageText(stage.stage), stage.note);
    }
    const QString note = notes.join(QStringLiteral("; "));
    noteLabel_->setText(noteLabel_->fontMetrics().elidedText(note, Qt::ElideMiddle, kNoteWidth));
    noteLabel_->setToolTip(notes.join(QLatin1Char('\n')));
    noteLabel_->setVisible(!notes.isEmpty());
}

void MainWindow::onRunFailed(const RunFailure& failure) {
    if (!failure.buildLog.isEmpty()) {
        reportProblem({failure.kind, tr("Kernel build failed"), failure.message, {}, failure.buildLog});
    } else if (failure.kind == ErrorKind::OpenCl && !failure.device.isEmpty()) {
        devicePanel_->markFailed(failure.device, failure.message);
        reportProblem({failure.kind,
                       tr("Device problem"),
                       failure.message,
                       tr("Choose another device in the Device panel."),
                       {}});
    } else {
        reportProblem({failure.kind, tr("Cannot run"), failure.message, {}, {}});
    }
    emit runFailed(failure.message);
}

// ---- preferences ----

void MainWindow::openPreferences() {
    auto* dialog = new PreferencesDialog(settings_.preferences(), controller_->devices(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->resetRequested())
            resetAllSettings();
        else
            applyPreferences(dialog->preferences());
    });
    dialog->open();
}

void MainWindow::applyPreferences(const Preferences& preferences) {
    settings_.setPreferences(preferences);
    const Preferences applied = settings_.preferences();
    timingView_->setMaxRuns(applied.keptRuns);
    setTypingPauseMs(applied.typingPauseMs);
    Worker::setProgramCacheAllowed(applied.programCache);
    // Run ▸ Record Runs is the same setting: its action tells the controller.
    if (history_) history_->recordAction()->setChecked(applied.recordRuns);
}

void MainWindow::resetAllSettings() {
    settings_.reset();
    applyPreferences(settings_.preferences());
    const AppSettings::HistogramDisplay firstDisplay = histogramDisplayOf(HistogramView());
    applyHistogramDisplay(*histogramView_, firstDisplay);
    timingView_->setRepeatCount(settings_.repeatCount());
    transformPanel_->applySettings(settings_.transform());
    ignoreTransparent_->setChecked(settings_.ignoreTransparent());
    bins_->setValue(settings_.bins());
    strategyBox_->setCurrentStrategy(QString::fromUtf8(kPreferredDefaultStrategy));
    rebuildRecentMenu();
    resetLayout();
    // Written now, so that the file holds no setting of before even if the window never closes normally.
    if (!settings_.save())
        qWarning("histoscope: %s: the settings could not be written", qUtf8Printable(settings_.fileName()));
    statusBar()->showMessage(tr("Every setting is back to a first start's"), 10000);
}

// ---- closing ----

void MainWindow::closeEvent(QCloseEvent* event) {
    settings_.setWindowGeometry(saveGeometry());
    settings_.setWindowState(saveState());
    if (const auto device = devicePanel_->currentDevice())
        settings_.setDevice(QString::fromStdString(device->platformName),
                            QString::fromStdString(device->name), QString::fromStdString(device->selector()));
    settings_.setStrategy(strategyBox_->wantedStrategy());
    settings_.setBins(bins_->value());
    settings_.setIgnoreTransparent(ignoreTransparent_->isChecked());
    settings_.setRepeatCount(timingView_->repeatCount());
    settings_.setHistogramDisplay(histogramDisplayOf(*histogramView_));
    settings_.setTransform(transformPanel_->settings());
    // The Timings dock's "keep last" field sets the same preference as Edit ▸ Preferences.
    Preferences preferences = settings_.preferences();
    preferences.keptRuns = timingView_->maxRuns();
    settings_.setPreferences(preferences);
    if (!settings_.save())
        qWarning("histoscope: %s: the settings could not be written", qUtf8Printable(settings_.fileName()));
    QMainWindow::closeEvent(event);
}

}  // namespace hs::ui
