#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace hs {

// A small streaming JSON writer for machine-readable output (CLI, bench) without a Qt dependency.
// Commas and escaping are handled here; the caller only says what comes next.
class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(bool flag);
    JsonWriter& value(double number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
    JsonWriter& null();

    template <typename T>
    JsonWriter& field(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }

  private:
    void separate();
    void writeString(std::string_view text);

    std::ostream& out_;
    std::vector<bool> firstInScope_;
    bool afterKey_ = false;
};

}  // namespace hs
