#include "engine/ops/bow/descriptors.hpp"

#include <cmath>
#include <cstdlib>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bow {

namespace {

constexpr int kSamples = 20;  // per side of a window
constexpr int kMaxWindow = 2000;

int lumaAt(const ImageRGBA8& image, int x, int y) {
    const std::uint8_t* p = image.pixel(x, y);
    return histogram::luma(p[0], p[1], p[2]);
}

int fitting(int extent, const DescriptorParams& params) {
    const int footprint = params.window + params.window / kSamples;
    return extent < footprint ? 0 : (extent - footprint) / params.stride + 1;
}

}  // namespace

void validate(const DescriptorParams& params) {
    if (params.window < kSamples || params.window > kMaxWindow || params.window % kSamples != 0)
        throw UsageError("window " + std::to_string(params.window) +
                         " is not a multiple of 20 within 20..2000 (SURF's 20 samples per side)");
    if (params.stride < 1) throw UsageError("stride " + std::to_string(params.stride) + " is not positive");
}

Grid descriptorGrid(int width, int height, const DescriptorParams& params) {
    validate(params);
    Grid grid{fitting(width, params), fitting(height, params)};
    if (grid.columns == 0 || grid.rows == 0) grid = {};
    return grid;
}

Matrix referenceDescriptors(const ImageRGBA8& image, const DescriptorParams& params) {
    const Grid grid = descriptorGrid(image.width, image.height, params);
    const int s = params.window / kSamples;
    Matrix out(std::vector<float>(grid.count() * kDimensions));
    for (std::size_t index = 0; index < grid.count(); ++index) {
        const int x0 = static_cast<int>(index % static_cast<std::size_t>(grid.columns)) * params.stride;
        const int y0 = static_cast<int>(index / static_cast<std::size_t>(grid.columns)) * params.stride;
        int sums[kDimensions] = {};
        for (int ky = 0; ky < kSamples; ++ky) {
            for (int kx = 0; kx < kSamples; ++kx) {
                const int a = x0 + s * kx, b = y0 + s * ky;
                int dx = 0, dy = 0;
                for (int y = b; y < b + 2 * s; ++y) {
                    for (int x = a; x < a + 2 * s; ++x) {
                        const int l = lumaAt(image, x, y);
                        dx += x < a + s ? -l : l;
                        dy += y < b + s ? -l : l;
                    }
                }
                const int base = 4 * (4 * (ky / 5) + kx / 5);
                sums[base + 0] += dx;
                sums[base + 1] += dy;
                sums[base + 2] += std::abs(dx);
                sums[base + 3] += std::abs(dy);
            }
        }
        double squares = 0;
        for (const int v : sums) squares += static_cast<double>(v) * v;
        const double scale = squares > 0 ? 1.0 / std::sqrt(squares) : 0.0;
        float* row = out.row(index);
        for (std::size_t v = 0; v < kDimensions; ++v) row[v] = static_cast<float>(sums[v] * scale);
    }
    return out;
}

DescriptorResult computeDescriptors(DeviceContext& device, PixelSource& pixels,
                                    const DescriptorParams& params) {
    DescriptorResult result;
    result.grid = descriptorGrid(pixels.width(), pixels.height(), params);
    const std::size_t count = result.grid.count();
    result.descriptors.values.resize(count * kDimensions);
    if (count == 0) return result;
    TimingLog log;
    const cl::Buffer& rgba = pixels.device(device, log);
    withClErrors("device " + device.info().name + ": descriptors", [&] {
        cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, count * kDimensions * sizeof(float));
        cl::Kernel kernel(device.program("bow_descriptors", "-D WINDOW=" + std::to_string(params.window)),
                          "dense_descriptors");
        setKernelArgs(kernel, 0, rgba, static_cast<cl_uint>(pixels.width()),
                      static_cast<cl_uint>(result.grid.columns), static_cast<cl_uint>(result.grid.rows),
                      static_cast<cl_uint>(params.stride), out);
        constexpr std::size_t kLocal = 64;
        device.queue().enqueueNDRangeKernel(
            kernel, cl::NullRange, cl::NDRange((count + kLocal - 1) / kLocal * kLocal), cl::NDRange(kLocal),
            nullptr, log.track(Stage::Kernel, "dense_descriptors"));
        device.queue().enqueueReadBuffer(out, CL_TRUE, 0, count * kDimensions * sizeof(float),
                                         result.descriptors.values.data(), nullptr,
                                         log.track(Stage::Readback, "read descriptors"));
    });
    result.timings = log.collect();
    return result;
}

}  // namespace hs::bow
