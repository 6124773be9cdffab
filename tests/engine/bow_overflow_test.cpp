// Issue 21, item 10: descriptors and centroids whose squared distances leave float's range (finite values
// near 3e38 overflow to infinity, values near 1e-25 underflow to zero). Every builder, bow-serial included,
// assigns the nearest centroid in exact arithmetic (up to near ties) and agrees with bow-serial.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bow_test_data.hpp"
#include "engine/ops/bow/bow.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bow {
namespace {

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

// Every registered builder the test device runs (bow-tensor on NVIDIA's; its emulation on PoCL is left to
// bow_strategies_test, whose programs take minutes to build there).
std::vector<const Strategy*> runnable(Shape shape, const Matrix& centroids) {
    std::vector<const Strategy*> list;
    for (const Strategy* strategy : strategies()) list.push_back(strategy);
    std::erase_if(list, [&](const Strategy* strategy) {
        return strategy->runsOnDevice() &&
               !strategy->supported(&runtime().open("0:0").info(), shape, centroids).ok;
    });
    return list;
}

// `matrix` with every value v replaced by (2 v - 1) `scale`: both signs, so that differences reach twice the
// largest magnitude.
Matrix signedScaled(const Matrix& matrix, float scale) {
    Matrix scaled = matrix;
    for (float& value : scaled.values) value = (2.0f * value - 1.0f) * scale;
    return scaled;
}

class BowOutsideFloatRange : public ::testing::TestWithParam<float> {};

TEST_P(BowOutsideFloatRange, EveryBuilderFindsTheNearestCentroidAsSerialDoes) {
    constexpr std::size_t k = 37, count = 201;
    const Matrix unit = test_data::uniformRows(k, 3);
    const Matrix centroids = signedScaled(unit, GetParam());
    // Descriptor i near centroid i * 7 % k, far from every other one.
    const Matrix descriptors = signedScaled(test_data::around(unit, count, 0.02f, 4), GetParam());
    const Result serial = assignWords(nullptr, descriptors, centroids, findStrategy("bow-serial"));
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(serial.memberships[i], i * 7 % k) << "descriptor " << i;
    EXPECT_EQ(misassigned(descriptors, centroids, serial.memberships), 0u);
    for (const Strategy* strategy : runnable(shapeOf(descriptors, centroids), centroids)) {
        SCOPED_TRACE(std::string(strategy->name()));
        const Result result = assignWords(strategy->runsOnDevice() ? &runtime().open("0:0") : nullptr,
                                          descriptors, centroids, *strategy);
        EXPECT_EQ(result.memberships, serial.memberships);
        EXPECT_EQ(result.histogram, serial.histogram);
    }
}

// Near float's largest value (3.4e38; the descriptors reach 1.04 times the scale): squared distances
// overflow; 1e-25: they underflow to zero.
INSTANTIATE_TEST_SUITE_P(Scales, BowOutsideFloatRange, ::testing::Values(3e38f, 3.2e38f, 1e-25f),
                         [](const auto& param) { return std::to_string(param.index); });

TEST(BowOutsideFloatRange, DescriptorsInRangeAreAssignedAsBefore) {
    // Ordinary descriptors (L2-normalised, at most 1) are not scaled: the memberships of the reference are
    // bit for bit nearestCentroid's.
    const Matrix centroids = test_data::uniformRows(9, 5);
    const Matrix descriptors = test_data::uniformRows(50, 6);
    const Result serial = assignWords(nullptr, descriptors, centroids, findStrategy("bow-serial"));
    for (std::size_t i = 0; i < descriptors.rows(); ++i)
        EXPECT_EQ(serial.memberships[i], nearestCentroid(descriptors.row(i), centroids));
}

}  // namespace
}  // namespace hs::bow
