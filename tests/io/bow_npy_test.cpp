// Descriptor and vocabulary arrays (.npy float32 k x 64): what numpy writes is read, what we write has
// numpy's layout and reads back, and bad arrays are refused with one line naming the file and the reason.
#include <gtest/gtest.h>

#include <QFile>
#include <cmath>
#include <limits>

#include "engine/runtime/error.hpp"
#include "expect_error.hpp"
#include "handmade_files.hpp"
#include "io/npy.hpp"

namespace hs {
namespace {

using test::mentions;

// A .npy file as numpy.save writes it (format 1.0: magic, version, uint16 header length, the dict padded with
// spaces and ended by '\n' so the data starts at a multiple of 64), with any header and payload.
QByteArray npyFile(const QByteArray& dict, const QByteArray& payload, int major = 1) {
    const int lengthBytes = major == 1 ? 2 : 4;
    QByteArray header = dict;
    const qsizetype unpadded = 8 + lengthBytes + header.size() + 1;
    header.append(QByteArray((64 - unpadded % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY", 6);
    bytes.append(static_cast<char>(major)).append('\0');
    for (int i = 0; i < lengthBytes; ++i) bytes.append(static_cast<char>((header.size() >> (8 * i)) & 0xff));
    return bytes + header + payload;
}

QByteArray floats(const std::vector<float>& values) {
    return QByteArray(reinterpret_cast<const char*>(values.data()),
                      static_cast<qsizetype>(values.size() * sizeof(float)));
}

std::vector<float> counting(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = 0.5f * static_cast<float>(i) - 3.0f;
    return values;
}

const QByteArray kTwoRows("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 64), }");

class NpyFiles : public test::FileFolder {
  protected:
    // The one line readDescriptorArray() throws for a file of `bytes`.
    std::string refusal(const QByteArray& bytes) {
        const QString file = write("bad.npy", bytes);
        const std::string message = test::messageOf<InputError>([&] { io::readDescriptorArray(file); });
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        EXPECT_TRUE(mentions(message, file.toStdString())) << message;
        return message;
    }
};

TEST_F(NpyFiles, ReadsNumpysLayoutOfEveryVersion) {
    for (const int major : {1, 2, 3}) {
        const auto matrix =
            io::readDescriptorArray(write("a.npy", npyFile(kTwoRows, floats(counting(128)), major)));
        ASSERT_EQ(matrix.rows(), 2u);
        EXPECT_EQ(matrix.values, counting(128));
    }
    // Spacing numpy does not write but a Python literal allows, and an empty array (found by fuzz_npy: its
    // read once passed memcpy the null data pointer of an empty vector, which UBSan stops in ./test.sh
    // --sanitize).
    const auto spaced = io::readDescriptorArray(write(
        "b.npy",
        npyFile("{\"shape\": (1,64), \"fortran_order\": False, \"descr\": '<f4'}", floats(counting(64)))));
    EXPECT_EQ(spaced.values, counting(64));
    const auto empty = io::readDescriptorArray(
        write("c.npy", npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 64), }", {})));
    EXPECT_EQ(empty.rows(), 0u);
}

TEST_F(NpyFiles, WritesNumpysLayoutAndReadsItBack) {
    const bow::Matrix matrix(counting(3 * 64));
    const QString file = path("vocabulary.npy");
    io::writeDescriptorArray(file, matrix);
    QFile written(file);
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_EQ(written.readAll(), npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 64), }",
                                         floats(counting(3 * 64))));
    EXPECT_EQ(io::readDescriptorArray(file).values, matrix.values);
}

TEST_F(NpyFiles, RefusesOtherDtypesShapesAndOrders) {
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 64), }",
                                         QByteArray(512, '\0'))),
                         "dtype '<f8' is not little-endian float32"));
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 64), }",
                                         floats(counting(128)))),
                         "dtype '>f4'"));
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 32), }",
                                         floats(counting(128)))),
                         "has 32 columns, 64 expected"));
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (128,), }",
                                         floats(counting(128)))),
                         "is not 2-D"));
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 64), }",
                                         floats(counting(128)))),
                         "Fortran-order"));
}

TEST_F(NpyFiles, RefusesTruncatedAndOverlongFiles) {
    const QByteArray whole = npyFile(kTwoRows, floats(counting(128)));
    EXPECT_TRUE(mentions(refusal(whole.chopped(4)), "truncated: 508 bytes of data, shape (2, 64) needs 512"));
    EXPECT_TRUE(mentions(refusal(whole + "x"), "trailing bytes: 513 bytes"));
    EXPECT_TRUE(mentions(refusal(whole.left(30)), "truncated .npy header"));
    EXPECT_TRUE(mentions(refusal("P6\n4 4\n255\n"), "not a .npy file"));
    EXPECT_TRUE(mentions(refusal(npyFile("{'descr': '<f4', 'shape': (2, 64)}", floats(counting(128)))),
                         "no 'fortran_order'"));
}

TEST_F(NpyFiles, RefusesValuesThatAreNotFinite) {
    auto values = counting(128);
    values[64 + 5] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(
        mentions(refusal(npyFile(kTwoRows, floats(values))), "value nan at row 1, column 5 is not finite"));
    values[64 + 5] = 0;
    values[3] = -std::numeric_limits<float>::infinity();
    EXPECT_TRUE(mentions(refusal(npyFile(kTwoRows, floats(values))), "row 0, column 3"));
}

TEST_F(NpyFiles, MissingFileIsOneLine) {
    EXPECT_TRUE(mentions(refusal(QByteArray()), "not a .npy file"));
    const std::string message =
        test::messageOf<InputError>([&] { io::readDescriptorArray(path("absent.npy")); });
    EXPECT_TRUE(mentions(message, "absent.npy: cannot read")) << message;
}

}  // namespace
}  // namespace hs
