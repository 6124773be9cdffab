// What the host holds while a big image is decoded, transformed, counted and encoded, against bounds derived
// from one RGBA8 copy of it (issue 12: "a tool for big images should hold about one copy on the host"). On
// PoCL a device buffer is host memory too, so these bounds count the driver's copies as well as ours. The
// programs are built on a small image first: the compiler's own memory is no part of an image's.
#include <gtest/gtest.h>

#include <zlib.h>

#include <QFile>
#include <QTemporaryDir>
#include <cstdint>
#include <string>

#include "engine/image/pixel_source.hpp"
#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/runtime.hpp"
#include "heap_peak.hpp"
#include "io/image_io.hpp"

namespace hs {
namespace {

using test::heapBytes;
using test::heapPeakBytes;
using test::resetHeapPeak;

// Small allocations around the pixels (decoder rows, command records, kernel arguments): far below a copy of
// the images used here (16 MiB and more).
constexpr std::size_t kFixedBytes = std::size_t{2} << 20;

// A smooth, non-symmetric test card (every channel varies, so a transposed or mirrored result shows), which
// PNG compresses well: the encoder's output stays small beside the pixels.
ImageRGBA8 testCard(int width, int height) {
    ImageRGBA8 image(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(x * 255 / (width - 1));
            p[1] = static_cast<std::uint8_t>(y * 255 / (height - 1));
            p[2] = static_cast<std::uint8_t>((x + 2 * y) / 16);
            p[3] = static_cast<std::uint8_t>(255 - (x / 64 + y / 64) % 64);
        }
    }
    return image;
}

DeviceContext& cpuDevice() {
    static Runtime runtime;
    return runtime.open("0:0");
}

// The peak heap over `work` above what was held before it.
template <class Work>
std::size_t peakAbove(Work&& work) {
    const std::size_t before = heapBytes();
    resetHeapPeak();
    work();
    return heapPeakBytes() - before;
}

pipeline::Spec quarterTurn() {
    // Nearest sampling at a quarter turn is exact, so the device's result equals the CPU reference.
    pipeline::Spec spec;
    spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest, false}};
    return spec;
}

TEST(HostMemory, CountsTheHeap) {
    // The counter itself: 8 MiB held, then given back.
    constexpr std::size_t bytes = std::size_t{8} << 20;
    const std::size_t before = heapBytes();
    resetHeapPeak();
    {
        std::vector<std::uint8_t> block(bytes, 1);
        // The block escapes to an empty asm: Clang may otherwise drop an allocation nothing reads.
        asm volatile("" : : "r"(block.data()) : "memory");
        EXPECT_GE(heapBytes() - before, bytes);
    }
    EXPECT_GE(heapPeakBytes() - before, bytes);
    EXPECT_LT(heapBytes(), before + bytes);
}

TEST(HostMemory, DecodingHoldsOneCopy) {
    const ImageRGBA8 card = testCard(2048, 2048);
    QTemporaryDir folder;
    const QString path = folder.filePath("card.png");
    io::saveImage(path, card);

    ImageRGBA8 decoded;
    const std::size_t peak = peakAbove([&] { decoded = io::loadImage(path); });
    EXPECT_EQ(decoded, card);
    // The decoder writes into the returned image's pixels, not into an image of its own that is then
    // converted (two copies).
    EXPECT_LE(peak, card.byteCount() + kFixedBytes) << "one copy is " << card.byteCount() << " bytes";
}

// A PNG chunk: length, type, body, CRC (zlib's crc32 is the PNG one).
std::string pngChunk(const std::string& type, const std::string& body) {
    std::string chunk;
    for (int i = 3; i >= 0; --i) chunk += static_cast<char>((body.size() >> (8 * i)) & 0xFF);
    const std::string typed = type + body;
    chunk += typed;
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
    for (int i = 3; i >= 0; --i) chunk += static_cast<char>((crc >> (8 * i)) & 0xFF);
    return chunk;
}

std::string zlibStream(const std::string& bytes) {
    uLongf size = compressBound(static_cast<uLong>(bytes.size()));
    std::string out(size, '\0');
    EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                        reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uLong>(bytes.size()), 6),
              Z_OK);
    out.resize(size);
    return out;
}

// A `side` x `side` grey PNG of `depth` bits whose samples are (x + y) * 16 (16 bits) or x + y (8 bits),
// with `extra` chunks after IHDR.
std::string greyPng(int side, int depth, const std::string& extra = {}) {
    std::string ihdr;
    for (const int value : {side, side})
        for (int i = 3; i >= 0; --i) ihdr += static_cast<char>((value >> (8 * i)) & 0xFF);
    ihdr += static_cast<char>(depth);
    ihdr += std::string(4, '\0');  // grey, deflate, no filter, no interlace
    std::string raw;
    for (int y = 0; y < side; ++y) {
        raw += '\0';  // filter: none
        for (int x = 0; x < side; ++x) {
            const int v = depth == 16 ? (x + y) * 16 : (x + y) & 0xFF;
            if (depth == 16) raw += static_cast<char>(v >> 8);
            raw += static_cast<char>(v & 0xFF);
        }
    }
    return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + extra +
           pngChunk("IDAT", zlibStream(raw)) + pngChunk("IEND", "");
}

QString writeFile(const QTemporaryDir& folder, const char* name, const std::string& bytes) {
    const QString path = folder.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes.data(), static_cast<qint64>(bytes.size()));
    return path;
}

TEST(HostMemory, SixteenBitRowsBecomeEightBitsAsTheyArrive) {
    // Issue 21 item 3: a 16-bit grey PNG peaked at several copies. Decoded into RGBA8 row by row, the host
    // holds the result alone; a 16-bit copy of the image would add 8 MiB here.
    QTemporaryDir folder;
    const QString path = writeFile(folder, "wide.png", greyPng(2048, 16));
    ImageRGBA8 decoded;
    const std::size_t peak = peakAbove([&] { decoded = io::loadImage(path); });
    ASSERT_EQ(decoded.width, 2048);
    EXPECT_EQ(decoded.pixel(100, 7)[0], ((100 + 7) * 16 + 128) / 257);
    EXPECT_LE(peak, decoded.byteCount() + kFixedBytes) << "one copy is " << decoded.byteCount() << " bytes";
}

TEST(HostMemory, CompressedTextChunksAreNeverInflated) {
    // Issue 21 item 3: zTXt and iTXt chunks that inflate to 7 MB each beside a 64 x 64 picture: just under
    // libpng's default cap of 8 MB a chunk, so Qt's decoder inflated every one of them.
    const std::string zeros = zlibStream(std::string(7000000, '\0'));
    std::string text;
    for (int i = 0; i < 4; ++i) {
        text += pngChunk("zTXt", std::string("Comment\0\0", 9) + zeros);
        text += pngChunk("iTXt", std::string("Comment\0\1\0\0\0", 12) + zeros);
    }
    QTemporaryDir folder;
    const QString path = writeFile(folder, "text.png", greyPng(64, 8, text));
    ImageRGBA8 decoded;
    const std::size_t peak = peakAbove([&] { decoded = io::loadImage(path); });
    ASSERT_EQ(decoded.width, 64);
    EXPECT_EQ(decoded.pixel(5, 9)[1], 14);
    EXPECT_LE(peak, kFixedBytes);
}

TEST(HostMemory, ARotationHoldsItsInputOrOutputBesidesTheImageStage) {
    const ImageRGBA8 card = testCard(2048, 2048);
    const pipeline::Spec spec = quarterTurn();
    {
        // Builds the program.
        const ImageRGBA8 small = testCard(64, 64);
        pipeline::runPipeline(cpuDevice(), PixelSource(small), spec).readBack();
    }
    // The decoded pixels the command line hands over (held before the run, as after decoding).
    std::vector<std::uint8_t> decoded = card.pixels;
    std::optional<pipeline::Result> result;
    const std::size_t peak = peakAbove([&] {
        result = pipeline::runPipeline(cpuDevice(), PixelSource(std::move(decoded), card.width, card.height),
                                       spec);
        cpuDevice().queue().finish();
    });
    // The stage's 2-D image and its output buffer, both host memory on this device; the decoded pixels go
    // once written into the image (they are already counted in what was held before).
    EXPECT_LE(peak, card.byteCount() + kFixedBytes) << "one copy is " << card.byteCount() << " bytes";

    const ImageRGBA8 expected = rotate::referenceRotate(card, spec.rotation->params);
    QTemporaryDir folder;
    const QString path = folder.filePath("rotated.png");
    const std::size_t encoding = peakAbove([&] {
        result->withPixels([&](const std::uint8_t* pixels) {
            io::saveImage(path, pixels, result->image.width(), result->image.height());
        });
    });
    // Encoded from the output buffer, mapped: no copy read back.
    EXPECT_LE(encoding, card.byteCount() / 4 + kFixedBytes) << "one copy is " << card.byteCount() << " bytes";
    EXPECT_EQ(io::loadImage(path), expected);
}

TEST(HostMemory, AHistogramOnACpuDeviceCountsInBandsBesideTheImage) {
    // Over one band, so that the whole image would otherwise be uploaded into host memory a second time.
    const int side = 4096;
    static_assert(std::uint64_t{4096} * 4096 * 4 > 2 * histogram::device::kHostMemoryBandBytes);
    const ImageRGBA8 card = testCard(side, side);
    const histogram::Strategy& strategy = histogram::findStrategy("partial-reduce");
    {
        const ImageRGBA8 small = testCard(64, 64);
        PixelSource pixels(small);
        histogram::computeHistogram(&cpuDevice(), pixels, {256, false}, strategy);
    }
    PixelSource pixels(card);
    histogram::Result result;
    const std::size_t peak = peakAbove([&] {
        result = histogram::computeHistogram(&cpuDevice(), pixels, {256, false}, strategy);
    });
    EXPECT_EQ(result.histogram, histogram::referenceHistogram(card.pixels.data(), card.pixelCount(), 256));
    // One band's buffer, reused, not a whole second copy.
    EXPECT_LE(peak, histogram::device::kHostMemoryBandBytes + kFixedBytes)
        << "one copy is " << card.byteCount() << " bytes";
}

}  // namespace
}  // namespace hs
