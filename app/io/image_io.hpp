#pragma once
// Image files to pixels and back for Qt's strings: a thin layer over io/decode (the codec libraries, no
// QtGui), so histoscope-cli links QtCore only. saveImage(path, QImage) alone needs QtGui: it is defined in
// histoscope_io_gui, which the GUI links.

#include <QString>
#include <QStringList>
#include <cstdint>

#include "engine/image/image.hpp"

class QImage;

namespace hs::io {

struct LoadOptions {
    // Refuse images whose decoded RGBA8 size would exceed this, before allocating (decompression bombs).
    // Default 1 GiB; $HISTOSCOPE_MAX_IMAGE_BYTES overrides the default.
    std::uint64_t maxDecodedBytes = defaultMaxDecodedBytes();

    // 1 GiB, or $HISTOSCOPE_MAX_IMAGE_BYTES (bytes, or with a K/M/G suffix); throws hs::UsageError when that
    // variable is not a positive byte count.
    static std::uint64_t defaultMaxDecodedBytes();
};

// Decodes PNG, JPEG, BMP, GIF, TIFF or WebP to RGBA8 as io/decode/image_codecs.hpp describes: 16-bit channels
// become round(v / 257), grey sets r = g = b, no alpha gives a = 255, every pixel defined. Throws
// hs::InputError with one line "<path>: <reason>" for a missing, empty, truncated, corrupt, unsupported,
// zero-sized or too large file; never returns a partial image.
ImageRGBA8 loadImage(const QString& path, const LoadOptions& options = {});

// Writes `image` in the format named by the suffix of `path` (png, jpg, bmp, tif, webp), atomically.
// Throws hs::InputError "<path>: <reason>" when it cannot.
void saveImage(const QString& path, const ImageRGBA8& image);
// The same for `width` x `height` RGBA8 pixels that live elsewhere (a mapped device buffer): encoded from
// where they are, without a copy.
void saveImage(const QString& path, const std::uint8_t* pixels, int width, int height);
// The same for an image Qt drew (a window's screenshot); in histoscope_io_gui.
void saveImage(const QString& path, const QImage& image);

// Throws hs::UsageError when the suffix of `path` names no format saveImage() writes, hs::InputError when
// something saveImage() would refuse to replace is at `path`: checked before any work, so none is wasted.
void checkImageOutput(const QString& path);

// Lower-case suffixes loadImage() reads here ("png", "jpg", ...), for file dialogs and drops.
QStringList readableSuffixes();
// A file-dialog filter such as "Images (*.png *.jpg ...)".
QString openDialogFilter();

}  // namespace hs::io
