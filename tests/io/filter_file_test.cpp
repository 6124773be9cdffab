// Filter files and --filter specs through io's Qt-free files part: the file is read once (bounded), the
// engine parses the text, and errors name the file. Also raw RGBA reads (histoscope-bench's --raw).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "engine/runtime/error.hpp"
#include "expect_error.hpp"
#include "io/files/files.hpp"
#include "io/files/filter_file.hpp"

namespace hs::io {
namespace {

using test::mentions;
using test::messageOf;

// A fresh folder, removed with everything in it at the end of the test.
class Folder {
  public:
    Folder() {
        path_ = std::filesystem::temp_directory_path() /
                ("histoscope-files-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(path_);
    }
    ~Folder() { std::filesystem::remove_all(path_); }
    std::string write(const std::string& name, std::string_view content) const {
        const auto file = path_ / name;
        std::ofstream(file, std::ios::binary) << content;
        return file.string();
    }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

TEST(FilterFile, FilesAreReadAndTheirErrorsNameTheFile) {
    const Folder folder;
    const std::string text = "-1 0 1\n-2 0 2\n-1 0 1\n";
    const std::string good = folder.write("edge.txt", text);
    const FilterFile read = readFilterFile(good);
    EXPECT_EQ(read.text, text);
    EXPECT_EQ(read.filter.taps, (std::vector<double>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    EXPECT_EQ(read.filter.label, "custom 3x3 (edge.txt)");

    const std::string bad = folder.write("bad.txt", "1 2\n3 x\n");
    EXPECT_EQ(messageOf<InputError>([&] { readFilterFile(bad); }), bad + ": line 2: 'x' is not a number");

    const std::string binary = folder.write("b.png", std::string("\x89PNG\0\0", 6));
    EXPECT_EQ(messageOf<InputError>([&] { readFilterFile(binary); }), binary + ": not a text file");

    const std::string missing = good + ".missing";
    EXPECT_EQ(messageOf<InputError>([&] { readFilterFile(missing); }).rfind(missing + ": cannot read", 0),
              0u);

    const std::string huge = folder.write("huge.txt", std::string(convolve::kMaxFilterFileBytes + 1, '1'));
    EXPECT_EQ(messageOf<InputError>([&] { readFilterFile(huge); }),
              huge + ": 65537 bytes is too large for a filter file");
}

TEST(FilterFile, SpecsNameFiltersOrFiles) {
    std::string fileText = "left over";
    EXPECT_EQ(filterFromSpec("box:5", &fileText).divisor, 25.0);
    EXPECT_EQ(fileText, "") << "a named filter has no file";
    EXPECT_EQ(filterFromSpec("unsharp:1.5:2").taps, convolve::namedFilterFromSpec("unsharp:1.5:2")->taps);
    EXPECT_THROW(filterFromSpec("sharpen:2"), UsageError);

    const auto unknown = messageOf<UsageError>([] { filterFromSpec("blur"); });
    EXPECT_TRUE(mentions(unknown, "unknown filter 'blur'")) << unknown;
    EXPECT_TRUE(mentions(unknown, "unsharp[:AMOUNT[:SIGMA]]")) << unknown;
    const auto missing = messageOf<InputError>([] { filterFromSpec("no-such-dir/edges.txt"); });
    EXPECT_TRUE(mentions(missing, "no-such-dir/edges.txt: no such filter file")) << missing;

    const Folder folder;
    const std::string path = folder.write("row.txt", "1 1 1\n");
    EXPECT_EQ(filterFromSpec(path, &fileText).width, 3);
    EXPECT_EQ(fileText, "1 1 1\n");
}

TEST(FilterFile, ABareWordThatNamesAFileReadsTheFile) {
    const Folder folder;
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(folder.path());
    folder.write("blur", "1 2 1\n/ 4\n");
    folder.write("broken", "1 x 1\n");
    const convolve::Filter filter = filterFromSpec("blur");
    EXPECT_EQ(filter.width, 3);
    EXPECT_EQ(filter.height, 1);
    EXPECT_EQ(filter.divisor, 4.0);
    // Then its mistakes are those of a file: input errors naming it.
    const auto problem = messageOf<InputError>([] { filterFromSpec("broken"); });
    EXPECT_EQ(problem.rfind("broken: line 1", 0), 0u) << problem;
    std::filesystem::current_path(previous);
}

TEST(RawRgba, ReadsExactlyWidthTimesHeightPixels) {
    const Folder folder;
    const std::string bytes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const std::string path = folder.write("three.rgba", bytes);
    const ImageRGBA8 image = readRawRgba(path, 3, 1);
    EXPECT_EQ(image.width, 3);
    EXPECT_EQ(image.pixel(2, 0)[0], 9);
    EXPECT_EQ(image.pixel(2, 0)[3], 12);
    EXPECT_EQ(messageOf<InputError>([&] { readRawRgba(path, 2, 2); }),
              path + ": holds 12 bytes, but 2x2 RGBA8 pixels need 16");
    EXPECT_TRUE(mentions(messageOf<InputError>([&] { readRawRgba(path + ".gone", 3, 1); }),
                         ".gone: cannot open the raw RGBA file"));
}

}  // namespace
}  // namespace hs::io
