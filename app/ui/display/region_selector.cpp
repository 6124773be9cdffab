#include "ui/display/region_selector.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "ui/display/image_view.hpp"

namespace hs::ui {

namespace {

// Below this many image pixels across, a Shift+click is taken for a slip rather than a region.
constexpr double kMinimumDrag = 2;

}  // namespace

RegionSelector::RegionSelector(ImageView& view, QObject* parent)
    : QObject(parent), view_(view), band_(new QRubberBand(QRubberBand::Rectangle, &view)) {
    view.installEventFilter(this);
    // The band follows zoom and pan (both repaint the view) and a new image (fitted into the view anew).
    connect(&view, &ImageView::zoomChanged, this, &RegionSelector::placeBand);
    connect(&view, &ImageView::imageDisplayed, this, &RegionSelector::placeBand);
}

std::optional<Region> RegionSelector::region() const {
    const auto found = regions_.find(path_);
    if (found == regions_.end()) return std::nullopt;
    const QSize size = view_.imageSize();
    Region clipped = found->second;
    clipped.width = std::min(clipped.x + clipped.width, size.width()) - clipped.x;
    clipped.height = std::min(clipped.y + clipped.height, size.height()) - clipped.y;
    if (clipped.width <= 0 || clipped.height <= 0) return std::nullopt;
    return clipped;
}

void RegionSelector::setRegion(std::optional<Region> region) {
    const std::optional<Region> before = this->region();
    if (region)
        regions_[path_] = *region;
    else
        regions_.erase(path_);
    placeBand();
    if (this->region() != before) emit regionChanged();
}

void RegionSelector::setImagePath(const QString& path) {
    if (path == path_) return;
    const std::optional<Region> before = region();
    path_ = path;
    placeBand();
    if (region() != before) emit regionChanged();
}

QPointF RegionSelector::imagePoint(QPointF position) const {
    const QPointF point = (position - view_.offset()) / view_.zoom();
    const QSize size = view_.imageSize();
    return {std::clamp(point.x(), 0.0, double(size.width())),
            std::clamp(point.y(), 0.0, double(size.height()))};
}

void RegionSelector::placeBand() {
    const std::optional<Region> shown = region();
    if (!shown) {
        band_->hide();
        return;
    }
    const QPointF topLeft = view_.offset() + QPointF(shown->x, shown->y) * view_.zoom();
    const QSizeF size = QSizeF(shown->width, shown->height) * view_.zoom();
    band_->setGeometry(QRectF(topLeft, size).toAlignedRect());
    band_->show();
}

bool RegionSelector::eventFilter(QObject* watched, QEvent* event) {
    if (watched != &view_) return false;
    switch (event->type()) {
        case QEvent::MouseButtonPress: {
            auto* mouse = static_cast<QMouseEvent*>(event);
            if (mouse->button() != Qt::LeftButton || !(mouse->modifiers() & Qt::ShiftModifier)) break;
            if (view_.imageSize().isEmpty()) break;
            dragStart_ = imagePoint(mouse->position());
            return true;  // not a pan
        }
        case QEvent::MouseMove: {
            if (!dragStart_) break;
            const QPointF end = imagePoint(static_cast<QMouseEvent*>(event)->position());
            const QPointF topLeft(std::min(dragStart_->x(), end.x()), std::min(dragStart_->y(), end.y()));
            const QPointF bottomRight(std::max(dragStart_->x(), end.x()), std::max(dragStart_->y(), end.y()));
            band_->setGeometry(
                QRectF(view_.offset() + topLeft * view_.zoom(), view_.offset() + bottomRight * view_.zoom())
                    .toAlignedRect());
            band_->show();
            return true;
        }
        case QEvent::MouseButtonRelease: {
            if (!dragStart_) break;
            const QPointF start = *dragStart_;
            const QPointF end = imagePoint(static_cast<QMouseEvent*>(event)->position());
            dragStart_.reset();
            // Every pixel the rectangle touches counts.
            const int x0 = static_cast<int>(std::floor(std::min(start.x(), end.x())));
            const int y0 = static_cast<int>(std::floor(std::min(start.y(), end.y())));
            const int x1 = static_cast<int>(std::ceil(std::max(start.x(), end.x())));
            const int y1 = static_cast<int>(std::ceil(std::max(start.y(), end.y())));
            if (x1 - x0 < kMinimumDrag || y1 - y0 < kMinimumDrag) {
                placeBand();
                return true;
            }
            setRegion(Region{x0, y0, x1 - x0, y1 - y0});
            return true;
        }
        case QEvent::ShortcutOverride:
        case QEvent::KeyPress: {
            // Esc on the view clears a region before it can cancel a run (the window's Esc shortcut).
            if (static_cast<QKeyEvent*>(event)->key() != Qt::Key_Escape || !region()) break;
            event->accept();
            if (event->type() == QEvent::KeyPress) clear();
            return true;
        }
        case QEvent::Resize:
        case QEvent::Wheel:
            // After the view has moved the image.
            QTimer::singleShot(0, this, &RegionSelector::placeBand);
            break;
        default:
            break;
    }
    if (event->type() == QEvent::MouseMove || event->type() == QEvent::MouseButtonRelease)
        QTimer::singleShot(0, this, &RegionSelector::placeBand);  // a pan moves the band with the image
    return false;
}

}  // namespace hs::ui
