#pragma once
// The engine's own cache files (program binaries, auto's remembered choices) replaced as a whole: a reader
// (another process included) sees the old contents or the new ones, never a part, and a write that fails
// leaves the old file as it was. Engine-private: the engine cannot depend on io, and a cache write that fails
// is not an error, so this returns the reason instead of throwing. Every user-facing file is written through
// io/files' writeFileAtomically.

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace hs {

// Streams `write` into a uniquely named file beside `path`, then renames it over `path`. Returns why that
// failed, in words ("cannot write: No space left on device"), with the temporary file removed; empty on
// success. An exception from `write` also removes the temporary file and then propagates. `permissions`, when
// given, are set on the new file before anything is written to it (else the umask decides).
std::string replaceCacheFile(const std::filesystem::path& path,
                             const std::function<void(std::ostream&)>& write,
                             std::optional<std::filesystem::perms> permissions = std::nullopt);

}  // namespace hs
