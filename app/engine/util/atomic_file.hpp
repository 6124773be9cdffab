#pragma once
// The project's one atomic writer. io hands it on as io::writeFileAtomically, through which every user-facing
// file is written; the engine's own cache files (program binaries, auto's remembered choices) use it through
// replaceCacheFile, since the engine cannot depend on io.

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace hs {

// Writes `data` to a temporary file beside `path` and renames it over `path`, so a reader, a failed write and
// a writer killed mid-way all leave the previous file whole. Throws hs::InputError "<path>: cannot write:
// <reason in words>" ("No space left on device"). Refuses to replace anything but a regular file (a FIFO or
// device node at `path` stays as it is). A symbolic link stays one: its target gets the new contents.
// Temporaries that killed writers left beside `path` go at the next write to it. The new file gets
// `permissions` when given, else those of the file it replaces, else what the umask leaves of 0666.
void writeFileAtomically(const std::filesystem::path& path, std::string_view data,
                         std::optional<std::filesystem::perms> permissions = std::nullopt);
// Throws hs::InputError when something other than a regular file (a folder, FIFO, socket, device) is at
// `path`, which writeFileAtomically() would refuse to replace: for checking outputs before work starts.
void checkReplaceable(const std::filesystem::path& path);

// A cache file replaced with what `write` streams: a cache that cannot be written is not an error, so this
// returns writeFileAtomically's one-line reason instead of throwing (empty on success). An exception from
// `write` propagates before any file is touched.
std::string replaceCacheFile(const std::filesystem::path& path,
                             const std::function<void(std::ostream&)>& write,
                             std::optional<std::filesystem::perms> permissions = std::nullopt);

}  // namespace hs
