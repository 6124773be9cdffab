#include "util/atomic_file.hpp"

#include <cerrno>
#include <fstream>
#include <random>
#include <system_error>

namespace hs {

namespace {

// The stream reports only that it failed; the system call under it left the reason in errno.
std::string failure(std::string_view what, int error) {
    return std::string(what) + ": " + (error != 0 ? std::generic_category().message(error) : "write failed");
}

}  // namespace

std::string replaceCacheFile(const std::filesystem::path& path,
                             const std::function<void(std::ostream&)>& write,
                             std::optional<std::filesystem::perms> permissions) {
    // Unique per writer, so two processes replacing the same file never write into each other's temporary.
    auto temporary = path;
    temporary += ".tmp" + std::to_string(std::random_device{}());
    std::error_code ignored;
    errno = 0;
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out && permissions) std::filesystem::permissions(temporary, *permissions, ignored);
    try {
        if (out) write(out);
    } catch (...) {
        out.close();
        std::filesystem::remove(temporary, ignored);
        throw;
    }
    // close() flushes what is still buffered: a full disk often shows only here.
    out.close();
    if (!out) {
        const std::string reason = failure("cannot write", errno);
        std::filesystem::remove(temporary, ignored);
        return reason;
    }
    std::error_code renamed;
    std::filesystem::rename(temporary, path, renamed);
    if (renamed) {
        std::filesystem::remove(temporary, ignored);
        return "cannot replace it: " + renamed.message();
    }
    return {};
}

}  // namespace hs
