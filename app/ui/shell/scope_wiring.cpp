#include "ui/shell/scope_wiring.hpp"

#include <QDockWidget>
#include <QStatusBar>

#include "ui/display/region_selector.hpp"
#include "ui/model/run_model.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/views/scope_view.hpp"

namespace hs::ui {

void attachScopes(MainWindow& window, ScopeView& view, QDockWidget& dock, const RunModel& model,
                  RegionSelector& regions) {
    view.follow(model);
    QObject::connect(&view, &ScopeView::requestChanged, &window, &MainWindow::runHistogram);
    QObject::connect(&dock, &QDockWidget::visibilityChanged, &window, [&window](bool visible) {
        if (visible) window.runHistogram();
    });
    QObject::connect(&regions, &RegionSelector::regionChanged, &window, &MainWindow::runHistogram);
    QObject::connect(&view, &ScopeView::clearRegionRequested, &regions, &RegionSelector::clear);
    QObject::connect(&view, &ScopeView::exported, &window,
                     [&window](const QString& message) { window.statusBar()->showMessage(message, 10000); });
}

void addRegionAndScopes(RunRequest& request, const ScopeView& view, const QDockWidget& dock,
                        const RegionSelector& regions) {
    request.roi = regions.region();
    if (dock.isVisible()) request.scopes = view.requestedScopes();
}

}  // namespace hs::ui
