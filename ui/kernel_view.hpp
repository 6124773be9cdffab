#pragma once
// The OpenCL C source of the active strategy with the build options it was compiled with: read-only,
// monospace, syntax-highlighted, so the strategies can be read side by side with their timings.

#include <QWidget>

class OpenClHighlighter;
class QLabel;
class QPlainTextEdit;

class KernelView : public QWidget {
    Q_OBJECT

  public:
    explicit KernelView(QWidget* parent = nullptr);

    // An empty source means the strategy runs on the host without a kernel.
    void setKernel(const QString& title, const QString& source, const QString& buildOptions);
    QString source() const;
    QString buildOptions() const;
    QPlainTextEdit* editor() const { return editor_; }
    OpenClHighlighter* highlighter() const { return highlighter_; }

  private:
    QLabel* title_ = nullptr;
    QLabel* options_ = nullptr;
    QPlainTextEdit* editor_ = nullptr;
    OpenClHighlighter* highlighter_ = nullptr;
    QString source_;
    QString buildOptions_;
};
