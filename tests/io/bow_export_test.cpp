// The visual-words exports: hand-made word histograms and sweep rows written and read back, absent figures
// empty (CSV) or null (JSON), a detail with a comma quoted.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "io/bow_export.hpp"

namespace hs::io {
namespace {

QStringList lines(const QByteArray& text) {
    return QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

WordsContext handMadeContext() {
    WordsContext context;
    context.imagePath = QStringLiteral("/data/photo.png");
    context.imageWidth = 320;
    context.imageHeight = 240;
    context.strategy = QStringLiteral("bow-serial");
    context.window = 60;
    context.stride = 17;
    context.vocabulary = QStringLiteral("words.npy");
    return context;
}

std::vector<bow::SweepRow> handMadeRows() {
    bow::SweepRow measured;
    measured.descriptors = 1024;
    measured.centroids = 16;
    measured.strategy = "bow-gpu2-coalesced";
    measured.onDevice = true;
    measured.kernel = measure::Summary{1000, 2500.5, 4000};
    measured.transpose = measure::Summary{10, 20, 30};
    measured.speedupOverGpu1 = 1.5;
    measured.detail = "-D A=1, -D B=2";
    bow::SweepRow skipped;
    skipped.descriptors = 1024;
    skipped.centroids = 16;
    skipped.strategy = "bow-serial";
    skipped.detail = "no OpenCL device";
    return {measured, skipped};
}

TEST(BowExport, WordHistogramCsvHasTheContextThenOneRowPerWord) {
    const QStringList text = lines(wordHistogramCsv({3, 0, 7}, handMadeContext()));
    EXPECT_TRUE(text.contains(QStringLiteral("# image: /data/photo.png")));
    EXPECT_TRUE(text.contains(QStringLiteral("# device: none")));
    EXPECT_TRUE(text.contains(QStringLiteral("# window: 60")));
    EXPECT_TRUE(text.contains(QStringLiteral("# stride: 17")));
    EXPECT_TRUE(text.contains(QStringLiteral("# words: 3")));
    EXPECT_TRUE(text.contains(QStringLiteral("# vocabulary: words.npy")));
    const auto header = text.indexOf(QStringLiteral("word,descriptors"));
    ASSERT_GE(header, 0);
    EXPECT_EQ(text.mid(header + 1), (QStringList{"0,3", "1,0", "2,7"}));
}

TEST(BowExport, WordHistogramJsonReadsBack) {
    const QJsonObject document =
        QJsonDocument::fromJson(wordHistogramJson({3, 0, 7}, handMadeContext())).object();
    EXPECT_EQ(document["histogram"].toArray(), (QJsonArray{3, 0, 7}));
    const QJsonObject context = document["context"].toObject();
    EXPECT_EQ(context["image"]["width"].toInt(), 320);
    EXPECT_TRUE(context["device"].isNull());
    EXPECT_EQ(context["strategy"].toString(), "bow-serial");
    EXPECT_EQ(context["words"].toInt(), 3);
}

TEST(BowExport, SweepCsvLeavesAbsentFiguresEmptyAndQuotesTheDetail) {
    const QStringList text = lines(sweepCsv(handMadeRows()));
    ASSERT_EQ(text.size(), 3);
    EXPECT_EQ(text[1], QStringLiteral("1024,16,bow-gpu2-coalesced,device,1000,2500.5,4000,10,20,30,1.5,0,"
                                      "\"-D A=1, -D B=2\""));
    EXPECT_EQ(text[2], QStringLiteral("1024,16,bow-serial,host,,,,,,,,0,no OpenCL device"));
}

TEST(BowExport, SweepJsonHasNullsForAbsentFigures) {
    bow::SweepParams params;
    params.repetitions = 7;
    const QJsonObject document = QJsonDocument::fromJson(sweepJson(nullptr, params, handMadeRows())).object();
    EXPECT_TRUE(document["device"].isNull());
    EXPECT_EQ(document["repetitions"].toInt(), 7);
    const QJsonArray rows = document["rows"].toArray();
    ASSERT_EQ(rows.size(), 2);
    EXPECT_EQ(rows[0]["kernel_ns"]["median"].toDouble(), 2500.5);
    EXPECT_EQ(rows[0]["transpose_ns"]["max"].toDouble(), 30);
    EXPECT_EQ(rows[0]["speedup_over_gpu1"].toDouble(), 1.5);
    EXPECT_EQ(rows[0]["clock"].toString(), "device");
    EXPECT_TRUE(rows[1]["kernel_ns"].isNull());
    EXPECT_TRUE(rows[1]["transpose_ns"].isNull());
    EXPECT_TRUE(rows[1]["speedup_over_gpu1"].isNull());
    EXPECT_EQ(rows[1]["detail"].toString(), "no OpenCL device");
}

}  // namespace
}  // namespace hs::io
