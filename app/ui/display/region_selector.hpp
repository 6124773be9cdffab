#pragma once
// The region of interest drawn on the image view (issue 25): Shift+drag draws a rectangle in image pixels,
// Esc on the view (or clear()) removes it. Each image path keeps its own region for the session (in memory),
// so going back to an image counts the region drawn on it before.

#include <QObject>
#include <QPoint>
#include <QString>
#include <map>
#include <optional>

#include "engine/image/region.hpp"

class QRubberBand;

namespace hs::ui {

class ImageView;

class RegionSelector : public QObject {
    Q_OBJECT

  public:
    explicit RegionSelector(ImageView& view, QObject* parent = nullptr);

    // The region drawn on the current image, clipped to the image the view shows (a rotation can shrink
    // it); none when there is none, or nothing of it is left.
    std::optional<Region> region() const;
    // Sets (or, with none, clears) the current image's region, as a drag would.
    void setRegion(std::optional<Region> region);
    void clear() { setRegion(std::nullopt); }
    // The image the regions belong to from now on: its remembered region becomes current.
    void setImagePath(const QString& path);

  signals:
    void regionChanged();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The image pixel position (fractional, clamped to the image) under widget position `position`.
    QPointF imagePoint(QPointF position) const;
    // Places the rubber band over the region as the view shows it now.
    void placeBand();

    ImageView& view_;
    QRubberBand* band_;
    QString path_;
    std::map<QString, Region> regions_;
    std::optional<QPointF> dragStart_;  // image coordinates
};

}  // namespace hs::ui
