#pragma once

#include <QList>
#include <QMap>
#include <QSize>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/device_info.hpp"
#include "ui/model/run.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/stage_page.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace hs::ui {

// The image stages ahead of the histogram: rotation (angle, fit canvas, sampling, strategy) and convolution
// (a built-in filter with its parameters or a custom matrix, strategy); and pipeline mode (issue 10): the
// convolution on the selected device, the histogram on a second one (any device of the registry; devices of
// two platforms are refused with the engine's reason, the same device twice is allowed with its note), in
// the chosen mode and chunk count. A refused choice is reported through pipelineRefused() and undone.
// Strategy lists come from the engine's registries; those the device cannot run on the current image are
// disabled with the reason as tooltip. A selection that becomes unsupported (another image or device) stays
// selected: the engine then runs its buffer strategy and the status bar says why.
class TransformPanel : public QWidget {
    Q_OBJECT

  public:
    // The filter list's entry for the custom matrix, after the registry's filter kinds (whose entries carry
    // their names, convolve::FilterKind::name).
    static constexpr const char* kCustomFilter = "custom";

    // The angle slider counts tenths of a degree.
    static constexpr int kAngleStepsPerDegree = 10;

    explicit TransformPanel(QWidget* parent = nullptr);

    // The stages as set, or nothing while a stage is switched off.
    std::optional<pipeline::RotateStage> rotation() const;
    std::optional<pipeline::ConvolveStage> convolution() const;
    // The stages of the generated pages (ui/stage_page.hpp: every registered image stage kind but rotate and
    // convolve, whose pages are made by hand) that are switched on, in kind order; none in pipeline mode.
    stages::StageList otherStages() const;
    // The generated page of the kind called `name`; null when there is none.
    StagePage* stagePage(const QString& name) const;
    double angle() const;
    // The filter the convolution stage applies (for a custom matrix: the last one that parsed).
    convolve::Filter filter() const;

    // Re-evaluates which strategies `device` (null: none) can run on an image of `imageSize`; in pipeline
    // mode, whether `device` (the producer) pairs with the second device.
    void updateSupport(const DeviceInfo* device, QSize imageSize);
    // The device registry the second device is chosen from.
    void setDevices(const std::vector<DeviceInfo>& devices);
    // Pipeline mode as set, or nothing while it is off (then rotation() and convolution() say what runs).
    std::optional<TwoDeviceStage> twoDevices() const;
    // Reads a filter file (once, through io) into the custom editor and selects it; a file that cannot be
    // read or parsed is reported through problemReported() and changes nothing.
    void loadFilterFile(const QString& path);
    // Switches rotation on at `degrees` (any finite angle, shown reduced into (-180, 180] as
    // rotate::normalizeAngle does) with `mode` sampling, onto a canvas fitted to the rotated image when
    // `fitCanvas`.
    void setRotation(double degrees, rotate::FilterMode mode, bool fitCanvas);
    // Switches convolution on with the filter a command line names (io::filterFromSpec: a registered filter
    // kind such as box[:N] or gaussian:SIGMA[:SIZE], or a filter file). Throws UsageError or InputError, as
    // filterFromSpec does, and UsageError for a parameter beyond the range its spin box shows.
    void applyFilterSpec(const QString& spec);
    // Switches convolution on with the custom matrix `text` (convolve::parseFilterText), as if typed in the
    // editor; throws UsageError as that does, changing nothing.
    void applyCustomMatrix(const QString& text);
    // The custom matrix's text: the editor's last text that parsed.
    QString customMatrix() const { return customText_; }

    // The state of every widget, to remember between sessions.
    TransformSettings settings() const;
    // Sets every widget (a name the lists do not hold selects their first entry) and emits transformChanged
    // once.
    void applySettings(const TransformSettings& settings);

    QGroupBox* rotationGroup() const { return rotationGroup_; }
    QSlider* angleSlider() const { return angleSlider_; }
    QDoubleSpinBox* angleBox() const { return angleBox_; }
    // Enlarges the output to hold the whole rotated image (rotate::outputSize).
    QCheckBox* fitCanvasBox() const { return fitCanvas_; }
    QComboBox* samplingBox() const { return sampling_; }
    QComboBox* rotateStrategyBox() const { return rotateStrategy_; }
    QGroupBox* convolutionGroup() const { return convolutionGroup_; }
    // Entries carry the filter kind's name as data (kCustomFilter for the custom matrix).
    QComboBox* filterBox() const { return filterKind_; }
    // The spin box of a filter kind's parameter (names as in the registry: "gaussian", "sigma"); null when
    // there is none. Its range is the parameter's min..max; integer parameters show no decimals.
    QDoubleSpinBox* parameterBox(const QString& kind, const QString& parameter) const;
    QPlainTextEdit* customEditor() const { return customEditor_; }
    // The custom matrix's parse error in words; hidden while the text parses.
    QLabel* customError() const { return customError_; }
    QComboBox* convolveStrategyBox() const { return convolveStrategy_; }
    QGroupBox* twoDevicesGroup() const { return twoDevicesGroup_; }
    // Entries carry the device's selector as data.
    QComboBox* consumerBox() const { return consumer_; }
    // Entries carry produce_consume::Mode as int data.
    QComboBox* modeBox() const { return mode_; }
    QSpinBox* chunksBox() const { return chunks_; }
    // The pair's note ("the same device ... nothing overlaps"), or what auto will choose.
    QLabel* pairNote() const { return pairNote_; }

  signals:
    // A stage changed in a way that changes the processed image (or its strategy).
    void transformChanged();
    // A filter file could not be loaded: one line naming the file and the reason.
    void problemReported(const QString& message);
    // Pipeline mode refused the devices or the mode (engine's reason: two platforms, no pipes on a named
    // device); the previous choice is back.
    void pipelineRefused(const QString& message);

  private:
    QWidget* buildRotation();
    QWidget* buildConvolution();
    QWidget* buildCustomPage();
    QWidget* buildTwoDevices();
    // Checks the producer, second device and mode with the engine's rules: the note on success, otherwise
    // the reason (OpenClError's message).
    struct PairCheck {
        bool ok = true;
        QString text;
    };
    PairCheck checkTwoDevices() const;
    // After the user changed the second device or the mode: keeps the choice if the engine accepts it,
    // otherwise reports the reason and puts the last accepted choice back.
    void twoDevicesChoiceChanged();
    void twoDevicesToggled(bool on);
    QWidget* buildParameterPage(const convolve::FilterKind& kind);
    // The registry's kind selected in the list; null for the custom matrix.
    const convolve::FilterKind* selectedKind() const;
    // Selects `name`'s entry (the first entry when there is none of that name).
    void selectFilter(const QString& name);
    // Shows `text` in the custom editor and applies `filter`, parsed from it, selecting the custom matrix.
    // `path`: the filter file it was read from; empty for a typed matrix.
    void showCustomFilter(const QString& text, convolve::Filter filter, const QString& path);
    // The --filter spec of filter(): the kind with its values, the custom matrix's file while its text is
    // the file's; empty for a typed matrix.
    std::string filterSpec() const;
    void setAngleFromSlider(int steps);
    void setAngleFromBox(double degrees);
    void customTextEdited();
    void filterKindChanged();
    void refreshConvolveSupport();
    void showFixedTaps();

    QGroupBox* rotationGroup_ = nullptr;
    QSlider* angleSlider_ = nullptr;
    QDoubleSpinBox* angleBox_ = nullptr;
    QCheckBox* fitCanvas_ = nullptr;
    QComboBox* sampling_ = nullptr;
    QComboBox* rotateStrategy_ = nullptr;

    QGroupBox* convolutionGroup_ = nullptr;
    QComboBox* filterKind_ = nullptr;
    QStackedWidget* filterPages_ = nullptr;
    // Per filter kind (by name): its page in filterPages_ and its parameters' spin boxes, in order.
    QMap<QString, QWidget*> filterPage_;
    QMap<QString, QList<QDoubleSpinBox*>> parameterBoxes_;
    QWidget* customPage_ = nullptr;
    QLabel* fixedTaps_ = nullptr;
    QPlainTextEdit* customEditor_ = nullptr;
    QLabel* customError_ = nullptr;
    QPushButton* loadFilter_ = nullptr;
    QComboBox* convolveStrategy_ = nullptr;

    QList<StagePage*> stagePages_;

    QGroupBox* twoDevicesGroup_ = nullptr;
    QComboBox* consumer_ = nullptr;
    QComboBox* mode_ = nullptr;
    QSpinBox* chunks_ = nullptr;
    int chunksWanted_ = TwoDeviceStage{}.chunks;  // the user's count, which a short image only caps
    QLabel* pairNote_ = nullptr;
    std::vector<DeviceInfo> devices_;  // the registry, in consumer_'s order
    int acceptedConsumer_ = 0;         // the last choices the engine accepted
    int acceptedMode_ = 0;

    convolve::Filter customFilter_;  // the last custom matrix that parsed
    QString customText_;             // its text, what settings() saves
    QString customPath_;             // the filter file it was read from; empty once typed in
    QString lastFilterFolder_;
    std::optional<DeviceInfo> device_;
    QSize imageSize_;
};

}  // namespace hs::ui
