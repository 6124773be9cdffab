#include "bench/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include "runtime/error.hpp"

namespace hs::bench {

namespace {

// A fast generator for filling hundreds of MiB (std::mt19937 would dominate the bench's start-up).
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

  private:
    std::uint64_t state_;
};

// Quantiles of N(128, 12^2) rounded and clamped to 0..255, indexed by a 16-bit uniform number: drawing a byte
// is one table lookup, with the distribution exact to 1/65536.
std::vector<std::uint8_t> gaussianTable() {
    std::vector<std::uint8_t> table(65536);
    std::normal_distribution<double> normal(128.0, 12.0);
    std::mt19937_64 random(12);
    std::vector<double> samples(table.size());
    for (auto& sample : samples) sample = normal(random);
    std::sort(samples.begin(), samples.end());
    for (std::size_t i = 0; i < table.size(); ++i)
        table[i] = static_cast<std::uint8_t>(std::clamp(std::lround(samples[i]), 0L, 255L));
    return table;
}

// Fills rows [first, last) of `image` with `pattern`; each row has its own seed, so the content does not
// depend on how the rows were shared among threads.
void fill(ImageRGBA8& image, const std::string& pattern, const std::vector<std::uint8_t>& gaussian, int first,
          int last) {
    for (int y = first; y < last; ++y) {
        SplitMix64 random(0x5eed + static_cast<std::uint64_t>(y));
        for (int x = 0; x < image.width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            if (pattern == "uniform") {
                const std::uint64_t bits = random.next();
                for (int c = 0; c < 4; ++c) p[c] = static_cast<std::uint8_t>(bits >> (8 * c));
            } else if (pattern == "all-equal") {
                p[0] = 97, p[1] = 180, p[2] = 33, p[3] = 255;
            } else if (pattern == "gaussian") {
                const std::uint64_t bits = random.next();
                for (int c = 0; c < 4; ++c) p[c] = gaussian[(bits >> (16 * c)) & 0xffff];
            } else {
                const int w = std::max(1, image.width - 1), h = std::max(1, image.height - 1);
                p[0] = static_cast<std::uint8_t>(x * 255 / w);
                p[1] = static_cast<std::uint8_t>(y * 255 / h);
                p[2] = static_cast<std::uint8_t>((x * 255 / w + y * 255 / h) / 2);
                p[3] = 255;
            }
        }
    }
}

}  // namespace

const std::vector<std::string>& patternNames() {
    static const std::vector<std::string> names{"uniform", "all-equal", "gaussian", "gradient"};
    return names;
}

ImageRGBA8 makePattern(const std::string& name, std::uint64_t bytes) {
    const std::size_t pixels = std::max<std::uint64_t>(1, bytes / 4);
    // Near-square, like a photograph: a strip would let a rotation sample mostly outside the image and
    // flatter its figures. The byte count is rounded down to whole rows; results report the actual bytes.
    const auto width =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::sqrt(static_cast<double>(pixels))));
    return makePattern(name, static_cast<int>(width), static_cast<int>(pixels / width));
}

ImageRGBA8 makePattern(const std::string& name, int width, int height) {
    if (std::find(patternNames().begin(), patternNames().end(), name) == patternNames().end())
        throw UsageError("unknown pattern '" + name + "' (known: uniform, all-equal, gaussian, gradient)");
    ImageRGBA8 image(width, height);
    const auto gaussian = name == "gaussian" ? gaussianTable() : std::vector<std::uint8_t>();
    const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u));
    const int rowsPerThread = (image.height + threads - 1) / threads;
    {
        std::vector<std::jthread> workers;
        for (int first = 0; first < image.height; first += rowsPerThread)
            workers.emplace_back([&, first] {
                fill(image, name, gaussian, first, std::min(image.height, first + rowsPerThread));
            });
    }
    return image;
}

}  // namespace hs::bench
