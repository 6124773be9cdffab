#pragma once
// The History dock: the runs of the run archive (archive/archive.hpp), newest first (at most 500), with their
// time, image, device, strategies, repetitions and the median of their total kernel time; filters by image,
// device, strategy and date, as `histoscope-cli runs list` has them; and the two sides of a diff: two
// selected runs, or two groups of runs (select some, "Set as A", select others, "Set as B", "Diff").

#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "archive/archive.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace hs::ui {

class HistoryView : public QWidget {
    Q_OBJECT

  public:
    explicit HistoryView(QWidget* parent = nullptr);

    // Lists the runs of `archive` that the filters keep. A problem (the archive cannot be opened) is shown in
    // the view and said by problemReported().
    void refresh(const archive::Settings& archive);
    // The numbers of the runs listed, in the table's order, and of the rows selected.
    std::vector<std::int64_t> listedIds() const;
    std::vector<std::int64_t> selectedIds() const;
    void selectIds(const std::vector<std::int64_t>& ids);
    // The sides as "Set as A" and "Set as B" keep them.
    const std::vector<std::int64_t>& sideA() const { return sideA_; }
    const std::vector<std::int64_t>& sideB() const { return sideB_; }
    void setSideA();
    void setSideB();
    // Asks for the diff: two selected runs (the older as A), or the sides set, when both are; false (and
    // the view says why) otherwise.
    bool requestDiff();

  signals:
    void diffRequested(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);
    void refreshRequested();
    void problemReported(const QString& message);

  private:
    archive::Filter filter() const;
    void showSides();

    QLineEdit* image_;
    QLineEdit* device_;
    QLineEdit* strategy_;
    QLineEdit* since_;
    QLineEdit* until_;
    QTableWidget* table_;
    QLabel* sides_;
    QString shownNote_;  // that only the newest runs are listed
    std::vector<std::int64_t> sideA_;
    std::vector<std::int64_t> sideB_;
};

}  // namespace hs::ui
