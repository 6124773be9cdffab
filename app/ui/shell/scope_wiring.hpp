#pragma once
// How the main window runs the Scopes dock and the region of interest (issue 25), kept out of MainWindow:
// the scopes and the region go into every run request, and a change of either runs again.

#include <vector>

#include "engine/ops/scope/scope.hpp"
#include "ui/model/run.hpp"

class QDockWidget;

namespace hs::ui {

class MainWindow;
class RegionSelector;
class RunModel;
class ScopeView;

// `view` follows `model`; a change of the scopes asked for, of the region, or the dock coming into view runs
// `window` again; the dock's Clear region clears `regions`; exports are announced in the status bar.
void attachScopes(MainWindow& window, ScopeView& view, QDockWidget& dock, const RunModel& model,
                  RegionSelector& regions);
// Shows `dock` with exactly `kinds` ticked in `view` (the scripted mode's --scopes).
void showScopeDock(ScopeView& view, QDockWidget& dock, const std::vector<scope::Kind>& kinds);
// The region drawn, and the scopes while their dock is visible (a hidden dock costs no scope stage).
void addRegionAndScopes(RunRequest& request, const ScopeView& view, const QDockWidget& dock,
                        const RegionSelector& regions);

}  // namespace hs::ui
