#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hs {

// The one JSON writer of the project (CLI, bench, the io exports), streaming and without a Qt dependency.
// Commas, indentation and escaping are handled here; the caller only says what comes next.
//
// Strings: control characters are escaped (\n, \t, ... or \u00XX), valid UTF-8 passes through unchanged and
// each byte of an invalid UTF-8 sequence becomes U+FFFD, so the output is always valid UTF-8 JSON. Numbers:
// integers are written as integers; doubles in the shortest form that reads back to the same double
// (45.0 as 45, 0.1 as 0.1); NaN and infinities, which JSON lacks, as null.
class JsonWriter {
  public:
    enum class Layout { Compact, Indented };  // Indented: one member per line, four spaces per level

    explicit JsonWriter(std::ostream& out, Layout layout = Layout::Compact) : out_(out), layout_(layout) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(bool flag);
    JsonWriter& value(double number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
    JsonWriter& value(long long number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned long long number) { return value(static_cast<std::uint64_t>(number)); }
    JsonWriter& null();

    template <typename T>
    JsonWriter& field(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }

  private:
    void separate();
    void close(char bracket);
    void newLine(std::size_t depth);
    void writeString(std::string_view text);

    std::ostream& out_;
    Layout layout_;
    std::vector<bool> firstInScope_;
    bool afterKey_ = false;
};

// A whole document: what `write` writes, laid out as `layout`, ending in a newline.
std::string jsonDocument(const std::function<void(JsonWriter&)>& write,
                         JsonWriter::Layout layout = JsonWriter::Layout::Indented);

}  // namespace hs
