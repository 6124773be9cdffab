// histoscope-cli vocabulary IMAGE... --k K --out C.npy [--window W --stride S] [--seed N] [--device SEL]
//                           [--strategy NAME]
// k-means (ops/bow/kmeans.hpp) over the dense descriptors of every image, written as a .npy vocabulary that
// `bow IMAGE --vocabulary C.npy` reads.

#include "commands/descriptor_options.hpp"
#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "ops/bow/kmeans.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

void declare(ArgumentParser& parser, const QStringList&) {
    parser.addRepeatedPositional("IMAGE...", "PNG, JPEG, BMP, GIF, TIFF or WebP files.");
    parser.addOption("k", "K", "Number of words.", QString::number(bow::KMeansParams{}.k));
    parser.addOption("out", "C.npy", "Where the vocabulary is written (float32 .npy, K x 64).");
    parser.require("out");
    parser.addOption("seed", "N", "Seed of the k-means++ seeding.", "1");
    addDescriptorOptions(parser);
    addDeviceOption(parser);
    parser.addOption("strategy", "NAME", "Builder strategy of the assignment steps.",
                     text(bow::kDefaultStrategy));
}

int run(const ArgumentParser& parser) {
    bow::KMeansParams params;
    params.k = static_cast<std::size_t>(parser.integer("k", 1, 1 << 20));
    params.seed = static_cast<std::uint64_t>(parser.integer("seed", 0, 1 << 30));
    const QString out = parser.value("out");
    io::checkReplaceable(out);  // before k-means, so that none is wasted on an output that cannot be written
    const bow::DescriptorParams descriptorParams = descriptorParamsFrom(parser);
    const bow::Strategy& strategy = bow::findStrategy(parser.value("strategy").toStdString());

    Runtime runtime;
    DeviceContext& device = runtime.open(deviceFrom(parser));
    bow::Matrix descriptors;
    const QStringList images = parser.positionals();
    for (const QString& path : images) {
        const ImageRGBA8 image = io::loadImage(path);
        PixelSource pixels(image);
        const auto computed = bow::computeDescriptors(device, pixels, descriptorParams);
        if (computed.descriptors.rows() == 0)
            throw InputError(path.toStdString() + ": smaller than one descriptor window (" +
                             std::to_string(descriptorParams.window) + " pixels and a margin)");
        descriptors.values.insert(descriptors.values.end(), computed.descriptors.values.begin(),
                                  computed.descriptors.values.end());
    }
    try {
        bow::validate(params, descriptors.rows());
    } catch (const UsageError& error) {
        throw parser.usageError("--" + QString::fromUtf8(error.what()));  // "k 9 is not within ..."
    }
    const auto result = bow::kmeans(&device, descriptors, params, strategy);
    io::writeDescriptorArray(out, result.centroids);
    printText(QString("%1 words from %2 descriptors of %3 image(s), %4 iteration(s)%5 -> %6\n")
                  .arg(result.centroids.rows())
                  .arg(descriptors.rows())
                  .arg(images.size())
                  .arg(result.iterations)
                  .arg(result.converged ? ", converged" : ", not converged")
                  .arg(out));
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {.name = "vocabulary",
     .summary = "build a vocabulary of visual words from images",
     .description = "Builds a vocabulary of K visual words from the dense descriptors of images.",
     .declare = declare,
     .run = run});

}  // namespace

}  // namespace hs::cli
