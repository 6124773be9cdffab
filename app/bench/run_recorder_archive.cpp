// --record on the run archive (bench/run_recorder.hpp).
#include "archive/archive.hpp"
#include "bench/run_recorder.hpp"
#include "bench/suite.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::bench {

namespace {

class ArchiveRecorder final : public RunRecorder {
  public:
    explicit ArchiveRecorder(archive::Settings settings) : settings_(std::move(settings)) {}
    int record(const SuiteContext& context, const std::vector<Row>& rows, const std::string& name,
               const ImageRGBA8& image) const override;
    std::string where() const override { return settings_.path.string(); }

  private:
    archive::Settings settings_;
};

// The rows of `rows` measured repetition by repetition, on `image` (called `name`), as archived runs: one per
// row, its stage the suite's, its strategy the row's subject, every timed repetition's timings (a host
// strategy's steady-clock figure as one record per repetition). Returns how many it recorded.
int ArchiveRecorder::record(const SuiteContext& context, const std::vector<Row>& rows,
                            const std::string& name, const ImageRGBA8& image) const {
    int recorded = 0;
    for (const Row& row : rows) {
        if (row.skipped() || row.samplesNs.empty()) continue;
        archive::Record run = archive::freshRecord("histoscope-bench " + row.suite);
        if (context.device && row.clock == measure::Clock::Kernel)
            archive::setDevice(run, context.device->info());
        else
            run.device = "host";
        run.image = archive::identify(name, image);
        archive::StageEntry stage{row.suite, row.subject, row.subject, row.detail, {}, {}};
        for (const auto& [what, value] : row.extra) stage.values[what] = stages::numberText(value);
        run.stages.push_back(std::move(stage));
        for (std::size_t i = 0; i < row.samplesNs.size(); ++i) {
            const int repetition = ++run.repetitions;
            const std::size_t before = run.timings.size();
            if (i < row.runs.size() && !row.runs[i].empty()) {
                archive::addTimings(run, row.runs[i], repetition);
            } else {
                run.timings.push_back({repetition, row.suite, row.suite + ": " + row.subject, "kernel", "",
                                       static_cast<std::uint64_t>(row.samplesNs[i])});
            }
            // An operation run on its own names no pipeline step: the suite's stage is its step.
            for (std::size_t t = before; t < run.timings.size(); ++t)
                if (run.timings[t].step.empty()) run.timings[t].step = row.suite;
        }
        archive::recordOrWarn(settings_, run);
        ++recorded;
    }
    return recorded;
}

}  // namespace

std::shared_ptr<const RunRecorder> recorderFromEnvironment() {
    return std::make_shared<ArchiveRecorder>(archive::Settings::fromEnvironment());
}

}  // namespace hs::bench
