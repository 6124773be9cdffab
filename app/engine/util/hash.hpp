#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hs {

// FNV-1a, 64 bit: a stable, dependency-free fingerprint for cache keys (not for security).
constexpr std::uint64_t fnv1a64(std::string_view data, std::uint64_t hash = 0xcbf29ce484222325ULL) {
    for (const char c : data) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

inline std::string toHex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i, value >>= 4) text[static_cast<std::size_t>(i)] = digits[value & 0xF];
    return text;
}

}  // namespace hs
