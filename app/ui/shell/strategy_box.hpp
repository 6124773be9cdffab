#pragma once

#include <QString>
#include <QWidget>

#include "ops/histogram/histogram.hpp"
#include "runtime/device_info.hpp"

class QComboBox;
class QLabel;

namespace hs::ui {

// The strategy dropdown: every strategy of the engine's registry, those the device cannot run disabled with
// the reason as tooltip, and beside it the strategy that actually ran when that was another (auto's choice).
class StrategyBox : public QWidget {
    Q_OBJECT

  public:
    explicit StrategyBox(QWidget* parent = nullptr);

    QString currentStrategy() const;
    // The registered strategy selected; null when the device supports none.
    const histogram::Strategy* selected() const;
    // The user's choice, which may differ from the current strategy while the device cannot run it.
    QString wantedStrategy() const { return wanted_; }
    // Makes `name` the wanted strategy and selects it if it is enabled (emitting strategyChanged when the
    // selection changes); false when it is unknown or not available on the current device.
    bool setCurrentStrategy(const QString& name);
    // Re-evaluates support for `device` (null: no OpenCL device) and `bins`. The wanted strategy is selected
    // when supported, else the first supported one until the wanted one is supported again.
    void updateSupport(const DeviceInfo* device, int bins);
    bool isSupported(const QString& name) const;
    QString unsupportedReason(const QString& name) const;
    // Shows which strategy ran for the current selection; hidden when it is the selection itself.
    void showStrategyThatRan(const QString& name);
    QString choiceText() const;

    QComboBox* comboBox() const { return combo_; }

  signals:
    void strategyChanged(const QString& name);

  private:
    QComboBox* combo_ = nullptr;
    QLabel* choice_ = nullptr;
    QString wanted_;  // the user's last choice, which a fallback does not replace
    bool fallingBack_ = false;
};

}  // namespace hs::ui
