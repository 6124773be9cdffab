#include "engine/util/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace hs {

namespace {

// The length of the well-formed UTF-8 sequence at the start of `text` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t utf8SequenceLength(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const auto continuation = [&](std::size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
    const unsigned char lead = byte(0);
    if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
    if (lead >= 0xE0 && lead <= 0xEF) {
        if (!continuation(1) || !continuation(2)) return 0;
        if (lead == 0xE0 && byte(1) < 0xA0) return 0;  // overlong
        if (lead == 0xED && byte(1) > 0x9F) return 0;  // UTF-16 surrogate
        return 3;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
        if (lead == 0xF0 && byte(1) < 0x90) return 0;  // overlong
        if (lead == 0xF4 && byte(1) > 0x8F) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;
}

}  // namespace

void JsonWriter::newLine(std::size_t depth) {
    if (layout_ != Layout::Indented) return;
    out_ << '\n';
    for (std::size_t level = 0; level < depth; ++level) out_ << "    ";
}

void JsonWriter::separate() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!firstInScope_.empty()) {
        if (!firstInScope_.back()) out_ << ',';
        firstInScope_.back() = false;
        newLine(firstInScope_.size());
    }
}

void JsonWriter::close(char bracket) {
    const bool empty = firstInScope_.back();
    firstInScope_.pop_back();
    if (!empty) newLine(firstInScope_.size());
    out_ << bracket;
}

void JsonWriter::writeString(std::string_view text) {
    out_ << '"';
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const std::size_t length = utf8SequenceLength(text.substr(i));
            if (length == 0) {
                out_ << "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
                ++i;
            } else {
                out_ << text.substr(i, length);
                i += length;
            }
            continue;
        }
        switch (c) {
            case '"':
                out_ << "\\\"";
                break;
            case '\\':
                out_ << "\\\\";
                break;
            case '\b':
                out_ << "\\b";
                break;
            case '\f':
                out_ << "\\f";
                break;
            case '\n':
                out_ << "\\n";
                break;
            case '\r':
                out_ << "\\r";
                break;
            case '\t':
                out_ << "\\t";
                break;
            default:
                if (c < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out_ << escaped;
                } else {
                    out_ << static_cast<char>(c);
                }
        }
        ++i;
    }
    out_ << '"';
}

JsonWriter& JsonWriter::beginObject() {
    separate();
    out_ << '{';
    firstInScope_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    close('}');
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separate();
    out_ << '[';
    firstInScope_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    close(']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    writeString(name);
    out_ << (layout_ == Layout::Indented ? ": " : ":");
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    separate();
    writeString(text);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    separate();
    out_ << (flag ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::value(double number) {
    separate();
    if (!std::isfinite(number)) {
        out_ << "null";  // JSON has no NaN or infinity
        return *this;
    }
    char text[32];
    // The shortest text that reads back as the same double.
    const auto result = std::to_chars(text, text + sizeof text, number);
    out_ << std::string_view(text, static_cast<std::size_t>(result.ptr - text));
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
    separate();
    out_ << number;
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
    separate();
    out_ << number;
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    out_ << "null";
    return *this;
}

std::string jsonDocument(const std::function<void(JsonWriter&)>& write, JsonWriter::Layout layout) {
    std::ostringstream text;
    JsonWriter json(text, layout);
    write(json);
    text << '\n';
    return std::move(text).str();
}

}  // namespace hs
