// Descriptor and vocabulary arrays (.npy) on arbitrary bytes: a matrix of rows x 64 finite floats that writes
// back to the same bytes' data, or one InputError line.
#include <QByteArray>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "engine/runtime/error.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const hs::bow::Matrix matrix = hs::io::parseDescriptorArray(bytes, "fuzz.npy");
        if (matrix.values.size() % hs::bow::kDimensions != 0) std::abort();
        for (const float value : matrix.values) {
            if (!std::isfinite(value)) std::abort();
        }
        // The values are the file's last bytes, unchanged; what is written back reads back as the same
        // matrix.
        const std::size_t dataBytes = matrix.values.size() * sizeof(float);
        if (dataBytes > size) std::abort();
        if (dataBytes > 0 && std::memcmp(matrix.values.data(), data + size - dataBytes, dataBytes) != 0)
            std::abort();
        const hs::bow::Matrix again =
            hs::io::parseDescriptorArray(hs::io::descriptorArrayBytes(matrix), "written.npy");
        if (again.values != matrix.values) std::abort();
    } catch (const hs::InputError&) {
    }
    return 0;
}
