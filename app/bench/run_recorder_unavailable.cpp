// The engine-only build without SQLite or nlohmann/json (bench/run_recorder.hpp).
#include "bench/run_recorder.hpp"
#include "engine/runtime/error.hpp"

namespace hs::bench {

std::shared_ptr<const RunRecorder> recorderFromEnvironment() {
    throw UsageError(
        "--record: this histoscope-bench was built without the run archive (SQLite and nlohmann/json were "
        "not found when it was configured)");
}

}  // namespace hs::bench
