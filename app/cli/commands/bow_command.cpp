// histoscope-cli bow IMAGE --vocabulary C.npy [--window W --stride S] [--device SEL] [--strategy NAME]
// [--json] histoscope-cli bow --descriptors D.npy --centroids C.npy [--device SEL] [--strategy NAME] [--json]
// Assigns every descriptor (the image's dense descriptors, or an array's) to its nearest centroid
// (ops/bow/bow.hpp) and prints memberships, the word histogram and the timings.

#include <algorithm>

#include "cli/commands/descriptor_options.hpp"
#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "ops/bow/bow.hpp"
#include "runtime/device_properties.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

void writeJson(JsonWriter& json, const QString& descriptorsPath, const QString& centroidsPath,
               const bow::Matrix& descriptors, const bow::Matrix& centroids, const DeviceInfo* device,
               const bow::Strategy& requested, const bow::Result& result) {
    json.beginObject();
    json.field("input", descriptorsPath.toStdString()).field("centroids", centroidsPath.toStdString());
    json.field("descriptor_count", static_cast<std::uint64_t>(descriptors.rows()))
        .field("centroid_count", static_cast<std::uint64_t>(centroids.rows()));
    json.key("device");
    if (device != nullptr)
        writeDeviceJson(json, *device);
    else
        json.null();
    json.field("strategy", result.strategyName()).field("requested_strategy", requested.name());
    json.key("memberships").beginArray();
    for (const auto membership : result.memberships) json.value(static_cast<std::uint64_t>(membership));
    json.endArray();
    json.key("histogram").beginArray();
    for (const auto count : result.histogram) json.value(static_cast<std::uint64_t>(count));
    json.endArray();
    json.key("timings");
    io::writeTimingsJson(json, result.timings);
    json.endObject();
}

QString table(const bow::Matrix& descriptors, const bow::Matrix& centroids, const DeviceInfo* device,
              const bow::Result& result) {
    QString out = QString("descriptors %1, centroids %2\n").arg(descriptors.rows()).arg(centroids.rows());
    out += "device    " + (device ? text(device->name) : QString("none (host)")) + "\n";
    out += "strategy  " + text(result.strategyName()) + "\n\n";
    out += QString("%1 %2\n").arg("word", 6).arg("descriptors", 12);
    for (std::size_t word = 0; word < result.histogram.size(); ++word)
        out += QString("%1 %2\n").arg(word, 6).arg(result.histogram[word], 12);
    out += "\ntimings\n" + timingLines(result.timings, 28);
    return out;
}

// An array of descriptors, or an image whose descriptors are computed first: the two forms differ in their
// positional argument, which the parser counts, so the form is chosen from the arguments before parsing.
bool isArrayForm(const QStringList& arguments) {
    return std::any_of(arguments.begin(), arguments.end(), [](const QString& argument) {
        return argument == "--descriptors" || argument.startsWith("--descriptors=");
    });
}

void declare(ArgumentParser& parser, const QStringList& arguments) {
    if (isArrayForm(arguments)) {
        parser.addOption("descriptors", "D.npy", "Descriptors: float32 .npy of shape (rows, 64).");
        parser.require("descriptors");
        parser.addOption("centroids", "C.npy", "Vocabulary: float32 .npy of shape (k, 64).");
        parser.require("centroids");
    } else {
        addImageInput(parser);
        parser.addOption("vocabulary", "C.npy", "Vocabulary: float32 .npy of shape (k, 64).");
        parser.require("vocabulary");
        addDescriptorOptions(parser);
    }
    addDeviceOption(parser);
    parser.addOption("strategy", "NAME", "Builder strategy.", text(bow::kDefaultStrategy));
    addReportOptions(parser, "memberships, word histogram, timings");
}

int run(const ArgumentParser& parser) {
    const bool fromArray = isArrayForm(parser.arguments());
    const bow::Strategy& strategy = bow::findStrategy(parser.value("strategy").toStdString());
    const QString descriptorsPath = fromArray ? parser.value("descriptors") : imageFrom(parser);
    const QString centroidsPath = fromArray ? parser.value("centroids") : parser.value("vocabulary");
    const std::optional<bow::DescriptorParams> descriptorParams =
        fromArray ? std::nullopt : std::optional(descriptorParamsFrom(parser));
    const Report report = reportFrom(parser);

    const bow::Matrix centroids = io::readVocabulary(centroidsPath);
    std::optional<ImageRGBA8> image;
    if (!fromArray) image = io::loadImage(descriptorsPath);
    Runtime runtime;
    DeviceContext* device = strategy.runsOnDevice() || image ? &runtime.open(deviceFrom(parser)) : nullptr;
    bow::Matrix descriptors;
    std::vector<Timing> descriptorTimings;
    if (image) {
        PixelSource pixels(*image);
        auto computed = bow::computeDescriptors(*device, pixels, *descriptorParams);
        descriptors = std::move(computed.descriptors);
        descriptorTimings = std::move(computed.timings);
    } else {
        descriptors = io::readDescriptorArray(descriptorsPath);
    }
    bow::Result result = bow::assignWords(device, descriptors, centroids, strategy);
    result.timings.insert(result.timings.begin(), descriptorTimings.begin(), descriptorTimings.end());
    const DeviceInfo* info = device ? &device->info() : nullptr;
    report.publish(
        [&](JsonWriter& json) {
            writeJson(json, descriptorsPath, centroidsPath, descriptors, centroids, info, strategy, result);
        },
        [&] { return table(descriptors, centroids, info, result); });
    return 0;
}

[[maybe_unused]] const bool registered =
    registerCommand({"bow",
                     "assign descriptors to visual words and count them",
                     "Builds the visual-word histogram of an image's dense descriptors, or of an "
                     "array of descriptors (--descriptors D.npy --centroids C.npy), over a "
                     "vocabulary.",
                     declare,
                     run,
                     {{}, {"--descriptors"}}});  // the forms: of an image, of an array

}  // namespace

}  // namespace hs::cli
