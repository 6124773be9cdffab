// Issue 21, items 6, 8 and 13 in io: every input path is checked as an image's is (a regular file, its size
// what its header promises, before anything is read), names that are not UTF-8 survive the trip through
// Qt's strings, a .npy header that gives a key twice means its last value (as numpy reads it), and filter
// files saved on other systems read.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/runtime/error.hpp"
#include "expect_error.hpp"
#include "io/files/files.hpp"
#include "io/files/filter_file.hpp"
#include "io/native_path.hpp"
#include "io/npy.hpp"

namespace hs {
namespace {

using test::mentions;
using test::messageOf;

class Round3Files : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(directory_.isValid()); }
    std::string path(const std::string& name) const {
        return directory_.filePath(QString::fromStdString(name)).toStdString();
    }
    std::string fifo(const std::string& name) const {
        const std::string at = path(name);
        EXPECT_EQ(::mkfifo(at.c_str(), 0600), 0);
        return at;
    }
    std::string write(const std::string& name, const std::string& bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
        return path(name);
    }

  private:
    QTemporaryDir directory_;
};

// Each reader, given what is not a regular file: one line naming it, and no wait for a FIFO's writer.
TEST_F(Round3Files, SpecialFilesAreRefusedBeforeAnyRead) {
    for (const std::string& special : {std::string("/dev/zero"), std::string("/dev/urandom"), fifo("pipe")}) {
        SCOPED_TRACE(special);
        const std::string expected = special + ": not a regular file";
        EXPECT_TRUE(
            mentions(messageOf<InputError>([&] { io::readDescriptorArray(QString::fromStdString(special)); }),
                     expected));
        EXPECT_TRUE(mentions(
            messageOf<InputError>([&] { io::readVocabulary(QString::fromStdString(special)); }), expected));
        EXPECT_TRUE(mentions(messageOf<InputError>([&] { io::readFilterFile(special); }), expected));
        EXPECT_TRUE(mentions(messageOf<InputError>([&] { io::filterFromSpec(special); }), expected));
        EXPECT_TRUE(mentions(messageOf<InputError>([&] { io::readRawRgba(special, 4, 4); }), expected));
    }
}

// A .npy file as numpy.save writes it, version 1.0.
std::string npy(const std::string& dict, std::size_t dataBytes) {
    std::string header = dict;
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ').append("\n");
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    return bytes + header + std::string(dataBytes, '\0');
}

TEST_F(Round3Files, ANpyKeyGivenTwiceHasItsLastValue) {
    const std::string last =
        write("last.npy", npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 64), "
                              "'descr': '<f4', }",
                              2 * 64 * 4));
    EXPECT_EQ(io::readDescriptorArray(QString::fromStdString(last)).rows(), 2u);
    const std::string first =
        write("first.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 64), "
                               "'descr': '>f8', }",
                               2 * 64 * 4));
    EXPECT_TRUE(
        mentions(messageOf<InputError>([&] { io::readDescriptorArray(QString::fromStdString(first)); }),
                 "dtype '>f8'"));
}

TEST_F(Round3Files, ANpyFileSmallerThanItsShapeIsRefusedFromItsSize) {
    // The header promises 2^32 - 1 rows (1 TiB): refused from the file's size, nothing allocated for it.
    const std::string huge =
        write("huge.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967295, 64), }", 256));
    const std::string message =
        messageOf<InputError>([&] { io::readDescriptorArray(QString::fromStdString(huge)); });
    EXPECT_TRUE(mentions(message, huge + ": truncated: 256 bytes of data")) << message;
}

TEST_F(Round3Files, AnEmptyVocabularyNamesItsFile) {
    const std::string empty =
        write("empty.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 64), }", 0));
    EXPECT_EQ(io::readDescriptorArray(QString::fromStdString(empty)).rows(), 0u);
    const std::string message =
        messageOf<InputError>([&] { io::readVocabulary(QString::fromStdString(empty)); });
    EXPECT_TRUE(mentions(message, empty + ": the vocabulary has no centroids")) << message;
}

TEST_F(Round3Files, FilterFilesWithAByteOrderMarkOrCarriageReturnsRead) {
    const convolve::Filter reference =
        io::readFilterFile(write("unix.txt", "1 2 1\n2 4 2\n1 2 1\n/ 16\n")).filter;
    for (const auto& [name, text] : {std::pair{"mac.txt", "1 2 1\r2 4 2\r1 2 1\r/ 16\r"},
                                     std::pair{"windows.txt",
                                               "\xEF\xBB\xBF"
                                               "1 2 1\r\n2 4 2\r\n1 2 1\r\n/ 16\r\n"},
                                     std::pair{"bom.txt",
                                               "\xEF\xBB\xBF"
                                               "1 2 1\n2 4 2\n1 2 1\n/ 16\n"}}) {
        SCOPED_TRACE(name);
        const convolve::Filter filter = io::readFilterFile(write(name, text)).filter;
        EXPECT_EQ(filter.taps, reference.taps);
        EXPECT_EQ(filter.divisor, reference.divisor);
    }
    // Lines are still counted right across CR LF and CR: the third line is the bad one.
    const std::string bad = write("bad.txt", "1 2 1\r\n2 4 2\rx 2 1\n");
    EXPECT_TRUE(
        mentions(messageOf<InputError>([&] { io::readFilterFile(bad); }), "line 3: 'x' is not a number"));
}

TEST(NativePaths, NamesOfAnyBytesSurviveQtStrings) {
    for (const std::string& name :
         {std::string("plain.png"), std::string("caf\xc3\xa9.png"), std::string("bad\xff\xfe.png"),
          std::string("\xed\xb2\x80 encoded surrogate"), std::string("cut \xe2\x82"),
          std::string("emoji \xf0\x9f\x98\x80 and \x80")}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(io::nativePath(io::pathFromNative(name)).native(), name);
    }
    // Valid UTF-8 reads as Qt reads it.
    EXPECT_EQ(io::pathFromNative("caf\xc3\xa9"), QString::fromUtf8("caf\xc3\xa9"));
}

TEST_F(Round3Files, AFileNamedInBytesThatAreNotUtf8IsRead) {
    const std::string name = path("vocabulary\xff.npy");
    std::ofstream(name, std::ios::binary)
        << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 64), }", 256);
    EXPECT_EQ(io::readVocabulary(io::pathFromNative(name)).rows(), 1u);
}

}  // namespace
}  // namespace hs
