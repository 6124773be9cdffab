#pragma once

#include <QString>
#include <QWidget>

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
    // Selects `name` if it is listed and enabled; emits strategyChanged when the selection changes.
    bool setCurrentStrategy(const QString& name);
    // Re-evaluates support for `device` (null: no OpenCL device) and `bins`. When the current strategy
    // becomes unsupported the first supported one is selected.
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
};

}  // namespace hs::ui
