// Files made to make the decoder misbehave: each is refused with one line naming the file and the reason,
// from what the file declares, before the decoder allocates for it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "engine/runtime/error.hpp"
#include "expect_error.hpp"
#include "handmade_files.hpp"
#include "io/image_io.hpp"

namespace hs {
namespace {

class HostileFiles : public test::FileFolder {
  protected:
    // The one line loadImage() throws for `file`; fails the test when it loads.
    static std::string refusal(const QString& file, const io::LoadOptions& options = {}) {
        try {
            io::loadImage(file, options);
            ADD_FAILURE() << file.toStdString() << " was accepted";
        } catch (const InputError& error) {
            const std::string message = error.what();
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
            return message;
        }
        return {};
    }
};

using test::mentions;

TEST_F(HostileFiles, GifLogicalScreenCountsAgainstTheLimit) {
    // A 4x4 frame on a 12000x12000 screen: Qt's decoder allocates the whole screen. With 64 MiB allowed the
    // refusal must come from the header, naming the screen; Qt's own allocation limit (which it would hit
    // after the header check let the file through) names neither.
    const QString file =
        write("screen.gif", test::gifFile(4, 4, {255, 0, 0}, std::vector<std::uint8_t>(16, 0), 12000, 12000));
    const std::string message = refusal(file, io::LoadOptions{64u << 20});
    EXPECT_TRUE(mentions(message, "12000x12000")) << message;
    EXPECT_TRUE(mentions(message, "over the limit")) << message;
    // The same frame on a screen of its own size decodes.
    const QString small =
        write("small.gif", test::gifFile(4, 4, {255, 0, 0}, std::vector<std::uint8_t>(16, 0)));
    EXPECT_EQ(io::loadImage(small, io::LoadOptions{64u << 20}).width, 4);
}

TEST_F(HostileFiles, PngChunkLongerThanTheFileIsRefusedBeforeDecoding) {
    const QByteArray png = test::pngFile(4, 4, test::PngColour::Rgb, 8, std::vector<std::uint16_t>(48, 7));
    for (const char* type : {"tEXt", "zTXt", "iCCP", "iTXt"}) {
        SCOPED_TRACE(type);
        const QString file = write(QString("%1.png").arg(type),
                                   test::pngWithDeclaredChunk(png, type, 0x7FFFFFF0u, "Comment\0text"));
        const std::string message = refusal(file);
        EXPECT_TRUE(mentions(message, file.toStdString() + ": ")) << message;
        EXPECT_TRUE(mentions(message, type)) << message;
        EXPECT_TRUE(mentions(message, "2147483632 bytes")) << message;
    }
    // A length beyond the PNG maximum (2^31 - 1) is corrupt whatever the file holds.
    const std::string huge =
        refusal(write("huge.png", test::pngWithDeclaredChunk(png, "tEXt", 0xFFFFFFFFu, "x")));
    EXPECT_TRUE(mentions(huge, "tEXt")) << huge;
}

TEST_F(HostileFiles, PalettedPngIndexBeyondThePaletteIsRefused) {
    // Two palette entries; a pixel pointing at entry 5 has no colour.
    const std::vector<std::uint8_t> palette{10, 20, 30, 200, 100, 50};
    std::vector<std::uint8_t> indices(12, 1);
    indices[7] = 5;
    const std::string message = refusal(write("beyond.png", test::pngPaletted(4, 3, palette, indices)));
    EXPECT_TRUE(mentions(message, "palette")) << message;
    EXPECT_TRUE(mentions(message, "5")) << message;
    // Within the palette, each pixel gets its entry's colour.
    indices[7] = 0;
    const ImageRGBA8 image = io::loadImage(write("within.png", test::pngPaletted(4, 3, palette, indices)));
    ASSERT_EQ(image.width, 4);
    EXPECT_EQ(image.pixel(3, 1)[0], 10);
    EXPECT_EQ(image.pixel(3, 1)[2], 30);
    EXPECT_EQ(image.pixel(0, 0)[0], 200);
    EXPECT_EQ(image.pixel(0, 0)[3], 255);
}

TEST_F(HostileFiles, PathProblemsAreNamedForWhatTheyAre) {
    const std::string empty = refusal(QString());
    EXPECT_TRUE(mentions(empty, "empty")) << empty;
    EXPECT_FALSE(mentions(empty, "no such file")) << empty;

    ASSERT_TRUE(QFile::link(path("loop-b"), path("loop-a")));
    ASSERT_TRUE(QFile::link(path("loop-a"), path("loop-b")));
    const std::string loop = refusal(path("loop-a"));
    EXPECT_TRUE(mentions(loop, "symbolic links")) << loop;

    const std::string missing = refusal(path("missing.png"));
    EXPECT_TRUE(mentions(missing, "no such file")) << missing;

    const std::string notFolder = refusal(write("file", "x") + "/image.png");
    EXPECT_TRUE(mentions(notFolder, "Not a directory")) << notFolder;
}

TEST_F(HostileFiles, UnreadableFolderSaysPermissionDenied) {
    QDir(path("")).mkdir("locked");
    const QString inside = write("locked/image.png", test::pngFile(1, 1, test::PngColour::Grey, 8, {0}));
    ASSERT_TRUE(QFile::setPermissions(path(""), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                    QFile::ReadOther | QFile::ExeOther));
    ASSERT_TRUE(QFile::setPermissions(path("locked"), QFile::WriteOwner));
    const auto saysPermissionDenied = [&] {
        try {
            io::loadImage(inside);
        } catch (const InputError& error) {
            return mentions(error.what(), inside.toStdString() + ": ") &&
                   mentions(error.what(), "Permission denied");
        }
        return false;
    };
    if (geteuid() != 0) {
        EXPECT_TRUE(saysPermissionDenied());
    } else {
        // Root reads every folder, so the check runs in a child that gives root up for "nobody".
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
            _exit(saysPermissionDenied() ? 0 : 1);
        }
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 0) << "1: another message, 2: could not drop root";
    }
    QFile::setPermissions(path("locked"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

}  // namespace
}  // namespace hs
