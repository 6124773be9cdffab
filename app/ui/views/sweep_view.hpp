#pragma once
// The Kernel tab's Sweep page (docs/kernel-lab.md): pick a strategy of the histogram, rotation or
// convolution and two of its tunables with their values, run the grid on a worker thread (progress,
// Cancel; the window stays responsive), and see a heat map of the median kernel time, switchable to GB/s and
// to × read (the device's streaming read of the same bytes over the point's time). Hovering a cell shows its
// figures, clicking one adopts it: its built values are stored as the device's best, which the strategy
// (named or chosen by `auto`) runs with from then on. The grid exports as CSV and JSON through the writers
// histoscope-cli sweep uses (lab::csv, lab::writeJson); the sweep itself is session::runSweep, the CLI's.

#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

#include "engine/image/image.hpp"
#include "engine/lab/sweep.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/stages/stage.hpp"

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QLabel;
class QLineEdit;
class QMouseEvent;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace hs::ui {

class SweepWorker;

class SweepView : public QWidget {
    Q_OBJECT

  public:
    enum class Figure { MedianMs, Gbps, TimesRead };

    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;

    // What the grid runs on: the shown image and the window's device. A rotation sweeps at 30 degrees,
    // nearest, a convolution with a 3x3 box: results the CPU reference equals bit for bit.
    void setImageSource(std::function<std::shared_ptr<const ImageRGBA8>()> image);
    void setDeviceSource(std::function<QString()> selector);

    // "STRATEGY:T1=v,v:T2=v,v" (STRATEGY as KIND/NAME, or a NAME, the first kind having it: histogram,
    // rotate, convolve) into the page's controls; false with the reason in status() when it does not fit.
    bool configure(const QString& spec);
    // Runs the grid the controls describe; false with the reason in status() when they do not make one.
    bool run();
    void cancel();
    bool running() const { return running_; }

    // Stores the built values of the cell at (column, row) (its index in the first and second tunable's
    // values) as the device's best; false when there is no measured cell there.
    bool adoptCell(int column, int row);
    void setFigure(Figure figure);
    // The shown figure of a cell, as the heat map holds it (NaN: no figure).
    double cellFigure(int column, int row) const;
    // The grid as histoscope-cli sweep writes it; throws InputError naming the file when it cannot.
    void exportCsv(const QString& path) const;
    void exportJson(const QString& path) const;

    const std::optional<lab::Sweep>& sweep() const { return sweep_; }
    QString status() const;
    QCustomPlot* plot() const { return plot_; }

  signals:
    void sweepFinished();
    void sweepFailed(const QString& message);
    void adopted();

  private:
    void strategyChosen();
    void showSweep();
    void showCell(QMouseEvent* event);
    void clickCell(QMouseEvent* event);
    std::optional<std::pair<int, int>> cellAt(QMouseEvent* event) const;
    std::optional<std::size_t> pointAt(int column, int row) const;
    double figureOf(const lab::PointResult& point) const;
    QString cellText(std::size_t point) const;
    void setStatus(const QString& text);

    SweepWorker* worker_ = nullptr;
    std::function<std::shared_ptr<const ImageRGBA8>()> imageSource_;
    std::function<QString()> deviceSource_;

    QComboBox* strategy_ = nullptr;
    QComboBox* tunable_[2] = {nullptr, nullptr};
    QLineEdit* values_[2] = {nullptr, nullptr};
    QSpinBox* repeat_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    QPushButton* exportJson_ = nullptr;
    QComboBox* figure_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;

    bool running_ = false;
    QString runDevice_;
    std::optional<lab::Sweep> sweep_;
    std::optional<DeviceInfo> device_;
};

}  // namespace hs::ui
