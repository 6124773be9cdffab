// histoscope-cli stages: every registered stage kind (the engine's registry, read here directly), in order,
// with its parameters, strategies and default, and an option that pipeline accepts.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonObject>

#include "cli_runner.hpp"
#include "engine/stages/stage.hpp"

namespace hs::cli {
namespace {

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

TEST(StagesCli, ListsEveryRegisteredKindWithItsParametersAndStrategies) {
    const Outcome outcome = runCli({"stages", "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonArray listed = outcome.json()["stages"].toArray();
    const auto kinds = stages::kinds();
    ASSERT_EQ(listed.size(), static_cast<qsizetype>(kinds.size()));
    ASSERT_GE(kinds.size(), 5u) << "rotate, convolve, equalize, grayscale, histogram at least";
    const QString pipelineHelp = QString::fromUtf8(runCli({"pipeline", "--help"}).out);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const stages::StageKind& kind = *kinds[i];
        const QJsonObject entry = listed[static_cast<qsizetype>(i)].toObject();
        EXPECT_EQ(entry["name"].toString(), text(kind.name()));
        EXPECT_EQ(entry["produces_image"].toBool(), kind.producesImage());
        const QJsonArray parameters = entry["parameters"].toArray();
        ASSERT_EQ(parameters.size(), static_cast<qsizetype>(kind.parameters().size())) << kind.name();
        for (std::size_t p = 0; p < kind.parameters().size(); ++p)
            EXPECT_EQ(parameters[static_cast<qsizetype>(p)].toObject()["name"].toString(),
                      text(kind.parameters()[p].name));
        const QJsonArray strategies = entry["strategies"].toArray();
        ASSERT_EQ(strategies.size(), static_cast<qsizetype>(kind.strategies().size())) << kind.name();
        for (std::size_t s = 0; s < kind.strategies().size(); ++s)
            EXPECT_EQ(strategies[static_cast<qsizetype>(s)].toString(), text(kind.strategies()[s]->name()));
        EXPECT_EQ(entry["default_strategy"].toString(), text(kind.defaultStrategy())) << kind.name();
        // The option that adds an image stage is one pipeline takes.
        if (kind.producesImage()) {
            EXPECT_TRUE(pipelineHelp.contains(entry["option"].toString() + " "))
                << entry["option"].toString().toStdString();
        }
    }
}

TEST(StagesCli, TheTextNamesEachKindAndMarksTheDefaultStrategy) {
    const Outcome outcome = runCli({"stages"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QString out = QString::fromUtf8(outcome.out);
    EXPECT_TRUE(out.contains("--convolve-strategy")) << out.toStdString();
    EXPECT_TRUE(out.contains(text(stages::findKind("convolve").defaultStrategy()) + " (default)"));
    EXPECT_TRUE(out.contains("grayscale  Grayscale (outputs an image, --grayscale)"));
    const stages::Parameter& angle = *stages::findKind("rotate").parameter("angle");
    EXPECT_TRUE(out.contains(
        QString("--angle  real %1..%2, default %3").arg(angle.min).arg(angle.max).arg(angle.defaultValue)))
        << out.toStdString();
}

}  // namespace
}  // namespace hs::cli
