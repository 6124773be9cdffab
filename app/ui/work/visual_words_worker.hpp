#pragma once
// The Visual words tab's engine work (descriptors, k-means, word assignment, the sweep) on a worker of its
// own (ui/worker.hpp: its thread and session), so that the GUI thread makes no OpenCL call and stays
// responsive while k-means runs: the controller's worker keeps the histogram runs, and a vocabulary being
// built never queues in front of them.
//
// Jobs run one after another in the order given; results arrive as signals on the thread that owns the
// worker. Word assignments are "latest wins": an older one's result is dropped once a newer one was asked
// for.

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "image/image.hpp"
#include "ops/bow/descriptors.hpp"
#include "ops/bow/kmeans.hpp"
#include "ops/bow/sweep.hpp"
#include "runtime/device_info.hpp"
#include "ui/work/worker.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::ui {

// k-means over the dense descriptors of the images at `images`. `device` is a selector "P:D"; empty computes
// the descriptors with the CPU reference and assigns with host strategies only.
struct VocabularyRequest {
    QStringList images;
    bow::KMeansParams kmeans;
    bow::DescriptorParams descriptors;
    QString device;
    QString strategy;  // the builder of the assignment steps
};

struct VocabularyOutcome {
    std::shared_ptr<const bow::Matrix> centroids;
    std::size_t descriptors = 0;  // over every image
    int iterations = 0;
    bool converged = false;
};

// The words of one image over a vocabulary.
struct WordsRequest {
    std::shared_ptr<const ImageRGBA8> image;
    std::shared_ptr<const bow::Matrix> vocabulary;
    bow::DescriptorParams descriptors;
    QString device;
    QString strategy;
};

struct WordsOutcome {
    WordsRequest request;
    bow::Grid grid;
    std::vector<std::uint32_t> memberships;  // of each grid point, row by row
    std::vector<std::uint32_t> histogram;    // descriptors per word
    std::vector<Timing> timings;             // descriptors, then the assignment
};

struct SweepOutcome {
    bow::SweepParams params;
    std::optional<DeviceInfo> device;  // none: host strategies only
    std::vector<bow::SweepRow> rows;   // cancelled: the rows measured before the Cancel
    bool cancelled = false;
};

// Which job a failure belongs to.
enum class VisualWordsJob { Vocabulary, Words, Sweep };

class VisualWordsWorker : public Worker {
    Q_OBJECT

  public:
    explicit VisualWordsWorker(QObject* parent = nullptr);
    ~VisualWordsWorker() override;

    void buildVocabulary(const VocabularyRequest& request);
    void assignWords(const WordsRequest& request);
    void runSweep(const bow::SweepParams& params, const QString& device);
    // Stops the vocabulary being built at its next image or k-means step; vocabularyCancelled() follows.
    // Any thread may call it.
    void cancelVocabulary() { cancelRequested_ = true; }
    // Stops the sweep before its next row (strategy and size); sweepReady() follows with the rows measured
    // and `cancelled` set. Any thread may call it.
    void cancelSweep() { sweepCancelRequested_ = true; }

    // Test hooks: run on the worker thread at each k-means step, and before each row of the sweep, before
    // the cancel request is looked at, so that a test can hold the work there while it presses Cancel.
    void setKMeansProbe(std::function<void()> probe);
    void setSweepProbe(std::function<void()> probe);

  signals:
    // After each k-means step: its number and the memberships it changed.
    void vocabularyProgress(int iteration, qulonglong changed);
    void vocabularyReady(const hs::ui::VocabularyOutcome& outcome);
    void vocabularyCancelled();
    void wordsReady(const hs::ui::WordsOutcome& outcome);
    // Before each row of the sweep: the rows measured so far, of `total`.
    void sweepProgress(int done, int total);
    void sweepReady(const hs::ui::SweepOutcome& outcome);
    // One line naming the file, device or step and the reason.
    void failed(hs::ui::VisualWordsJob job, const QString& message);

  private:
    // Worker thread: runs `work`, turning an exception into failed(job, ...).
    template <typename Work>
    void post(VisualWordsJob job, Work&& work);
    // Worker thread: null for an empty selector.
    DeviceContext* openDevice(const QString& selector);
    VocabularyOutcome vocabulary(const VocabularyRequest& request);
    WordsOutcome words(const WordsRequest& request);

    std::atomic<bool> cancelRequested_{false};
    std::atomic<bool> sweepCancelRequested_{false};
    std::atomic<bool> stopping_{false};  // the worker is being destroyed: waiting jobs are skipped
    std::atomic<quint64> latestWords_{0};
    std::mutex probeMutex_;
    std::function<void()> probe_;
    std::function<void()> sweepProbe_;
};

}  // namespace hs::ui

Q_DECLARE_METATYPE(hs::ui::VocabularyOutcome)
Q_DECLARE_METATYPE(hs::ui::WordsOutcome)
Q_DECLARE_METATYPE(hs::ui::SweepOutcome)
