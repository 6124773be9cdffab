#pragma once
// --record: the bench's measured rows kept in the run archive (app/archive). The archive needs SQLite and
// nlohmann/json, which the engine-only build of the GPU machine may lack: that build links
// run_recorder_unavailable.cpp instead, whose --record says so before any measuring.

#include <memory>
#include <string>
#include <vector>

#include "engine/image/image.hpp"

namespace hs::bench {

struct Row;
struct SuiteContext;

class RunRecorder {
  public:
    virtual ~RunRecorder() = default;
    // Records each row of `rows` measured repetition by repetition on `image` (called `name`) as one run;
    // returns how many it recorded.
    virtual int record(const SuiteContext& context, const std::vector<Row>& rows, const std::string& name,
                       const ImageRGBA8& image) const = 0;
    // The archive's file, as the summary line names it.
    virtual std::string where() const = 0;
};

// The recorder of the archive the environment names ($HISTOSCOPE_ARCHIVE, …), read now: a bad cap stops the
// bench before any measuring. A UsageError in a build without the archive.
std::shared_ptr<const RunRecorder> recorderFromEnvironment();

}  // namespace hs::bench
