#include "ui/views/history_view.hpp"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "engine/measure/measure.hpp"
#include "engine/runtime/error.hpp"
#include "ui/views/view_helpers.hpp"

namespace hs::ui {

namespace {

constexpr std::size_t kMaxRows = 500;

enum Column { Id, Time, Image, Device, Strategies, Repetitions, KernelMedian };

// The median over the repetitions of each one's kernel time (every kernel record summed), in ms; the
// figure the diff's "total" compares.
double kernelMedianMs(const archive::Record& run) {
    std::map<int, double> perRepetition;
    for (const auto& timing : run.timings)
        if (timing.kind == "kernel")
            perRepetition[timing.repetition] += static_cast<double>(timing.durationNs);
    if (perRepetition.empty()) return 0;
    std::vector<double> values;
    for (const auto& [repetition, ns] : perRepetition) values.push_back(ns);
    return measure::Summary::of(std::move(values)).median / 1e6;
}

QString idsText(const std::vector<std::int64_t>& ids) {
    QStringList parts;
    for (auto id : ids) parts << QString::number(id);
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(", "));
}

}  // namespace

HistoryView::HistoryView(QWidget* parent) : QWidget(parent) {
    const auto field = [this](const char* name, const QString& placeholder) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(QLatin1String(name));
        edit->setPlaceholderText(placeholder);
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::editingFinished, this, &HistoryView::refreshRequested);
        return edit;
    };
    image_ = field("historyImage", tr("part of the path, or its hash"));
    device_ = field("historyDevice", tr("part of the name"));
    strategy_ = field("historyStrategy", tr("a strategy's name"));
    since_ = field("historySince", tr("2026-11-27"));
    until_ = field("historyUntil", tr("2026-11-28"));
    // One row of filters, as `histoscope-cli runs list` takes them: the table keeps the height.
    auto* filters = new QHBoxLayout;
    for (const auto& [label, edit] : {std::pair{tr("Image"), image_}, std::pair{tr("Device"), device_},
                                      std::pair{tr("Strategy"), strategy_}, std::pair{tr("Since"), since_},
                                      std::pair{tr("until"), until_}}) {
        filters->addWidget(new QLabel(label, this));
        filters->addWidget(edit, 1);
    }

    table_ = readOnlyTable({tr("Run"), tr("Time (UTC)"), tr("Image"), tr("Device"), tr("Strategies"),
                            tr("Reps"), tr("Kernel median")},
                           this);
    table_->setObjectName(QStringLiteral("historyTable"));
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);

    const auto button = [this](const char* name, const QString& text, auto slot) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(QLatin1String(name));
        connect(b, &QPushButton::clicked, this, slot);
        return b;
    };
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(button("historySetA", tr("Set as A"), &HistoryView::setSideA));
    buttons->addWidget(button("historySetB", tr("Set as B"), &HistoryView::setSideB));
    buttons->addWidget(button("historyDiff", tr("Diff"), &HistoryView::requestDiff));
    buttons->addStretch();
    buttons->addWidget(button("historyRefresh", tr("Refresh"), &HistoryView::refreshRequested));
    sides_ = new QLabel(this);
    sides_->setObjectName(QStringLiteral("historySides"));
    sides_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    layout->addWidget(sides_);
    showSides();
}

archive::Filter HistoryView::filter() const {
    return {image_->text().trimmed().toStdString(), device_->text().trimmed().toStdString(),
            strategy_->text().trimmed().toStdString(), since_->text().trimmed().toStdString(),
            until_->text().trimmed().toStdString()};
}

void HistoryView::refresh(const archive::Settings& settings) {
    const std::vector<std::int64_t> selected = selectedIds();
    table_->setRowCount(0);
    try {
        const archive::Archive archive(settings);
        std::vector<archive::Listed> runs = archive.list(filter());
        // Newest first: what a user just ran is on top.
        std::reverse(runs.begin(), runs.end());
        // Each row's kernel median reads the run's timings: the newest kMaxRows keep a refresh quick on the
        // GUI thread however large the archive; the filters reach the older ones.
        const std::size_t total = runs.size();
        if (runs.size() > kMaxRows) runs.resize(kMaxRows);
        shownNote_ = total > kMaxRows ? tr("Showing the newest %1 of %2 runs; the filters reach the others.")
                                            .arg(kMaxRows)
                                            .arg(total)
                                      : QString();
        table_->setRowCount(static_cast<int>(runs.size()));
        for (int row = 0; row < static_cast<int>(runs.size()); ++row) {
            const archive::Listed& run = runs[static_cast<std::size_t>(row)];
            const QString path = QString::fromStdString(run.image.path);
            const auto cell = [&](Column column, const QString& text,
                                  Qt::Alignment alignment = Qt::AlignLeft) {
                table_->setItem(row, column, tableCell(text, alignment | Qt::AlignVCenter));
            };
            cell(Id, QString::number(run.id), Qt::AlignRight);
            table_->item(row, Id)->setData(Qt::UserRole, QVariant::fromValue<qint64>(run.id));
            cell(Time, QString::fromStdString(run.recordedAt));
            cell(Image, path.isEmpty() ? tr("(no file) %1").arg(QString::fromStdString(run.image.hash))
                                       : QFileInfo(path).fileName());
            table_->item(row, Image)
                ->setToolTip(tr("%1\n%2 × %3, hash %4")
                                 .arg(path)
                                 .arg(run.image.width)
                                 .arg(run.image.height)
                                 .arg(QString::fromStdString(run.image.hash)));
            cell(Device, QString::fromStdString(run.device));
            cell(Strategies, QString::fromStdString(run.strategies));
            cell(Repetitions, QString::number(run.repetitions), Qt::AlignRight);
            cell(KernelMedian, millisecondsText(kernelMedianMs(archive.load(run.id))), Qt::AlignRight);
        }
        table_->resizeColumnsToContents();
    } catch (const Error& e) {
        sides_->setText(QString::fromUtf8(e.what()));
        emit problemReported(QString::fromUtf8(e.what()));
        return;
    }
    selectIds(selected);
    showSides();
}

std::vector<std::int64_t> HistoryView::listedIds() const {
    std::vector<std::int64_t> ids;
    for (int row = 0; row < table_->rowCount(); ++row)
        ids.push_back(table_->item(row, Id)->data(Qt::UserRole).toLongLong());
    return ids;
}

std::vector<std::int64_t> HistoryView::selectedIds() const {
    std::set<std::int64_t> ids;
    for (const auto& index : table_->selectionModel()->selectedRows())
        ids.insert(table_->item(index.row(), Id)->data(Qt::UserRole).toLongLong());
    return {ids.begin(), ids.end()};
}

void HistoryView::selectIds(const std::vector<std::int64_t>& ids) {
    table_->clearSelection();
    const std::set<std::int64_t> wanted(ids.begin(), ids.end());
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (!wanted.contains(table_->item(row, Id)->data(Qt::UserRole).toLongLong())) continue;
        table_->selectionModel()->select(table_->model()->index(row, 0),
                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

void HistoryView::setSideA() {
    sideA_ = selectedIds();
    showSides();
}

void HistoryView::setSideB() {
    sideB_ = selectedIds();
    showSides();
}

void HistoryView::showSides() {
    sides_->setText(tr("A: %1   B: %2   (select two runs and Diff, or set groups as A and B)")
                        .arg(idsText(sideA_), idsText(sideB_)) +
                    (shownNote_.isEmpty() ? QString() : QStringLiteral("   ") + shownNote_));
}

bool HistoryView::requestDiff() {
    const std::vector<std::int64_t> selected = selectedIds();
    if (selected.size() == 2) {
        emit diffRequested({selected[0]}, {selected[1]});
        return true;
    }
    if (!sideA_.empty() && !sideB_.empty()) {
        emit diffRequested(sideA_, sideB_);
        return true;
    }
    sides_->setText(tr("Select exactly two runs, or set the runs of A and of B first."));
    return false;
}

}  // namespace hs::ui
