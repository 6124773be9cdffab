// RunModel: the shown run's histogram and context from an outcome, and the kept runs (numbered from 1,
// trimmed to the newest, cleared) that the timing and timeline views follow and the exports read.

#include <QSignalSpy>
#include <QtTest/QtTest>

#include "ui/model/run_model.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

std::vector<Timing> oneKernel(std::uint64_t durationNs) {
    return {Timing{Stage::Kernel, "histogram", 100, 200, 300, 300 + durationNs}};
}

std::vector<int> numbersOf(const RunModel& model) {
    std::vector<int> numbers;
    for (const auto& run : model.keptRuns()) numbers.push_back(run.number);
    return numbers;
}

}  // namespace

class RunModelTest : public QObject {
    Q_OBJECT

  private slots:
    void keepsTheNewestRunsNumberedFromOne() {
        RunModel model;
        QSignalSpy changed(&model, &RunModel::keptRunsChanged);
        model.setMaxKeptRuns(3);
        for (std::uint64_t i = 1; i <= 5; ++i)
            model.keep(test::oneDeviceRun(oneKernel(i), QStringLiteral("s")));
        QCOMPARE(changed.count(), 5);
        QCOMPARE(numbersOf(model), (std::vector<int>{3, 4, 5}));
        QCOMPARE(model.keptRuns().back().devices.front().timings.front().durationNs(), std::uint64_t{5});

        model.setMaxKeptRuns(2);
        QCOMPARE(numbersOf(model), (std::vector<int>{4, 5}));
        model.clearKeptRuns();
        QVERIFY(model.keptRuns().empty());
        // The numbers keep counting, as the timing view's x axis does.
        QCOMPARE(model.keep(test::oneDeviceRun(oneKernel(1), QStringLiteral("s"))), 6);
    }

    void showPutsAnOutcomesHistogramContextAndTimingsIn() {
        const auto image = std::make_shared<const ImageRGBA8>(test::randomImage(9, 7, 21));
        const histogram::Strategy& serial = histogram::findStrategy("serial");
        RunOutcome outcome;
        outcome.requestId = 1;
        outcome.request.image = image;
        outcome.request.strategy = &serial;
        outcome.request.bins = 16;
        outcome.request.device = QStringLiteral("0:1");
        DeviceInfo device;
        device.name = "pthread-test";
        device.platformIndex = 0;
        device.deviceIndex = 1;
        outcome.device = device;
        outcome.result.values = test::referenceOf(*image, 256);
        outcome.result.histogram = test::referenceOf(*image, 16);
        outcome.result.strategy = &serial;
        outcome.result.timings = oneKernel(4000);
        outcome.stages = {{"histogram", &serial, {}, {KernelBuild{"histogram", "-D BINS=256"}}, {}}};

        RunModel model;
        QSignalSpy histogramChanged(&model, &RunModel::histogramChanged);
        QVERIFY(!model.hasHistogram());
        model.show(outcome, QStringLiteral("/photos/card.png"));
        QCOMPARE(histogramChanged.count(), 1);
        QVERIFY(model.hasHistogram());
        // Grouped into the requested bins from the 256 values, as the reference counts them.
        QCOMPARE(model.histogram(), test::referenceOf(*image, 16));
        QCOMPARE(model.values(), test::referenceOf(*image, 256));
        QCOMPARE(model.histogramContext().imagePath, QStringLiteral("/photos/card.png"));
        QCOMPARE(model.histogramContext().imageWidth, 9);
        QCOMPARE(model.histogramContext().strategy, QStringLiteral("serial"));
        QCOMPARE(model.deviceName(), QStringLiteral("pthread-test"));
        QVERIFY(model.outcome());
        QCOMPARE(model.outcome()->requestId, quint64{1});

        QCOMPARE(model.keptRuns().size(), std::size_t{1});
        const io::RunTimings& kept = model.keptRuns().front();
        QCOMPARE(kept.number, 1);
        QCOMPARE(kept.strategy, QStringLiteral("histogram serial"));
        QCOMPARE(kept.devices.size(), std::size_t{1});
        QCOMPARE(kept.devices.front().device, QStringLiteral("pthread-test (0:1)"));
        QCOMPARE(kept.devices.front().timings.size(), std::size_t{1});
        QCOMPARE(kept.buildOptions.at(QStringLiteral("histogram")), QStringLiteral("-D BINS=256"));
    }
};

QTEST_MAIN(RunModelTest)
#include "model_run_test.moc"
