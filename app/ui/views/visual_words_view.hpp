#pragma once
// The Visual words tab (issue 9): a vocabulary built by k-means over the dense descriptors of chosen images
// (with progress and Cancel) or loaded from a .npy file; the current image with its descriptor grid drawn
// over it; the image's word histogram as bars; and the builder sweep (with progress and Cancel) as bars
// grouped by problem size, one per strategy, on a log axis. The engine work runs on VisualWordsWorker's
// thread. A failure (a bad .npy, no images, k beyond the descriptors) is reported through problemReported()
// and leaves what was shown.

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "image/image.hpp"
#include "io/bow_export.hpp"
#include "ops/bow/descriptors.hpp"
#include "runtime/device_info.hpp"
#include "ui/work/visual_words_worker.hpp"

class QCPBarsGroup;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace hs::ui {

// The image with the descriptor windows drawn over it: a square of the window's side at each grid point,
// coloured by its word once the words are known.
class DescriptorGridOverlay : public QWidget {
    Q_OBJECT

  public:
    explicit DescriptorGridOverlay(QWidget* parent = nullptr);

    void setImage(std::shared_ptr<const ImageRGBA8> image);
    void setGrid(const bow::DescriptorParams& params);
    // The word of each grid point, row by row; empty draws outlines only.
    void setWords(std::vector<std::uint32_t> words, std::size_t vocabularySize);
    void setGridVisible(bool visible);
    bool gridVisible() const { return gridVisible_; }
    // The windows drawn: one per grid point of the image (0 while the grid is hidden or there is no image).
    std::size_t drawnWindows() const;

    QSize sizeHint() const override { return {320, 240}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    std::shared_ptr<const ImageRGBA8> image_;
    QImage picture_;
    bow::DescriptorParams params_;
    bow::Grid grid_;
    std::vector<std::uint32_t> words_;
    std::size_t vocabularySize_ = 0;
    bool gridVisible_ = true;
};

class VisualWordsView : public QWidget {
    Q_OBJECT

  public:
    explicit VisualWordsView(QWidget* parent = nullptr);
    ~VisualWordsView() override;

    // What the window shows: the image (and its file, for exports) and the device chosen in the Device panel
    // (none: the CPU reference descriptors and host strategies). The words are computed again when a
    // vocabulary is there and either changed.
    void setSource(std::shared_ptr<const ImageRGBA8> image, const QString& imagePath,
                   const std::optional<DeviceInfo>& device);

    // ---- What the buttons do (their dialogs ask for the paths).
    // k-means over the descriptors of `images` with the k, window and stride set in the tab.
    void buildVocabulary(const QStringList& images);
    void cancelVocabulary();
    // False, with the reason reported, when the file is not a vocabulary; the previous one then stays.
    bool loadVocabulary(const QString& path);
    // Written atomically; throws InputError "<path>: <reason>".
    void saveVocabulary(const QString& path) const;
    void runSweep();
    // Stops the sweep before its next row; the rows measured until then stay in the table and the plot.
    void cancelSweep();

    void setVocabularySize(int k);
    void setDescriptorParams(const bow::DescriptorParams& params);
    bow::DescriptorParams descriptorParams() const;
    // False when `name` is no strategy or the device cannot run it.
    bool setStrategy(const QString& name);
    QString strategy() const;
    // Descriptor counts and centroid counts of the sweep, e.g. "1024, 4096".
    void setSweepSizes(const QString& descriptors, const QString& centroids);

    // ---- What the tab shows (read-only).
    std::shared_ptr<const bow::Matrix> vocabulary() const { return vocabulary_; }
    bool building() const { return building_; }
    const std::optional<WordsOutcome>& words() const { return words_; }
    // The bar heights of the word histogram, one per word.
    QVector<double> plottedHistogram() const;
    // The sweep shown: the last one that ended, complete or cancelled.
    const std::optional<SweepOutcome>& sweep() const { return sweep_; }
    bool sweeping() const { return sweeping_; }
    // What a word-histogram export writes with the counts.
    io::WordsContext wordsContext() const;
    DescriptorGridOverlay* overlay() const { return overlay_; }
    QCustomPlot* histogramPlot() const { return histogramPlot_; }
    QCustomPlot* sweepPlot() const { return sweepPlot_; }
    // Test hooks: see VisualWordsWorker::setKMeansProbe and setSweepProbe.
    void setKMeansProbe(std::function<void()> probe);
    void setSweepProbe(std::function<void()> probe);

  signals:
    void vocabularyChanged();
    void vocabularyProgress(int iteration, qulonglong changed);
    void vocabularyCancelled();
    void wordsShown();
    void sweepShown();
    // After sweepShown(), when the sweep shown was cancelled.
    void sweepCancelled();
    // A one-line reason for the window to show in a dialog.
    void problemReported(const QString& title, const QString& message);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    QWidget* buildVocabularyControls();
    QWidget* buildSweepPage();
    void chooseImages();
    void chooseVocabularyFile();
    void chooseSaveFile();
    void setVocabulary(std::shared_ptr<const bow::Matrix> vocabulary, const QString& origin);
    void setBuilding(bool building);
    void setSweeping(bool sweeping);
    void updateStrategySupport();
    // Computes the words of the current image again, when there is an image and a vocabulary.
    void refreshWords();
    void showWords(const WordsOutcome& outcome);
    void showSweep(const SweepOutcome& outcome);
    void onFailed(VisualWordsJob job, const QString& message);

    VisualWordsWorker* worker_ = nullptr;
    std::shared_ptr<const ImageRGBA8> image_;
    QString imagePath_;
    std::optional<DeviceInfo> device_;
    std::shared_ptr<const bow::Matrix> vocabulary_;
    QString vocabularyOrigin_;
    QString pendingOrigin_;
    QString wantedStrategy_{
        QString::fromUtf8(bow::kDefaultStrategy)};  // the user's choice, kept across devices  // the images
                                                    // of the vocabulary being built
    bool building_ = false;
    std::optional<WordsOutcome> words_;
    std::optional<SweepOutcome> sweep_;
    bool sweeping_ = false;
    int sweepTotal_ = 0;  // rows of the sweep running, once its first progress arrived

    QPushButton* imagesButton_ = nullptr;
    QSpinBox* k_ = nullptr;
    QSpinBox* window_ = nullptr;
    QSpinBox* stride_ = nullptr;
    QPushButton* build_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* load_ = nullptr;
    QPushButton* save_ = nullptr;
    QLabel* vocabularyLabel_ = nullptr;
    QComboBox* strategy_ = nullptr;
    QCheckBox* showGrid_ = nullptr;
    QLabel* wordsLabel_ = nullptr;
    DescriptorGridOverlay* overlay_ = nullptr;
    QCustomPlot* histogramPlot_ = nullptr;
    QLineEdit* sweepDescriptors_ = nullptr;
    QLineEdit* sweepCentroids_ = nullptr;
    QSpinBox* sweepRepetitions_ = nullptr;
    QPushButton* runSweep_ = nullptr;
    QPushButton* cancelSweep_ = nullptr;
    QProgressBar* sweepProgress_ = nullptr;
    QLabel* sweepLabel_ = nullptr;
    QCustomPlot* sweepPlot_ = nullptr;
    QCPBarsGroup* sweepGroup_ = nullptr;  // the strategies' bars side by side in each size's group
    QTableWidget* sweepTable_ = nullptr;
    QString lastFolder_;
};

}  // namespace hs::ui
