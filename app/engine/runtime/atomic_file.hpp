#pragma once
// The project's one atomic writer. io hands it on as io::writeFileAtomically, through which every user-facing
// file is written; the engine's own cache files (program binaries, auto's remembered choices) use it through
// replaceCacheFile, since the engine cannot depend on io.

#include <cstdint>
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
// device node at `path` stays as it is). A symbolic link stays one: its target gets the new contents, and a
// dangling link's target is created, as the shell's `>` does. A write interrupted by SIGINT, SIGTERM or
// SIGHUP removes its temporary before the process ends; temporaries that killed writers left beside `path`
// go at the next write to it. The new file gets `permissions` when given, else those of the file it
// replaces, else what the umask leaves of 0666.
void writeFileAtomically(const std::filesystem::path& path, std::string_view data,
                         std::optional<std::filesystem::perms> permissions = std::nullopt);
// Installs, once per process, the handlers of SIGINT, SIGTERM and SIGHUP that remove a write's temporary (the
// first write does it too, for the signals whose action is still the default): a program that then handles
// SIGINT itself finds them installed and can hand the signal on to them.
void removeTemporariesOnInterrupt();
// Throws hs::InputError when something other than a regular file (a folder, FIFO, socket, device) is at
// `path`, which writeFileAtomically() would refuse to replace: for checking outputs before work starts.
void checkReplaceable(const std::filesystem::path& path);

// A cache file replaced with what `write` streams: a cache that cannot be written is not an error, so this
// returns writeFileAtomically's one-line reason instead of throwing (empty on success). An exception from
// `write` propagates before any file is touched. Unlike writeFileAtomically, a symbolic link at `path` is
// replaced, never written through.
std::string replaceCacheFile(const std::filesystem::path& path,
                             const std::function<void(std::ostream&)>& write,
                             std::optional<std::filesystem::perms> permissions = std::nullopt);

// The cache's folders and files are trusted as ssh trusts its own: this user's, writable by no one else,
// and never a symbolic link inside the cache. Why the folder at `path` cannot hold cache files ("is writable
// by others (mode 0777)", "belongs to user 65534, not to this user (1000)", "is a symbolic link"); empty when
// it can, or does not exist. `followLink`: the cache's own folder may be reached through a link the user
// made (~/.cache on another disk); the folders inside it may not.
std::string cacheFolderDistrust(const std::filesystem::path& path, bool followLink);
// Why the cache file at `path` (a link not followed) cannot be trusted: as above, and "is a FIFO, not a
// regular file"; empty when it can, or does not exist.
std::string cacheFileDistrust(const std::filesystem::path& path);

// A cache file read without following a symbolic link and without waiting on a FIFO (opened non-blocking,
// then judged by what it is).
struct CacheFile {
    // Nothing when it is absent, unreadable, larger than asked for or not trusted.
    std::optional<std::string> contents;
    // Why it is not trusted, as cacheFileDistrust() says; empty when it is, or is absent.
    std::string distrust;
};
CacheFile readCacheFile(const std::filesystem::path& path, std::uint64_t maxBytes);

}  // namespace hs
