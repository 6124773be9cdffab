// The strategy contract (ops/operation.hpp): every strategy file's registration reaches its registry (the
// engine is a static library, whose registrar-only objects a linker drops unless told otherwise), in the
// documented order; lookup, fallback and support alike for every operation (visual words too, whose shape is
// descriptors x centroids instead of an image's).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/ops/bow/bow.hpp"
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/operation.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/scope/scope.hpp"
#include "expect_error.hpp"

namespace hs {
namespace {

template <class Op>
std::vector<std::string> namesOf() {
    std::vector<std::string> names;
    for (const auto* strategy : Registry<Op>::list()) names.emplace_back(strategy->name());
    return names;
}

// How many strategies the .cpp files of engine folder `folder` register (an independent count: the sources).
std::size_t registrationsIn(const std::string& folder) {
    std::size_t count = 0;
    const std::string marker = "Registration<Operation> registration(";
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(HISTOSCOPE_ENGINE_SOURCE_DIR) / folder)) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream in(entry.path());
        const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) ++count;
    }
    return count;
}

// Whether `names` holds `expected` in that order, other names between them allowed.
bool holdsInOrder(const std::vector<std::string>& names, const std::vector<std::string>& expected) {
    auto at = names.begin();
    for (const auto& name : expected) {
        at = std::find(at, names.end(), name);
        if (at == names.end()) return false;
    }
    return true;
}

// The order the documents rely on, not the whole list: a new strategy file is listed without a test to edit.
TEST(Registry, ListsEveryRegisteredStrategyInTheDocumentedOrder) {
    const auto histogramNames = namesOf<histogram::Operation>();
    EXPECT_EQ(histogramNames.front(), "serial") << "the host strategy every device can fall back on leads";
    EXPECT_EQ(histogramNames.back(), "auto") << "auto, which picks among the others, comes last";
    EXPECT_TRUE(holdsInOrder(histogramNames, {"serial", "cpu-parallel", "global-atomic", "local-atomic",
                                              "private-uchar", "partial-reduce", "auto"}));
    EXPECT_TRUE(holdsInOrder(namesOf<rotate::Operation>(), {"image-sampler", "buffer"}));
    EXPECT_TRUE(holdsInOrder(namesOf<convolve::Operation>(),
                             {"image-sampler", "buffer-naive", "local-tiled", "separable"}));
    // The book's progression, then ours.
    EXPECT_TRUE(holdsInOrder(namesOf<bow::Operation>(),
                             {"bow-serial", "bow-cpu-parallel", "bow-gpu1-baseline", "bow-gpu2-coalesced",
                              "bow-gpu3-vectorized", "bow-gpu4-local", "bow-gpu5-constant", "bow-tiled"}));
    // Every strategy file's registration is listed, each name once.
    EXPECT_TRUE(holdsInOrder(namesOf<scope::Operation>(), {"serial", "global-atomic", "local-atomic"}));
    for (auto names : {histogramNames, namesOf<rotate::Operation>(), namesOf<convolve::Operation>(),
                       namesOf<bow::Operation>(), namesOf<scope::Operation>()}) {
        std::sort(names.begin(), names.end());
        EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
    }
    EXPECT_EQ(histogram::strategies().size(), registrationsIn("ops/histogram"));
    EXPECT_EQ(rotate::strategies().size(), registrationsIn("ops/rotate"));
    EXPECT_EQ(convolve::strategies().size(), registrationsIn("ops/convolve"));
    EXPECT_EQ(bow::strategies().size(), registrationsIn("ops/bow"));
    EXPECT_EQ(scope::strategies().size(), registrationsIn("ops/scope"));
}

TEST(Registry, EveryStrategyNamesItsOperation) {
    for (const auto* strategy : histogram::strategies())
        EXPECT_EQ(strategy->operation(), OperationKind::Histogram) << strategy->name();
    for (const auto* strategy : rotate::strategies())
        EXPECT_EQ(strategy->operation(), OperationKind::Rotate) << strategy->name();
    for (const auto* strategy : convolve::strategies())
        EXPECT_EQ(strategy->operation(), OperationKind::Convolve) << strategy->name();
    for (const auto* strategy : bow::strategies())
        EXPECT_EQ(strategy->operation(), OperationKind::Bow) << strategy->name();
    for (const auto* strategy : scope::strategies())
        EXPECT_EQ(strategy->operation(), OperationKind::Scope) << strategy->name();
    EXPECT_EQ(operationName(OperationKind::Scope), "scope");
    EXPECT_EQ(operationName(OperationKind::Convolve), "convolve");
    EXPECT_EQ(operationName(OperationKind::Bow), "bow");
}

// A made-up operation, registered here out of order: the registry sorts by the order key.
struct TestOperation {
    static constexpr OperationKind kKind = OperationKind::Histogram;
    static constexpr std::string_view kStrategyNoun = "test strategy";
    static constexpr std::string_view kFallback = "plain";
    using Params = int;
    using Input = int;
    struct Result : RunRecord {};
};

class TestStrategy final : public Strategy<TestOperation> {
  public:
    TestStrategy(std::string_view name, bool onDevice, bool supported)
        : name_(name), onDevice_(onDevice), supported_(supported) {}
    std::string_view name() const override { return name_; }
    std::string_view description() const override { return "made up"; }
    bool runsOnDevice() const override { return onDevice_; }
    Support supported(const DeviceInfo*, ImageShape, const int&) const override {
        return supported_ ? Support::yes() : Support::no("never here");
    }
    Result run(DeviceContext*, int&, const int&) const override { return {{this, {}, {}, {}}}; }

  private:
    std::string_view name_;
    bool onDevice_;
    bool supported_;
};

const TestStrategy fancy("fancy", true, false);
const TestStrategy plain("plain", true, true);
const TestStrategy host("host", false, true);
const Registration<TestOperation> fancyRegistration(fancy, 30);
const Registration<TestOperation> hostRegistration(host, 20);
const Registration<TestOperation> plainRegistration(plain, 10);

TEST(Registry, OrdersByKeyFindsInAnyCaseAndNamesTheKnownOnes) {
    EXPECT_EQ(namesOf<TestOperation>(), (std::vector<std::string>{"plain", "host", "fancy"}));
    EXPECT_EQ(&Registry<TestOperation>::find("FaNcY"), &fancy);
    EXPECT_EQ(Registry<TestOperation>::fallback(), &plain);
    const std::string refusal = test::messageOf<UsageError>([] { Registry<TestOperation>::find("fast"); });
    EXPECT_EQ(refusal, "unknown test strategy 'fast' (known: plain, host, fancy)");
}

TEST(Registry, ChoosesTheFallbackWithANoteAndRefusesADeviceStrategyWithoutADevice) {
    DeviceInfo device;
    device.name = "Made-up GPU";
    const auto choice = chooseRunnable<TestOperation>(&device, {4, 4}, 0, fancy);
    EXPECT_EQ(choice.strategy, &plain);
    EXPECT_EQ(choice.note, "device Made-up GPU: strategy fancy unsupported: never here; used plain");
    EXPECT_EQ(chooseRunnable<TestOperation>(nullptr, {4, 4}, 0, host).strategy, &host);
    EXPECT_THROW(chooseRunnable<TestOperation>(nullptr, {4, 4}, 0, plain), OpenClError);
    EXPECT_EQ(supportOn<TestOperation>(nullptr, {4, 4}, 0, plain).reason, "needs an OpenCL device");

    int input = 0;
    const auto result = runChosen<TestOperation>(nullptr, input, {4, 4}, 0, host);
    EXPECT_EQ(result.strategy, &host);
    EXPECT_EQ(result.strategyName(), "host");
}

}  // namespace
}  // namespace hs
