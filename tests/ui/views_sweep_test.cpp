// The Kernel tab's Sweep page (SweepView): a local-atomic WG x COPIES grid runs on its worker, the heat map's
// cells hold the sweep's own figures in each of its three figures, a clicked cell is stored as the device's
// best and the strategy's next run (a new process's, reading the file) builds with it, the exported CSV and
// JSON read back to the sweep's figures, and Cancel stops a grid before its end.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest/QtTest>
#include <cmath>

#include "engine/ops/tuning.hpp"
#include "session/session.hpp"
#include "ui/views/sweep_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kSweepTimeoutMs = 120000;

}  // namespace

class SweepViewTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    std::shared_ptr<const ImageRGBA8> image_ =
        std::make_shared<const ImageRGBA8>(test::opaqueRandomImage(96, 64, 7));

    void attach(SweepView& view) {
        view.setImageSource([this] { return image_; });
        view.setDeviceSource([] { return QStringLiteral("0:0"); });
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Before any session: the stored best goes into this test's own cache folder.
        qputenv("HISTOSCOPE_CACHE_DIR", dir_.filePath(QStringLiteral("cache")).toUtf8());
    }

    void theHeatMapHoldsTheSweepsFiguresAndAClickedCellIsWhatTheStrategyThenBuilds() {
        SweepView view;
        attach(view);
        QVERIFY(test::showExposed(view, {1100, 420}));
        QVERIFY2(view.configure(QStringLiteral("local-atomic:WG=8,16:COPIES=1,2")),
                 qPrintable(view.status()));
        QSignalSpy finished(&view, &SweepView::sweepFinished);
        QVERIFY2(view.run(), qPrintable(view.status()));
        QVERIFY(view.running());
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto& sweep = *view.sweep();
        QVERIFY(sweep.strategy == "local-atomic");
        QCOMPARE(sweep.points.size(), std::size_t(4));

        // Column c is WG's c-th value, row r COPIES' r-th; the grid's first tunable varies slowest.
        for (const auto figure :
             {SweepView::Figure::MedianMs, SweepView::Figure::Gbps, SweepView::Figure::TimesRead}) {
            view.setFigure(figure);
            for (int c = 0; c < 2; ++c) {
                for (int r = 0; r < 2; ++r) {
                    const auto& point = sweep.points[static_cast<std::size_t>(c * 2 + r)];
                    QCOMPARE(point.asked,
                             (lab::Point{{"WG", c == 0 ? "8" : "16"}, {"COPIES", r == 0 ? "1" : "2"}}));
                    QVERIFY(point.ns);
                    QVERIFY(point.maxDifference == std::optional<std::uint64_t>(0));
                    const double expected = figure == SweepView::Figure::MedianMs ? point.ns->median / 1e6
                                            : figure == SweepView::Figure::Gbps   ? point.gbps
                                                                                  : *sweep.timesRead(point);
                    QCOMPARE(view.cellFigure(c, r), expected);
                }
            }
        }
        QVERIFY(std::isnan(view.cellFigure(2, 0)));
        QVERIFY(view.plot()->grab().save(test::artifactPath(QStringLiteral("views_sweep_heat_map.png"))));

        // The click: WG=16, COPIES=1, stored for the device.
        QSignalSpy adopted(&view, &SweepView::adopted);
        QVERIFY(view.adoptCell(1, 0));
        QVERIFY(adopted.wait(kSweepTimeoutMs));
        // A new process: nothing in memory, the file read again.
        tuning::forgetStored();
        session::Session session;
        const auto stage = stages::findKind("histogram").configure({}, "local-atomic", {});
        const auto report = session.run({image_, "0:0", {stage}, std::nullopt, false, nullptr});
        std::vector<KernelBuild> builds;
        for (const auto& ran : report.result.stages)
            builds.insert(builds.end(), ran.builds.begin(), ran.builds.end());
        QCOMPARE(builds.size(), std::size_t(1));
        QVERIFY2(builds[0].options.find("-D WG=16 -D COPIES=1 ") != std::string::npos,
                 builds[0].options.c_str());
        QVERIFY(*report.result.values ==
                histogram::referenceHistogram(image_->pixels.data(), image_->pixelCount(), 256));

        // The exports read back to the sweep's figures.
        const QString json = dir_.filePath(QStringLiteral("grid.json"));
        const QString csv = dir_.filePath(QStringLiteral("grid.csv"));
        view.exportJson(json);
        view.exportCsv(csv);
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject document = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(document["strategy"].toString(), QStringLiteral("local-atomic"));
        QVERIFY(!document["device"].toObject()["name"].toString().isEmpty());
        const QJsonArray points = document["points"].toArray();
        QCOMPARE(points.size(), 4);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        const int medianColumn = lines[0].split(',').indexOf(QStringLiteral("median_ns"));
        QVERIFY(medianColumn >= 0);
        for (int p = 0; p < 4; ++p) {
            const auto& point = sweep.points[static_cast<std::size_t>(p)];
            QCOMPARE(points[p].toObject()["median_ns"].toDouble(), point.ns->median);
            QCOMPARE(points[p].toObject()["built"].toObject()["WG"].toInt(),
                     std::stoi(point.built[0].second));
            QCOMPARE(lines[p + 1].split(',')[medianColumn].toDouble(), point.ns->median);
        }
        const QJsonObject best = document["best"].toObject();
        QCOMPARE(best["WG"].toInt(), std::stoi(sweep.points[*sweep.best()].built[0].second));
    }

    void cancelStopsTheGridBeforeItsEnd() {
        SweepView view;
        attach(view);
        QVERIFY(view.configure(QStringLiteral("local-atomic:WG=4,8,16,32,64,128:COPIES=1,2,4,8")));
        QSignalSpy finished(&view, &SweepView::sweepFinished);
        QVERIFY(view.run());
        QTRY_VERIFY_WITH_TIMEOUT(view.status().contains(QStringLiteral("Running")), 1000);
        view.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!view.running(), kSweepTimeoutMs);
        QCOMPARE(view.status(), QStringLiteral("Cancelled."));
        QCOMPARE(finished.count(), 0);
        QVERIFY(!view.sweep());
    }

    void aSpecThatDoesNotFitSaysWhy() {
        SweepView view;
        QVERIFY(!view.configure(QStringLiteral("local-atomic:WG=8")));
        QVERIFY(view.status().contains(QStringLiteral("STRATEGY:NAME=V,V:NAME=V,V")));
        QVERIFY(!view.configure(QStringLiteral("serial:WG=8:COPIES=1")));
        QVERIFY(view.status().contains(QStringLiteral("no strategy serial")));
        QVERIFY(!view.configure(QStringLiteral("local-atomic:WG=8:BINS=1")));
        QVERIFY(view.status().contains(QStringLiteral("has no tunable BINS")));
        QVERIFY(view.configure(QStringLiteral("rotate/buffer:LOCAL_X=4,8:PIXELS_X=1,4")));
        // No image: the grid does not start, and says why.
        QVERIFY(!view.run());
        QVERIFY(view.status().contains(QStringLiteral("Open an image")));
    }
};

QTEST_MAIN(SweepViewTest)
#include "views_sweep_test.moc"
