// Draws HistoScope's sample image, a procedural test card, so the project ships no downloaded picture. The
// card exercises what the histogram shows: smooth hue and brightness gradients, saturated colour bars, an
// exact 0..255 grey ramp, overlapping translucent circles, and an alpha ramp.
#include <QColor>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QRadialGradient>
#include <cstdio>
#include <cstring>

#include "engine/runtime/error.hpp"
#include "io/image_io.hpp"

namespace {

constexpr int kWidth = 768;
constexpr int kHeight = 512;

void drawHueField(QPainter& painter, const QRect& area) {
    QLinearGradient hue(area.topLeft(), area.topRight());
    constexpr int kHueStops = 12;
    for (int i = 0; i <= kHueStops; ++i)
        hue.setColorAt(static_cast<double>(i) / kHueStops,
                       QColor::fromHsv(360 * i / kHueStops % 360, 255, 255));
    painter.fillRect(area, hue);
    // Fade to white at the top and to black at the bottom so every brightness appears.
    QLinearGradient shade(area.topLeft(), area.bottomLeft());
    shade.setColorAt(0.0, QColor(255, 255, 255, 230));
    shade.setColorAt(0.45, QColor(255, 255, 255, 0));
    shade.setColorAt(0.55, QColor(0, 0, 0, 0));
    shade.setColorAt(1.0, QColor(0, 0, 0, 230));
    painter.fillRect(area, shade);
}

void drawColourBars(QPainter& painter, const QRect& area) {
    // The classic 75 % bars: white, yellow, cyan, green, magenta, red, blue, then black.
    const QColor bars[] = {{191, 191, 191}, {191, 191, 0}, {0, 191, 191}, {0, 191, 0},
                           {191, 0, 191},   {191, 0, 0},   {0, 0, 191},   {0, 0, 0}};
    const int count = static_cast<int>(std::size(bars));
    for (int i = 0; i < count; ++i) {
        const int left = area.left() + area.width() * i / count;
        const int right = area.left() + area.width() * (i + 1) / count;
        painter.fillRect(QRect(left, area.top(), right - left, area.height()), bars[i]);
    }
}

void drawGreyRamp(QImage& image, const QRect& area) {
    // Exact values, pixel by pixel: 256 steps from black to white.
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const int grey = (x - area.left()) * 256 / area.width();
            image.setPixelColor(x, y, QColor(grey, grey, grey));
        }
    }
}

void drawCircles(QPainter& painter, const QRect& area) {
    painter.fillRect(area, QColor(24, 24, 32));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    const int radius = area.height() / 3;
    const QPoint centre = area.center();
    const QPoint offsets[] = {{-radius / 2, -radius / 3}, {radius / 2, -radius / 3}, {0, radius / 2}};
    const QColor colours[] = {QColor(255, 40, 40, 150), QColor(40, 255, 40, 150), QColor(40, 80, 255, 150)};
    for (int i = 0; i < 3; ++i) {
        painter.setBrush(colours[i]);
        painter.drawEllipse(centre - QPoint(area.width() / 4, 0) + offsets[i], radius, radius);
    }
    QRadialGradient glow(centre + QPoint(area.width() / 4, 0), radius);
    glow.setColorAt(0.0, QColor(255, 240, 160));
    glow.setColorAt(0.7, QColor(255, 120, 0));
    glow.setColorAt(1.0, QColor(120, 0, 60));
    painter.setBrush(glow);
    painter.drawEllipse(centre + QPoint(area.width() / 4, 0), radius, radius);
    painter.setRenderHint(QPainter::Antialiasing, false);
}

void drawAlphaRamp(QPainter& painter, const QRect& area) {
    // Transparent on the left to opaque on the right, over a checkerboard-free area so alpha stays visible.
    painter.setCompositionMode(QPainter::CompositionMode_Source);
    QLinearGradient alpha(area.topLeft(), area.topRight());
    alpha.setColorAt(0.0, QColor(0, 160, 255, 0));
    alpha.setColorAt(1.0, QColor(255, 0, 160, 255));
    painter.fillRect(area, alpha);
    painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
}

hs::ImageRGBA8 drawTestCard() {
    QImage card(kWidth, kHeight, QImage::Format_RGBA8888);
    card.fill(Qt::black);
    {
        QPainter painter(&card);
        drawHueField(painter, QRect(0, 0, kWidth, 192));
        drawColourBars(painter, QRect(0, 192, kWidth, 64));
        drawCircles(painter, QRect(0, 288, kWidth, 176));
        drawAlphaRamp(painter, QRect(0, 464, kWidth, 48));
    }
    drawGreyRamp(card, QRect(0, 256, kWidth, 32));

    hs::ImageRGBA8 image(kWidth, kHeight);
    for (int y = 0; y < kHeight; ++y) std::memcpy(image.pixel(0, y), card.constScanLine(y), kWidth * 4u);
    return image;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    try {
        hs::io::saveImage(QString::fromLocal8Bit(argv[1]), drawTestCard());
    } catch (const hs::Error& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return hs::exitCodeFor(error.kind());
    }
    return 0;
}
