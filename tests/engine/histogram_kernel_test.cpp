// The private_uchar kernel in the layouts, lanes and group sizes other devices choose (a GPU picks the
// interleaved, bank-aware layout, which the strategy never picks on PoCL), driven directly so PoCL checks
// them.
#include <gtest/gtest.h>

#include <ostream>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/runtime.hpp"
#include "histogram_test_images.hpp"

namespace hs::histogram {
namespace {

// One layout of the kernel's counters: interleaved (GPU) or rows per work-item (CPU) with `lanes` rows each.
struct Layout {
    bool interleaved;
    int workGroup;
    int lanes;
    int itemQuads;  // the most a row's uchar counters allow: 255 * lanes / 4
    // The bins of the opaque patterns' build; the half-transparent one (IGNORE_TRANSPARENT) gets the other.
    int opaqueBins;
};

// How GoogleTest shows a layout (in the test list), rather than its bytes.
void PrintTo(const Layout& layout, std::ostream* out) {
    *out << (layout.interleaved ? "interleaved" : "rows") << ", WG " << layout.workGroup << ", "
         << layout.lanes << " lane(s), ITEM_QUADS " << layout.itemQuads << ", " << layout.opaqueBins
         << " bins opaque";
}

Histogram runPrivateUchar(DeviceContext& device, const ImageRGBA8& image, int bins, bool ignoreTransparent,
                          const Layout& layout, std::size_t groups) {
    const int workGroup = layout.workGroup;
    const std::string options =
        "-D BINS=" + std::to_string(bins) + (ignoreTransparent ? " -D IGNORE_TRANSPARENT" : "") +
        " -D WG=" + std::to_string(workGroup) + " -D ITEM_QUADS=" + std::to_string(layout.itemQuads) +
        " -D INTERLEAVED=" + (layout.interleaved ? "1" : "0") + " -D LANES=" + std::to_string(layout.lanes);
    const cl::Program program = device.program("histogram", options);
    const std::size_t histSize = kChannelCount * static_cast<std::size_t>(bins);
    cl::Buffer pixels(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.byteCount(),
                      const_cast<std::uint8_t*>(image.pixels.data()));
    // One partial per group, then the ticket counter the kernel hands chunks out with, cleared.
    const std::size_t partialBytes = groups * histSize * sizeof(cl_uint);
    cl::Buffer partials(device.context(), CL_MEM_READ_WRITE, partialBytes + sizeof(cl_uint));
    device.queue().enqueueFillBuffer(partials, cl_uint{0}, partialBytes, sizeof(cl_uint));
    cl::Buffer hist(device.context(), CL_MEM_READ_WRITE, histSize * sizeof(cl_uint));

    cl::Kernel count(program, "private_uchar");
    count.setArg(0, pixels);
    count.setArg(1, static_cast<cl_uint>(image.pixelCount()));
    count.setArg(2, partials);
    device.queue().enqueueNDRangeKernel(count, cl::NullRange, cl::NDRange(groups * workGroup),
                                        cl::NDRange(workGroup));
    // reduce_partials: groups of 256 work-items, 32 counters each.
    cl::Kernel reduce(program, "reduce_partials");
    reduce.setArg(0, partials);
    reduce.setArg(1, static_cast<cl_uint>(groups));
    reduce.setArg(2, hist);
    device.queue().enqueueNDRangeKernel(reduce, cl::NullRange, cl::NDRange((histSize + 31) / 32 * 256),
                                        cl::NDRange(256));
    std::vector<cl_uint> flat(histSize);
    device.queue().enqueueReadBuffer(hist, CL_TRUE, 0, histSize * sizeof(cl_uint), flat.data());
    return Histogram::fromFlat(flat, bins);
}

// One test per layout, each with two builds: 7 and 256 bins, one of them with IGNORE_TRANSPARENT (the
// half-transparent pattern), the other without (the uniform and all-equal patterns). The layouts take turns,
// so every layout counts both bin counts and both ways of treating alpha, and each pairing of bins and alpha
// runs in two or three layouts. Every pairing in every layout took twenty builds: 58 s of test time with
// PoCL's kernel cache empty (2 cores, idle), 120 s on a fresh machine with two busy loops, for no code path
// that these leave out: the layout decides where a pixel's counters lie, the bins and IGNORE_TRANSPARENT
// what is counted.
class EveryLayoutAndGroupSize : public ::testing::TestWithParam<Layout> {};

TEST_P(EveryLayoutAndGroupSize, CountsEveryPatternExactly) {
    Runtime runtime;
    auto& device = runtime.open("0:0");
    const Layout& layout = GetParam();
    // 1023 x 767 is 784641 pixels: 196160 uint4 loads and one pixel left over, several chunks per group.
    // The half-transparent image is counted with IGNORE_TRANSPARENT.
    for (const auto pattern : {test_images::Pattern::Uniform, test_images::Pattern::AllEqual,
                               test_images::Pattern::HalfTransparent}) {
        const ImageRGBA8 image = test_images::makeImage(1023, 767, pattern);
        const bool ignoreTransparent = pattern == test_images::Pattern::HalfTransparent;
        const int otherBins = layout.opaqueBins == 7 ? 256 : 7;
        const int bins = ignoreTransparent ? otherBins : layout.opaqueBins;
        SCOPED_TRACE(test_images::patternName(pattern) + ", " + std::to_string(bins) + " bins");
        const Histogram expected =
            referenceHistogram(image.pixels.data(), image.pixelCount(), bins, ignoreTransparent);
        EXPECT_EQ(runPrivateUchar(device, image, bins, ignoreTransparent, layout, 5), expected);
    }
}

// PrivateUchar/EveryLayoutAndGroupSize.CountsEveryPatternExactly/interleaved_wg16, .../rows_wg8_lanes2, ...
INSTANTIATE_TEST_SUITE_P(PrivateUchar, EveryLayoutAndGroupSize,
                         ::testing::Values(Layout{true, 16, 1, 63, 7}, Layout{true, 64, 1, 63, 256},
                                           Layout{false, 16, 1, 63, 7}, Layout{false, 8, 2, 127, 256},
                                           Layout{false, 4, 4, 255, 7}),
                         [](const ::testing::TestParamInfo<Layout>& param) {
                             const Layout& layout = param.param;
                             return std::string(layout.interleaved ? "interleaved" : "rows") + "_wg" +
                                    std::to_string(layout.workGroup) +
                                    (layout.lanes > 1 ? "_lanes" + std::to_string(layout.lanes) : "");
                         });

// reduce_partials on hand-filled partials: partial p's counter i holds 1000 p + i, so counter i of the sum
// over 20 partials is 1000 (0 + 1 + ... + 19) + 20 i = 190000 + 20 i. Each of its 8 stripes of partials
// holds data (the kernels above may leave all but the first partials empty on a CPU, where one work-group
// can take every chunk), and 35 counters (7 bins) span two work-groups of 32.
TEST(ReducePartialsKernel, SumsEveryPartialOfEveryCounterByHand) {
    Runtime runtime;
    auto& device = runtime.open("0:0");
    constexpr int kBins = 7;
    constexpr std::size_t kPartials = 20;
    constexpr std::size_t kCounters = kChannelCount * kBins;
    const cl::Program program =
        device.program("histogram", "-D BINS=" + std::to_string(kBins) + " -D PARTIALS");
    std::vector<cl_uint> filled(kPartials * kCounters);
    for (std::size_t p = 0; p < kPartials; ++p) {
        for (std::size_t i = 0; i < kCounters; ++i)
            filled[p * kCounters + i] = static_cast<cl_uint>(1000 * p + i);
    }
    cl::Buffer partials(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        filled.size() * sizeof(cl_uint), filled.data());
    cl::Buffer hist(device.context(), CL_MEM_READ_WRITE, kCounters * sizeof(cl_uint));
    cl::Kernel reduce(program, "reduce_partials");
    reduce.setArg(0, partials);
    reduce.setArg(1, static_cast<cl_uint>(kPartials));
    reduce.setArg(2, hist);
    device.queue().enqueueNDRangeKernel(reduce, cl::NullRange, cl::NDRange((kCounters + 31) / 32 * 256),
                                        cl::NDRange(256));
    std::vector<cl_uint> sums(kCounters);
    device.queue().enqueueReadBuffer(hist, CL_TRUE, 0, kCounters * sizeof(cl_uint), sums.data());
    for (std::size_t i = 0; i < kCounters; ++i) EXPECT_EQ(sums[i], 190000u + 20u * i) << "counter " << i;
}

}  // namespace
}  // namespace hs::histogram
