#include "ui/shell/scope_wiring.hpp"

#include <QDockWidget>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

#include "ui/display/region_selector.hpp"
#include "ui/model/run_model.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/views/scope_view.hpp"

namespace hs::ui {

namespace {

// The most of its dock area's height the dock takes for itself: the histogram beside it stays readable.
constexpr double kMostOfTheArea = 0.55;

// The dock shares its area with the histogram: shown, or given another scope, it grows to the height its
// panes ask for (up to kMostOfTheArea of the docks stacked there) instead of keeping the sliver the area
// left it. It never shrinks here: a height the user dragged stays.
void makeRoom(MainWindow& window, QDockWidget& dock, const ScopeView& view) {
    if (!dock.isVisible() || dock.isFloating()) return;
    int area = 0;
    for (QDockWidget* other : window.findChildren<QDockWidget*>())
        if (other->isVisible() && !other->isFloating() &&
            window.dockWidgetArea(other) == window.dockWidgetArea(&dock))
            area += other->height();
    const int chrome = dock.height() - dock.widget()->height();  // the title bar
    const int wanted = std::min(view.sizeHint().height() + chrome, static_cast<int>(area * kMostOfTheArea));
    if (dock.height() < wanted) window.resizeDocks({&dock}, {wanted}, Qt::Vertical);
}

}  // namespace

void attachScopes(MainWindow& window, ScopeView& view, QDockWidget& dock, const RunModel& model,
                  RegionSelector& regions) {
    view.follow(model);
    QObject::connect(&view, &ScopeView::requestChanged, &window, &MainWindow::runHistogram);
    QObject::connect(&view, &ScopeView::requestChanged, &window,
                     [&window, &dock, &view] { makeRoom(window, dock, view); });
    QObject::connect(&dock, &QDockWidget::visibilityChanged, &window, [&window, &dock, &view](bool visible) {
        if (!visible) return;
        window.runHistogram();
        // Once the dock has its place in the area's layout.
        QTimer::singleShot(0, &dock, [&window, &dock, &view] { makeRoom(window, dock, view); });
    });
    QObject::connect(&regions, &RegionSelector::regionChanged, &window, &MainWindow::runHistogram);
    QObject::connect(&view, &ScopeView::clearRegionRequested, &regions, &RegionSelector::clear);
    QObject::connect(&view, &ScopeView::exported, &window,
                     [&window](const QString& message) { window.statusBar()->showMessage(message, 10000); });
}

void showScopeDock(ScopeView& view, QDockWidget& dock, const std::vector<scope::Kind>& kinds) {
    for (const scope::Kind kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope})
        view.setScopeShown(kind, std::find(kinds.begin(), kinds.end(), kind) != kinds.end());
    dock.show();
    dock.raise();
}

void addRegionAndScopes(RunRequest& request, const ScopeView& view, const QDockWidget& dock,
                        const RegionSelector& regions) {
    request.roi = regions.region();
    if (dock.isVisible()) request.scopes = view.requestedScopes();
}

}  // namespace hs::ui
