#pragma once
// File names between the system's bytes and Qt's strings without loss. Linux allows any bytes in a name but
// '/' and NUL, while Qt decodes names as UTF-8 and turns every invalid byte into U+FFFD, so such a file
// could be named on a command line and still not be found. Here a byte that is not part of valid UTF-8 is
// carried as the lone surrogate U+DC00 + byte (Python's "surrogateescape"), which no valid text contains,
// and turned back into that byte on the way out; valid UTF-8 maps as Qt maps it.

#include <QString>
#include <QStringList>
#include <filesystem>
#include <string_view>

namespace hs::io {

QString pathFromNative(std::string_view bytes);
// The bytes of a name pathFromNative() made, or of any QString (in UTF-8).
std::filesystem::path nativePath(const QString& path);
// argv[1..argc-1] through pathFromNative(): the command line as typed, names of any bytes included.
QStringList argumentsFromNative(int argc, const char* const* argv);

}  // namespace hs::io
