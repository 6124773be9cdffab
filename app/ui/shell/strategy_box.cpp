#include "ui/shell/strategy_box.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

#include "ops/histogram/histogram.hpp"

namespace hs::ui {

namespace {
constexpr int kReasonRole = Qt::UserRole + 1;
}

StrategyBox::StrategyBox(QWidget* parent) : QWidget(parent) {
    combo_ = new QComboBox(this);
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const auto* strategy : histogram::strategies()) {
        combo_->addItem(QString::fromUtf8(strategy->name()));
        combo_->setItemData(combo_->count() - 1, QString::fromUtf8(strategy->description()), Qt::ToolTipRole);
    }
    choice_ = new QLabel(this);
    choice_->setToolTip(tr("The strategy that ran"));
    choice_->hide();

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(combo_);
    layout->addWidget(choice_);

    wanted_ = combo_->currentText();
    connect(combo_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!fallingBack_) wanted_ = name;
        choice_->hide();
        emit strategyChanged(name);
    });
}

QString StrategyBox::currentStrategy() const {
    return combo_->currentText();
}

const histogram::Strategy* StrategyBox::selected() const {
    // The entries are the registry's list, in its order.
    const int index = combo_->currentIndex();
    return index < 0 ? nullptr : histogram::strategies().at(static_cast<std::size_t>(index));
}

bool StrategyBox::setCurrentStrategy(const QString& name) {
    const int index = combo_->findText(name);
    if (index < 0) return false;
    wanted_ = name;
    if (!isSupported(name)) return false;
    combo_->setCurrentIndex(index);
    return true;
}

void StrategyBox::updateSupport(const DeviceInfo* device, int bins) {
    auto* model = qobject_cast<QStandardItemModel*>(combo_->model());
    const histogram::Params params{bins};
    for (int i = 0; i < combo_->count(); ++i) {
        const auto& strategy = *histogram::strategies().at(static_cast<std::size_t>(i));
        const auto support = supportOn(device, {}, params, strategy);
        const QString reason = QString::fromStdString(support.reason);
        model->item(i)->setEnabled(support.ok);
        combo_->setItemData(i, support.ok ? QVariant() : QVariant(reason), kReasonRole);
        combo_->setItemData(
            i,
            support.ok ? QString::fromUtf8(strategy.description()) : tr("Not available here: %1").arg(reason),
            Qt::ToolTipRole);
    }
    // The user's choice comes back as soon as the device supports it again.
    int target = combo_->findText(wanted_);
    if (!isSupported(wanted_)) {
        target = -1;
        for (int i = combo_->count() - 1; i >= 0; --i) {
            if (isSupported(combo_->itemText(i))) target = i;
        }
    }
    fallingBack_ = true;
    combo_->setCurrentIndex(target);
    fallingBack_ = false;
}

bool StrategyBox::isSupported(const QString& name) const {
    return unsupportedReason(name).isEmpty();
}

QString StrategyBox::unsupportedReason(const QString& name) const {
    const int index = combo_->findText(name);
    return index < 0 ? tr("unknown strategy") : combo_->itemData(index, kReasonRole).toString();
}

void StrategyBox::showStrategyThatRan(const QString& name) {
    choice_->setText(QStringLiteral("→ %1").arg(name));
    choice_->setVisible(name != currentStrategy());
}

QString StrategyBox::choiceText() const {
    return choice_->isVisible() ? choice_->text() : QString();
}

}  // namespace hs::ui
