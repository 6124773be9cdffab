#pragma once
// The Scopes dock (issue 25): the waveform (luma, r, g or b), the RGB parade and the vectorscope of the
// processed image (or of its region), one or several at once. Each is drawn from the counts the pipeline's
// scope stages return (RunModel::scopes) as an intensity image, linear or log, under a graticule: the 0, 25,
// 50, 75 and 100 % lines of the waveform and the parade; the vectorscope's 75 % colour-bar targets and the
// skin-tone line. Hovering a scope shows the cell under the cursor.

#include <QImage>
#include <QList>
#include <QString>
#include <QWidget>
#include <array>
#include <optional>
#include <vector>

#include "engine/ops/scope/scope.hpp"
#include "io/export.hpp"

class QAction;
class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QPainter;

namespace hs::ui {

class RunModel;

// One pixel per count cell (a parade's planes side by side, r g b), the value (a vectorscope's Cr) rising
// upwards; each pixel's brightness is its count over the largest count, linear or log (log1p), tinted by the
// channel. Cells with no count are black.
QImage scopeIntensity(const scope::Counts& counts, bool logIntensity);
// `image` shrunk to `size` (no larger than it) by the brightest of the pixels that fall into each pixel, per
// colour component, so that no lit cell of a scope disappears on a small pane.
QImage shrunkByMaximum(const QImage& image, QSize size);

// The waveform's and the parade's graticule lines, in % of the value range, and their labels' size.
inline constexpr std::array<int, 5> kGraticulePercents = {0, 25, 50, 75, 100};
inline constexpr double kGraticulePointSize = 8;
// The percentages of kGraticulePercents labelled on a scope area `areaHeight` pixels high with labels
// `textHeight` high, ascending: every label that does not overlap one kept before it (0 and 100 % first,
// then 50, then 25 and 75), none when a label does not fit at all.
std::vector<int> graticuleLabels(double areaHeight, double textHeight);

// A 75 % colour bar's chroma, computed with the engine's Cb and Cr (scope::cb, scope::cr).
struct ChromaTarget {
    QString name;  // R, Mg, B, Cy, G, Yl
    int cb = 0;
    int cr = 0;
};
std::array<ChromaTarget, 6> colourBarTargets();
// The skin-tone line's angle, degrees counter-clockwise from +Cb (the "I" line of NTSC, where skin of every
// complexion falls).
inline constexpr double kSkinToneDegrees = 123;

// One scope: its intensity image stretched over the widget, the graticule, and a hover readout.
class ScopePane : public QWidget {
    Q_OBJECT

  public:
    explicit ScopePane(scope::Kind kind, QWidget* parent = nullptr);
    scope::Kind kind() const { return kind_; }
    void setCounts(std::optional<scope::Counts> counts, bool logIntensity);
    const std::optional<scope::Counts>& counts() const { return counts_; }
    const QImage& intensity() const { return intensity_; }
    // Where the pane draws its scope: the whole pane, or the vectorscope's largest centred square, so that
    // its circle of saturation and the angles of its targets are not distorted by the dock's shape.
    QRectF scopeArea() const;
    // Where a `kind` is drawn in `whole` (the pane, an exported document's area below its title).
    static QRectF areaIn(scope::Kind kind, const QRectF& whole);
    // The readout of the cell under widget position `position` ("value 128  column 37  count 12"); empty
    // outside the scope's area or without counts.
    QString describe(QPointF position) const;
    // Draws the scope into `area` of `painter` (the pane's paintEvent, and the exports).
    void paintScope(QPainter& painter, const QRectF& area) const;
    // Room for the graticule's five labels and the trace's detail (the dock grows to it when opened).
    QSize sizeHint() const override;

  signals:
    void hovered(const QString& readout);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    scope::Kind kind_;
    std::optional<scope::Counts> counts_;
    QImage intensity_;
};

class ScopeView : public QWidget {
    Q_OBJECT

  public:
    explicit ScopeView(QWidget* parent = nullptr);

    // Shows `model`'s scopes from now on, whenever they change; the exports read the model's context.
    void follow(const RunModel& model);
    // Each count goes to the pane of its kind; the kinds missing are cleared.
    void setCounts(const std::vector<scope::Counts>& counts);

    // What a run should count: the scopes ticked, the waveform of the chosen channel.
    std::vector<scope::Params> requestedScopes() const;
    void setScopeShown(scope::Kind kind, bool shown);
    bool scopeShown(scope::Kind kind) const;
    void setWaveformChannel(scope::Channel channel);
    void setLogIntensity(bool on);
    bool logIntensity() const;
    ScopePane* pane(scope::Kind kind) const;
    // The hover readout's text.
    QString readout() const;

    // File ▸ Export: each scope's image (.png, .pdf or .svg through renderDocument, as every plot export:
    // the drawn scope under a title of what it counts and a line of its context) and counts (.csv, .json
    // with the context, .npy uint32 in the CLI's shape).
    QList<QAction*> exportActions() const { return exportActions_; }
    void exportImage(scope::Kind kind, const QString& path) const;
    void exportCounts(scope::Kind kind, const QString& path) const;
    // The exported document, `size` pixels (what a PNG export of that size holds).
    QImage renderWithTitle(scope::Kind kind, QSize size) const;
    // "Waveform (luma) of photo.png", and the line below it: the image's size, the stages, the region (or
    // the whole image), the device, the columns and the intensity scale.
    QString titleOf(scope::Kind kind) const;
    QString contextOf(scope::Kind kind) const;
    // The layout of an exported `kind` (the PDF's page and the SVG's view box in points).
    static QSize documentSize(scope::Kind kind);

  signals:
    // The scopes asked for changed: the window runs again.
    void requestChanged();
    void clearRegionRequested();
    void exported(const QString& message);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void refresh();
    void paintDocument(QPainter& painter, scope::Kind kind, QSizeF size) const;
    void addExportActions();

    const RunModel* model_ = nullptr;
    std::vector<scope::Counts> counts_;
    QBoxLayout* panesLayout_ = nullptr;
    std::array<ScopePane*, 3> panes_{};
    std::array<QCheckBox*, 3> shown_{};
    QComboBox* channel_ = nullptr;
    QCheckBox* log_ = nullptr;
    QLabel* readout_ = nullptr;
    QList<QAction*> exportActions_;
};

}  // namespace hs::ui
