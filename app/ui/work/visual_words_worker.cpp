#include "ui/work/visual_words_worker.hpp"

#include <QMetaObject>

#include "image/pixel_source.hpp"
#include "io/image_io.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::ui {

namespace {

// The descriptors of `image`: the kernel on `device`, the CPU reference without one.
bow::DescriptorResult descriptorsOf(DeviceContext* device, const ImageRGBA8& image,
                                    const bow::DescriptorParams& params) {
    bow::validate(params);
    if (!device)
        return {bow::referenceDescriptors(image, params),
                bow::descriptorGrid(image.width, image.height, params),
                {}};
    PixelSource pixels(image);
    return bow::computeDescriptors(*device, pixels, params);
}

std::string tooSmall(const std::string& what, const bow::DescriptorParams& params) {
    return what + ": smaller than one descriptor window (" + std::to_string(params.window) +
           " pixels and a margin)";
}

}  // namespace

VisualWordsWorker::VisualWordsWorker(QObject* parent)
    : Worker(QStringLiteral("histoscope-visual-words"), parent) {}

VisualWordsWorker::~VisualWordsWorker() {
    // k-means stops at its next step, waiting jobs are skipped; the runtime goes on the thread that used it.
    stopping_ = true;
    cancelRequested_ = true;
    sweepCancelRequested_ = true;
    stopThread();
}

void VisualWordsWorker::setKMeansProbe(std::function<void()> probe) {
    std::lock_guard lock(probeMutex_);
    probe_ = std::move(probe);
}

void VisualWordsWorker::setSweepProbe(std::function<void()> probe) {
    std::lock_guard lock(probeMutex_);
    sweepProbe_ = std::move(probe);
}

template <typename Work>
void VisualWordsWorker::post(VisualWordsJob job, Work&& work) {
    onWorker([this, job, work = std::forward<Work>(work)]() mutable {
        if (stopping_) return;
        try {
            work();
        } catch (const std::exception& error) {
            onOwner([this, job, message = QString::fromUtf8(error.what())] { emit failed(job, message); });
        }
    });
}

DeviceContext* VisualWordsWorker::openDevice(const QString& selector) {
    if (selector.isEmpty()) return nullptr;
    return &session().device(selector.toStdString());
}

void VisualWordsWorker::buildVocabulary(const VocabularyRequest& request) {
    cancelRequested_ = false;
    post(VisualWordsJob::Vocabulary, [this, request] {
        const VocabularyOutcome outcome = vocabulary(request);
        onOwner([this, outcome] {
            if (outcome.centroids)
                emit vocabularyReady(outcome);
            else
                emit vocabularyCancelled();
        });
    });
}

VocabularyOutcome VisualWordsWorker::vocabulary(const VocabularyRequest& request) {
    if (request.images.isEmpty()) throw UsageError("no images chosen for the vocabulary");
    const bow::Strategy& strategy = bow::findStrategy(request.strategy.toStdString());
    DeviceContext* device = openDevice(request.device);
    bow::Matrix descriptors;
    for (const QString& path : request.images) {
        if (cancelRequested_) return {};
        const ImageRGBA8 image = io::loadImage(path);
        const auto computed = descriptorsOf(device, image, request.descriptors);
        if (computed.descriptors.rows() == 0)
            throw InputError(tooSmall(path.toStdString(), request.descriptors));
        descriptors.values.insert(descriptors.values.end(), computed.descriptors.values.begin(),
                                  computed.descriptors.values.end());
    }
    const auto progress = [this](std::size_t iteration, std::size_t changed) {
        onOwner([this, iteration, changed] {
            emit vocabularyProgress(static_cast<int>(iteration), static_cast<qulonglong>(changed));
        });
        {
            std::lock_guard lock(probeMutex_);
            if (probe_) probe_();
        }
        return !cancelRequested_;
    };
    const auto result = bow::kmeans(device, descriptors, request.kmeans, strategy, progress);
    if (result.cancelled) return {};
    return {std::make_shared<const bow::Matrix>(result.centroids), descriptors.rows(), result.iterations,
            result.converged};
}

void VisualWordsWorker::assignWords(const WordsRequest& request) {
    const quint64 id = ++latestWords_;
    post(VisualWordsJob::Words, [this, request, id] {
        if (id != latestWords_) return;  // a newer request waits behind this one
        try {
            const WordsOutcome outcome = words(request);
            onOwner([this, outcome, id] {
                if (id == latestWords_) emit wordsReady(outcome);
            });
        } catch (const std::exception& error) {
            // Only the latest request's failure is news: a window spun through sizes too large for the image
            // reports once.
            onOwner([this, id, message = QString::fromUtf8(error.what())] {
                if (id == latestWords_) emit failed(VisualWordsJob::Words, message);
            });
        }
    });
}

WordsOutcome VisualWordsWorker::words(const WordsRequest& request) {
    if (!request.image) throw UsageError("no image is open");
    if (!request.vocabulary) throw UsageError("no vocabulary: build or load one");
    const bow::Strategy& strategy = bow::findStrategy(request.strategy.toStdString());
    DeviceContext* device = openDevice(request.device);
    auto computed = descriptorsOf(device, *request.image, request.descriptors);
    if (computed.descriptors.rows() == 0) throw InputError(tooSmall("the image", request.descriptors));
    bow::Result result = bow::assignWords(device, computed.descriptors, *request.vocabulary, strategy);
    WordsOutcome outcome{request, computed.grid, std::move(result.memberships), std::move(result.histogram),
                         std::move(computed.timings)};
    outcome.timings.insert(outcome.timings.end(), result.timings.begin(), result.timings.end());
    return outcome;
}

void VisualWordsWorker::runSweep(const bow::SweepParams& params, const QString& device) {
    sweepCancelRequested_ = false;
    post(VisualWordsJob::Sweep, [this, params, device] {
        DeviceContext* context = openDevice(device);
        SweepOutcome outcome{params, context ? std::optional(context->info()) : std::nullopt, {}, false};
        const auto progress = [this, &outcome](std::size_t done, std::size_t total) {
            onOwner(
                [this, done, total] { emit sweepProgress(static_cast<int>(done), static_cast<int>(total)); });
            std::function<void()> probe;
            {
                std::lock_guard lock(probeMutex_);
                probe = sweepProbe_;
            }
            if (probe) probe();
            outcome.cancelled = sweepCancelRequested_;
            return !outcome.cancelled;
        };
        outcome.rows = bow::sweep(context, params, progress);
        onOwner([this, outcome] { emit sweepReady(outcome); });
    });
}

}  // namespace hs::ui
