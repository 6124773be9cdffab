// histoscope-cli vocabulary IMAGE... --k K --out C.npy [--window W --stride S] [--seed N] [--device SEL]
//                           [--strategy NAME]
// k-means (ops/bow/kmeans.hpp) over the dense descriptors of every image, written as a .npy vocabulary that
// `bow IMAGE --vocabulary C.npy` reads.

#include "cli/commands/descriptor_options.hpp"
#include "cli/commands/work_bounds.hpp"
#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "ops/bow/kmeans.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

// k-means over `descriptors` descriptors: the descriptors (held, and once more on the device's side), the
// memberships and the centroids; the k-means++ seeding on the host and up to maxIterations assignments by
// `strategy`, each a multiply-add per dimension of every descriptor and centroid.
WorkEstimate estimate(double descriptors, const bow::KMeansParams& params, const bow::Strategy& strategy,
                      const DeviceInfo& device) {
    const double k = static_cast<double>(params.k);
    const double multiplyAdds = descriptors * k * bow::kDimensions;
    return {(2 * descriptors + k) * bow::kDimensions * sizeof(float) + descriptors * sizeof(std::uint32_t),
            multiplyAdds / multiplyAddsPerSecond(nullptr) +
                params.maxIterations * multiplyAdds /
                    multiplyAddsPerSecond(strategy.runsOnDevice() ? &device : nullptr)};
}

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
    addForceOption(parser);
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
    std::size_t descriptorCount = 0;
    for (const QString& path : images) {
        const ImageRGBA8 image = io::loadImage(path);
        // Judged as each image adds its descriptors, before they are computed: the estimate only grows.
        descriptorCount += bow::descriptorGrid(image.width, image.height, descriptorParams).count();
        refuseUnlessItFits(
            parser, QString("k-means of %1 descriptors into %2 words").arg(descriptorCount).arg(params.k),
            estimate(static_cast<double>(descriptorCount), params, strategy, device.info()));
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
    {"vocabulary", "build a vocabulary of visual words from images",
     "Builds a vocabulary of K visual words from the dense descriptors of images.", declare, run});

}  // namespace

}  // namespace hs::cli
