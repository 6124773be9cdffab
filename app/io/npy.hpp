#pragma once
// NumPy .npy arrays. Descriptor and vocabulary files: float32 with 64 columns (numpy.load() reads what
// writeDescriptorArray() writes, numpy.save() writes what readDescriptorArray() reads). Counts (a scope's):
// uint32 of any shape, written only.
//
// Accepted: format version 1.0, 2.0 or 3.0; dtype '<f4' (little-endian float32); C order; shape (rows, 64);
// exactly rows * 64 * 4 bytes of data after the header; every value finite; a key the header gives twice has
// its last value, as numpy reads it. Anything else is refused with hs::InputError "<path>: <reason>", one
// line. Files are read only when they are regular files (not /dev/zero, not a FIFO) whose size is what
// their header promises, checked before the data is read.

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/ops/bow/bow.hpp"

namespace hs::io {

bow::Matrix readDescriptorArray(const QString& path);
// A vocabulary: the same, and at least one centroid.
bow::Matrix readVocabulary(const QString& path);
// The same checks on the bytes of a file; `path` only names it in errors.
bow::Matrix parseDescriptorArray(const QByteArray& bytes, const QString& path);

// Version 1.0, '<f4', C order, shape (rows, 64); header padded to 64 bytes as numpy does. Written atomically.
void writeDescriptorArray(const QString& path, const bow::Matrix& matrix);
QByteArray descriptorArrayBytes(const bow::Matrix& matrix);

// Version 1.0, '<u4', C order, `shape` (whose product is values.size()); written atomically.
void writeUint32Array(const QString& path, const std::vector<std::size_t>& shape,
                      const std::vector<std::uint32_t>& values);
QByteArray uint32ArrayBytes(const std::vector<std::size_t>& shape, const std::vector<std::uint32_t>& values);

}  // namespace hs::io
