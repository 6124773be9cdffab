// The private_uchar kernel in the layouts, lanes and group sizes other devices choose (a GPU picks the
// interleaved, bank-aware layout, which the strategy never picks on PoCL), driven directly so PoCL checks
// them.
#include <gtest/gtest.h>

#include "histogram_test_images.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/runtime.hpp"

namespace hs::histogram {
namespace {

// One layout of the kernel's counters: interleaved (GPU) or rows per work-item (CPU) with `lanes` rows each.
struct Layout {
    bool interleaved;
    int workGroup;
    int lanes;
    int itemQuads;  // the most a row's uchar counters allow: 255 * lanes / 4
};

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

TEST(PrivateUcharKernel, EveryLayoutAndGroupSizeCountsExactly) {
    Runtime runtime;
    auto& device = runtime.open("0:0");
    // 1023 x 767 is 784641 pixels: 196160 uint4 loads and one pixel left over, several chunks per group.
    // The half-transparent image is counted with IGNORE_TRANSPARENT.
    for (const auto pattern : {test_images::Pattern::Uniform, test_images::Pattern::AllEqual,
                               test_images::Pattern::HalfTransparent}) {
        const ImageRGBA8 image = test_images::makeImage(1023, 767, pattern);
        const bool ignoreTransparent = pattern == test_images::Pattern::HalfTransparent;
        for (const int bins : {7, 256}) {
            const Histogram expected =
                referenceHistogram(image.pixels.data(), image.pixelCount(), bins, ignoreTransparent);
            for (const Layout& layout :
                 {Layout{true, 16, 1, 63}, Layout{true, 64, 1, 63}, Layout{false, 16, 1, 63},
                  Layout{false, 8, 2, 127}, Layout{false, 4, 4, 255}}) {
                SCOPED_TRACE(test_images::patternName(pattern) + ", " + std::to_string(bins) + " bins, WG " +
                             std::to_string(layout.workGroup) +
                             (layout.interleaved ? ", interleaved" : ", rows") + ", " +
                             std::to_string(layout.lanes) + " lanes");
                EXPECT_EQ(runPrivateUchar(device, image, bins, ignoreTransparent, layout, 5), expected);
            }
        }
    }
}

}  // namespace
}  // namespace hs::histogram
