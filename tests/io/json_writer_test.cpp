// hs::JsonWriter, the project's one JSON writer, checked by reading its output back with Qt's parser (an
// independent reader) and, where the exact text matters, against hand-written text.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/util/json_writer.hpp"

namespace hs {
namespace {

std::string compact(const std::function<void(JsonWriter&)>& write) {
    return jsonDocument(write, JsonWriter::Layout::Compact);
}

QJsonDocument reread(const std::string& text) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString() << " in " << text;
    return document;
}

// The string `text` as a one-element array, read back.
QString roundTrip(std::string_view text) {
    const QJsonArray array =
        reread(compact([&](JsonWriter& json) { json.beginArray().value(text).endArray(); })).array();
    EXPECT_EQ(array.size(), 1);
    return array.at(0).toString();
}

TEST(JsonWriter, EscapesEveryControlCharacterQuoteAndBackslash) {
    std::string text;
    for (char c = 1; c < 0x20; ++c) text += c;
    text += "\"\\/\x7f";
    QString expected;
    for (char16_t c = 1; c < 0x20; ++c) expected += QChar(c);
    expected += QStringLiteral("\"\\/\x7f");
    EXPECT_EQ(roundTrip(text), expected);
    // No raw control character is left in the text, and the short forms are used where JSON has them.
    const std::string written = compact([&](JsonWriter& json) { json.value(text); });
    for (std::size_t i = 0; i + 1 < written.size(); ++i)
        EXPECT_GE(static_cast<unsigned char>(written[i]), 0x20) << "raw byte at " << i << " of " << written;
    EXPECT_NE(written.find("\\b\\t\\n\\u000b\\f\\r\\u000e"), std::string::npos) << written;
}

TEST(JsonWriter, KeepsValidUtf8AndReplacesInvalidBytes) {
    // é (2 bytes), 中 (3 bytes), 😀 (4 bytes, a surrogate pair in UTF-16): through unchanged.
    EXPECT_EQ(roundTrip("caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80"),
              QStringLiteral(u"caf\u00e9 \u4e2d ") + QString::fromUcs4(U"\U0001F600"));
    EXPECT_EQ(compact([](JsonWriter& json) { json.value("\xC3\xA9"); }), "\"\xC3\xA9\"\n");
    // A lone continuation byte, a cut-off sequence, an overlong '/', an encoded surrogate and a byte that
    // never occurs in UTF-8: each byte that is not part of a valid sequence becomes U+FFFD.
    const QString replacement(QChar(0xFFFD));
    EXPECT_EQ(roundTrip("a\x80z"), "a" + replacement + "z");
    EXPECT_EQ(roundTrip("a\xE4\xB8z"), "a" + replacement + replacement + "z");
    EXPECT_EQ(roundTrip("\xC0\xAF"), replacement + replacement);
    EXPECT_EQ(roundTrip("\xED\xA0\x80"), replacement + replacement + replacement);
    EXPECT_EQ(roundTrip("\xFF"), replacement);
    EXPECT_EQ(roundTrip("\xF4\x90\x80\x80"), QString(4, QChar(0xFFFD)));  // above U+10FFFF
}

TEST(JsonWriter, EscapesKeysAsValues) {
    const QJsonObject object = reread(compact([](JsonWriter& json) {
                                   json.beginObject().field("a \"b\"\n\xC3\xA9", 1).endObject();
                               })).object();
    EXPECT_EQ(object.keys(), QStringList{QStringLiteral(u"a \"b\"\n\u00e9")});
}

TEST(JsonWriter, NestsObjectsAndArraysInBothLayouts) {
    const auto write = [](JsonWriter& json) {
        json.beginObject();
        json.key("empty object").beginObject().endObject();
        json.key("empty array").beginArray().endArray();
        json.key("rows").beginArray();
        for (int row = 0; row < 2; ++row) {
            json.beginObject().field("row", row).key("cells").beginArray();
            json.beginArray().value(row).value(true).null().endArray();
            json.value("x").endArray().endObject();
        }
        json.endArray();
        json.field("last", false);
        json.endObject();
    };
    const QJsonObject expected{
        {"empty object", QJsonObject{}},
        {"empty array", QJsonArray{}},
        {"rows",
         QJsonArray{QJsonObject{{"row", 0}, {"cells", QJsonArray{QJsonArray{0, true, QJsonValue()}, "x"}}},
                    QJsonObject{{"row", 1}, {"cells", QJsonArray{QJsonArray{1, true, QJsonValue()}, "x"}}}}},
        {"last", false},
    };
    const std::string flat = compact(write);
    EXPECT_EQ(reread(flat).object(), expected);
    EXPECT_EQ(flat, R"({"empty object":{},"empty array":[],"rows":[{"row":0,"cells":[[0,true,null],"x"]},)"
                    R"({"row":1,"cells":[[1,true,null],"x"]}],"last":false})"
                    "\n");
    const std::string indented = jsonDocument(write);
    EXPECT_EQ(reread(indented).object(), expected);
    EXPECT_NE(indented.find("\n    \"rows\": [\n        {\n            \"row\": 0,"), std::string::npos)
        << indented;
    EXPECT_NE(indented.find("\"empty object\": {},"), std::string::npos) << indented;
}

TEST(JsonWriter, WritesIntegersAsIntegers) {
    const std::string text = compact([](JsonWriter& json) {
        json.beginArray()
            .value(std::numeric_limits<std::int64_t>::min())
            .value(std::numeric_limits<std::int64_t>::max())
            .value(std::numeric_limits<std::uint64_t>::max())
            .value(0)
            .value(-7)
            .value(4096u)
            .endArray();
    });
    EXPECT_EQ(text, "[-9223372036854775808,9223372036854775807,18446744073709551615,0,-7,4096]\n");
    const QJsonArray array = reread(text).array();
    EXPECT_EQ(array.at(1).toInteger(), std::numeric_limits<qint64>::max());
}

TEST(JsonWriter, WritesDoublesThatReadBackExactly) {
    const double values[] = {0.1,  1.0 / 3.0, -2.5e-300, 1.7976931348623157e308, 4.9e-324, 123456.789, -0.5,
                             45.0, 1e21,      1e-7};
    std::string text = compact([&](JsonWriter& json) {
        json.beginArray();
        for (const double value : values) json.value(value);
        json.endArray();
    });
    EXPECT_EQ(text.substr(0, text.find(',', text.find(',') + 1)), "[0.1,0.3333333333333333")
        << "shortest form";
    EXPECT_NE(text.find(",45,"), std::string::npos) << "a whole double reads as QJson wrote it: " << text;
    const QJsonArray array = reread(text).array();
    ASSERT_EQ(array.size(), static_cast<qsizetype>(std::size(values)));
    // Each number in the text reads back (strtod, as any C reader) to the very double written.
    const char* cursor = text.c_str() + 1;
    for (std::size_t i = 0; i < std::size(values); ++i) {
        char* end = nullptr;
        EXPECT_EQ(std::strtod(cursor, &end), values[i]) << i;
        EXPECT_EQ(array.at(static_cast<qsizetype>(i)).toDouble(), values[i]) << i;
        cursor = end + 1;
    }
}

TEST(JsonWriter, WritesNullForNumbersJsonCannotHold) {
    const QJsonArray array = reread(compact([](JsonWriter& json) {
                                 json.beginArray()
                                     .value(std::nan(""))
                                     .value(std::numeric_limits<double>::infinity())
                                     .value(-std::numeric_limits<double>::infinity())
                                     .endArray();
                             })).array();
    EXPECT_EQ(array, (QJsonArray{QJsonValue(), QJsonValue(), QJsonValue()}));
}

}  // namespace
}  // namespace hs
