#include "bench/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include "engine/runtime/error.hpp"

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

std::uint8_t clampByte(int value) {
    return static_cast<std::uint8_t>(std::clamp(value, 0, 255));
}

// A frame like a photograph or a video still, for the scopes: a sky of smooth gradients with a little noise,
// a clipped white wall and a saturated red car (flat, noiseless: equal runs, chroma far from grey), a shaded
// skin-tone disc, textured noisy ground and a near-black shadow. `u`, `v` are the position in 1/1024ths of
// the width and height; `bits` a random number of the pixel.
void naturalPixel(std::uint8_t* p, int u, int v, std::uint64_t bits) {
    const auto noise = [&](int shift, int amplitude) {
        return static_cast<int>((bits >> shift) % static_cast<std::uint64_t>(2 * amplitude + 1)) - amplitude;
    };
    const int du = u - 450, dv = v - 500;
    int r = 0, g = 0, b = 0;
    if (u >= 100 && u < 300 && v >= 300 && v < 700) {
        r = 236, g = 234, b = 228;
    } else if (u >= 600 && u < 800 && v >= 550 && v < 750) {
        r = 190, g = 25, b = 30;
    } else if (du * du + dv * dv < 90 * 90) {
        const int shade = (du + dv) / 6;
        r = 224 - shade + noise(0, 2), g = 172 - shade + noise(8, 2), b = 140 - shade + noise(16, 2);
    } else if (v < 400) {
        r = 60 + v / 10 + noise(0, 2), g = 110 + v / 8 + noise(8, 2), b = 200 + v / 16 + noise(16, 2);
    } else if (v >= 900) {
        r = 18 + noise(0, 1), g = 18 + noise(8, 1), b = 22 + noise(16, 1);
    } else {
        const int texture = static_cast<int>(24.0 * std::sin(u / 9.0) * std::cos(v / 7.0));
        r = 85 + texture + noise(0, 6), g = 105 + texture + noise(8, 6), b = 50 + texture / 2 + noise(16, 6);
    }
    p[0] = clampByte(r), p[1] = clampByte(g), p[2] = clampByte(b), p[3] = 255;
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
            } else if (pattern == "natural") {
                naturalPixel(p, static_cast<int>(std::int64_t{x} * 1024 / image.width),
                             static_cast<int>(std::int64_t{y} * 1024 / image.height), random.next());
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
    static const std::vector<std::string> names{"uniform", "all-equal", "gaussian", "gradient", "natural"};
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
        throw UsageError("unknown pattern '" + name +
                         "' (known: uniform, all-equal, gaussian, gradient, natural)");
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
