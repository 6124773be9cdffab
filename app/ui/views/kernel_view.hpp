#pragma once
// The OpenCL C source of every active stage of the pipeline (rotate, convolve, histogram), one tab each, with
// the build options it was compiled with on the device: read-only, monospace, syntax-highlighted, so the
// strategies can be read side by side with their timings.

#include <QString>
#include <QVector>
#include <QWidget>

#include "ui/model/run.hpp"

class QLabel;
class QPlainTextEdit;
class QTabBar;

namespace hs::ui {

class OpenClHighlighter;
class RunModel;

class KernelView : public QWidget {
    Q_OBJECT

  public:
    // One stage's kernel as it ran. An empty sourceName means the stage's strategy runs on the host.
    struct Kernel {
        QString stage;  // "rotate", "convolve", "histogram"
        QString strategy;
        QString description;  // the strategy's one-line description
        QString sourceName;   // kernels/<sourceName>.cl
        QString source;
        QString buildOptions;
        QString device;

        bool operator==(const Kernel&) const = default;
    };

    explicit KernelView(QWidget* parent = nullptr);

    // One tab per kernel, in pipeline order. The stage shown stays shown while it is among them, else the
    // first is. Setting the kernels already shown changes nothing (results arrive many times a second while a
    // slider is dragged).
    void setKernels(const QVector<Kernel>& kernels);
    // The kernels of every stage that ran in `outcome` (a fallback or auto's choice included), with the
    // programs they built; a host strategy built none.
    static QVector<Kernel> kernelsOf(const RunOutcome& outcome);
    // Shows the kernels of `model`'s run from now on, whenever it changes.
    void follow(const RunModel& model);
    const QVector<Kernel>& kernels() const { return kernels_; }
    // Shows the kernel of `stage`; false when no kernel of that stage is set.
    bool showStage(const QString& stage);
    // The stage shown; empty while no kernel is set.
    QString currentStage() const;
    // The source and build options shown; empty for a host strategy.
    QString source() const;
    QString buildOptions() const;

    QTabBar* stageTabs() const { return tabs_; }
    QPlainTextEdit* editor() const { return editor_; }
    OpenClHighlighter* highlighter() const { return highlighter_; }

  private:
    void showKernel(int index);

    QVector<Kernel> kernels_;
    QTabBar* tabs_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* options_ = nullptr;
    QPlainTextEdit* editor_ = nullptr;
    OpenClHighlighter* highlighter_ = nullptr;
};

}  // namespace hs::ui
