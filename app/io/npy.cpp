#include "io/npy.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/runtime/error.hpp"
#include "io/export.hpp"
#include "io/files/files.hpp"
#include "io/native_path.hpp"

namespace hs::io {

namespace {

static_assert(std::endian::native == std::endian::little, "the .npy data is little-endian float32");

const QByteArray kMagic("\x93NUMPY", 6);
constexpr qsizetype kPreamble = 8;  // magic and version

[[noreturn]] void refuse(const QString& path, const QString& reason) {
    throw InputError((path + ": " + reason).toStdString());
}

std::uint32_t littleEndian(const QByteArray& bytes, qsizetype at, int width) {
    std::uint32_t value = 0;
    for (int i = width - 1; i >= 0; --i) value = value << 8 | static_cast<std::uint8_t>(bytes[at + i]);
    return value;
}

// The value of `key` in the header's Python dict literal, as written (a quoted string, True/False, a tuple).
// A key given twice has its last value, as in the dict numpy.load() evaluates.
QString field(const QString& header, const QString& key, const QString& valuePattern, const QString& path) {
    const QRegularExpression pattern("['\"]" + key + "['\"]\\s*:\\s*(" + valuePattern + ")");
    QString value;
    bool found = false;
    for (auto matches = pattern.globalMatch(header); matches.hasNext();) {
        value = matches.next().captured(1);
        found = true;
    }
    if (!found) refuse(path, "the .npy header has no '" + key + "' (" + header.trimmed() + ")");
    return value;
}

// What the header of `bytes` (which hold at least the header) says, every field checked.
struct Header {
    qsizetype dataStart = 0;
    qulonglong rows = 0;
    QString shapeText;
    qulonglong dataBytes = 0;
};

Header parseHeader(const QByteArray& bytes, const QString& path) {
    if (!bytes.startsWith(kMagic)) refuse(path, "not a .npy file (no \\x93NUMPY magic)");
    if (bytes.size() < kPreamble + 2) refuse(path, "truncated .npy header");
    const int major = static_cast<std::uint8_t>(bytes[6]);
    if (major < 1 || major > 3) refuse(path, QString(".npy format version %1 is not 1, 2 or 3").arg(major));
    const int lengthBytes = major == 1 ? 2 : 4;
    if (bytes.size() < kPreamble + lengthBytes) refuse(path, "truncated .npy header");
    const qsizetype headerLength = littleEndian(bytes, kPreamble, lengthBytes);
    Header parsed;
    parsed.dataStart = kPreamble + lengthBytes + headerLength;
    if (bytes.size() < parsed.dataStart) refuse(path, "truncated .npy header");
    const QString header = QString::fromLatin1(bytes.mid(kPreamble + lengthBytes, headerLength));

    const QString descr = field(header, "descr", "'[^']*'|\"[^\"]*\"", path).mid(1).chopped(1);
    if (descr != "<f4")
        refuse(path,
               "dtype '" + descr + "' is not little-endian float32 ('<f4'); convert with .astype('<f4')");
    if (field(header, "fortran_order", "True|False", path) == "True")
        refuse(path,
               "Fortran-order arrays are not supported; save a C-order array (numpy.ascontiguousarray)");
    parsed.shapeText = field(header, "shape", "\\([^)]*\\)", path);
    QStringList dimensions = parsed.shapeText.mid(1).chopped(1).split(',', Qt::SkipEmptyParts);
    for (auto& dimension : dimensions) dimension = dimension.trimmed();
    dimensions.removeAll(QString());
    if (dimensions.size() != 2) refuse(path, "shape " + parsed.shapeText + " is not 2-D (rows, 64)");
    bool rowsOk = false, columnsOk = false;
    parsed.rows = dimensions[0].toULongLong(&rowsOk);
    const qulonglong columns = dimensions[1].toULongLong(&columnsOk);
    if (!rowsOk || !columnsOk) refuse(path, "shape " + parsed.shapeText + " is not two sizes");
    if (columns != bow::kDimensions)
        refuse(path, QString("shape %1 has %2 columns, %3 expected")
                         .arg(parsed.shapeText)
                         .arg(columns)
                         .arg(bow::kDimensions));
    if (parsed.rows > std::numeric_limits<std::uint32_t>::max())
        refuse(path, QString("%1 rows are more than 2^32-1").arg(parsed.rows));
    parsed.dataBytes = parsed.rows * columns * sizeof(float);
    return parsed;
}

void checkDataBytes(const Header& header, qulonglong present, const QString& path) {
    if (present != header.dataBytes)
        refuse(path, QString("%1: %2 bytes of data, shape %3 needs %4")
                         .arg(present < header.dataBytes ? "truncated" : "trailing bytes")
                         .arg(present)
                         .arg(header.shapeText)
                         .arg(header.dataBytes));
}

}  // namespace

bow::Matrix parseDescriptorArray(const QByteArray& bytes, const QString& path) {
    const Header header = parseHeader(bytes, path);
    checkDataBytes(header, static_cast<qulonglong>(bytes.size() - header.dataStart), path);
    bow::Matrix matrix(std::vector<float>(static_cast<std::size_t>(header.rows * bow::kDimensions)));
    // An empty (0, 64) array has no data: memcpy must not be given the null pointer of an empty vector.
    if (header.dataBytes > 0)
        std::memcpy(matrix.values.data(), bytes.constData() + header.dataStart,
                    static_cast<std::size_t>(header.dataBytes));
    for (std::size_t i = 0; i < matrix.values.size(); ++i) {
        if (!std::isfinite(matrix.values[i]))
            refuse(path, QString("value %1 at row %2, column %3 is not finite")
                             .arg(static_cast<double>(matrix.values[i]))
                             .arg(i / bow::kDimensions)
                             .arg(i % bow::kDimensions));
    }
    return matrix;
}

bow::Matrix readDescriptorArray(const QString& path) {
    // Regular files only (never /dev/zero or a FIFO), and the header read and judged first: the data is read
    // only when the file's size is what the header's shape needs.
    RegularFile file(nativePath(path), ".npy file");
    try {
        // The preamble and the header's length, then the header.
        QByteArray bytes(static_cast<qsizetype>(std::min<std::uint64_t>(file.size(), kPreamble + 4)), '\0');
        file.read(bytes.data(), static_cast<std::size_t>(bytes.size()));
        std::uint64_t dataStart = file.size();
        if (bytes.size() == kPreamble + 4 && bytes.startsWith(kMagic)) {
            const int lengthBytes = static_cast<std::uint8_t>(bytes[6]) == 1 ? 2 : 4;
            dataStart = std::min<std::uint64_t>(
                file.size(),
                kPreamble + lengthBytes + std::uint64_t{littleEndian(bytes, kPreamble, lengthBytes)});
        }
        const auto already = static_cast<std::uint64_t>(bytes.size());
        if (dataStart > already) {
            bytes.resize(static_cast<qsizetype>(dataStart));
            file.read(bytes.data() + already, static_cast<std::size_t>(dataStart - already));
        }
        const Header header = parseHeader(bytes, path);
        checkDataBytes(header, file.size() - static_cast<std::uint64_t>(header.dataStart), path);
        const auto have = static_cast<std::uint64_t>(bytes.size());
        bytes.resize(static_cast<qsizetype>(header.dataStart + static_cast<qsizetype>(header.dataBytes)));
        file.read(bytes.data() + have,
                  static_cast<std::size_t>(static_cast<std::uint64_t>(bytes.size()) - have));
        return parseDescriptorArray(bytes, path);
    } catch (const std::bad_alloc&) {
        refuse(path, QString("out of memory for its %1 bytes").arg(file.size()));
    }
}

bow::Matrix readVocabulary(const QString& path) {
    bow::Matrix centroids = readDescriptorArray(path);
    if (centroids.rows() == 0) refuse(path, "the vocabulary has no centroids (shape (0, 64))");
    return centroids;
}

namespace {

// Version 1.0 with `descr` (little-endian, as the host writes it), C order, `shape`, then `dataBytes` of
// data.
QByteArray arrayBytes(const char* descr, const std::vector<std::size_t>& shape, const void* data,
                      std::size_t dataBytes) {
    QStringList dimensions;
    for (const std::size_t dimension : shape) dimensions << QString::number(dimension);
    // A 1-D shape is written (n,) as numpy does.
    const QString shapeText = dimensions.join(", ") + (shape.size() == 1 ? "," : "");
    QByteArray header =
        QString("{'descr': '%1', 'fortran_order': False, 'shape': (%2), }").arg(descr, shapeText).toLatin1();
    // numpy pads with spaces so that the data starts at a multiple of 64 bytes, and ends the header with
    // '\n'.
    const qsizetype unpadded = kPreamble + 2 + header.size() + 1;
    header.append(QByteArray((64 - unpadded % 64) % 64, ' ')).append('\n');
    QByteArray bytes = kMagic;
    bytes.append(char{1}).append(char{0});
    bytes.append(static_cast<char>(header.size() & 0xff)).append(static_cast<char>(header.size() >> 8));
    bytes.append(header);
    bytes.append(static_cast<const char*>(data), static_cast<qsizetype>(dataBytes));
    return bytes;
}

}  // namespace

QByteArray descriptorArrayBytes(const bow::Matrix& matrix) {
    return arrayBytes("<f4", {matrix.rows(), bow::kDimensions}, matrix.values.data(),
                      matrix.values.size() * sizeof(float));
}

QByteArray uint32ArrayBytes(const std::vector<std::size_t>& shape, const std::vector<std::uint32_t>& values) {
    return arrayBytes("<u4", shape, values.data(), values.size() * sizeof(std::uint32_t));
}

void writeUint32Array(const QString& path, const std::vector<std::size_t>& shape,
                      const std::vector<std::uint32_t>& values) {
    writeFileAtomically(path, uint32ArrayBytes(shape, values));
}

void writeDescriptorArray(const QString& path, const bow::Matrix& matrix) {
    writeFileAtomically(path, descriptorArrayBytes(matrix));
}

}  // namespace hs::io
