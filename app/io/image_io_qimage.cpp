// The one part of image_io that needs QtGui: a picture Qt drew, saved through the same encoders.
#include <QImage>

#include "engine/runtime/error.hpp"
#include "io/image_io.hpp"

namespace hs::io {

void saveImage(const QString& path, const QImage& image) {
    if (image.isNull()) throw InputError((path + ": no image to write").toStdString());
    const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
    if (rgba.bytesPerLine() == rgba.width() * 4) {
        saveImage(path, rgba.constBits(), rgba.width(), rgba.height());
        return;
    }
    ImageRGBA8 packed(rgba.width(), rgba.height());
    for (int y = 0; y < rgba.height(); ++y)
        std::copy_n(rgba.constScanLine(y), static_cast<std::size_t>(rgba.width()) * 4, packed.pixel(0, y));
    saveImage(path, packed);
}

}  // namespace hs::io
