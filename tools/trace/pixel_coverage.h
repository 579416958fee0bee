#pragma once
// The pixel centres an image-plane triangle covers, with their barycentric weights: what the
// lens-map pictures and rasters paint. Shared edges are painted from both sides (a slack of
// 1e-9 of the area), so neighbouring triangles leave no cracks.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace starlens {

struct ImageCorner {
  double x, y;
};

// visit(i, j, wa, wb, wc) for every pixel (i, j) of a width x height frame whose centre lies in
// the triangle (a, b, c) (counter-clockwise in x right, y down: positive area); the weights sum
// to 1. Triangles of no positive area cover nothing.
template <class Visit>
void for_each_covered_pixel(std::uint32_t width, std::uint32_t height, const ImageCorner& a,
                            const ImageCorner& b, const ImageCorner& c, Visit&& visit) {
  const double area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
  if (!(area > 0)) return;
  const auto lowest = [](double v) { return static_cast<long>(std::floor(v - 0.5)); };
  const long i0 = std::max(0L, lowest(std::min({a.x, b.x, c.x})));
  const long i1 = std::min<long>(long(width) - 1, lowest(std::max({a.x, b.x, c.x})) + 1);
  const long j0 = std::max(0L, lowest(std::min({a.y, b.y, c.y})));
  const long j1 = std::min<long>(long(height) - 1, lowest(std::max({a.y, b.y, c.y})) + 1);
  const double slack = -1e-9 * area;
  for (long j = j0; j <= j1; ++j) {
    for (long i = i0; i <= i1; ++i) {
      const double px = i + 0.5, py = j + 0.5;
      const double wa = (b.x - px) * (c.y - py) - (c.x - px) * (b.y - py);
      const double wb = (c.x - px) * (a.y - py) - (a.x - px) * (c.y - py);
      const double wc = (a.x - px) * (b.y - py) - (b.x - px) * (a.y - py);
      if (wa < slack || wb < slack || wc < slack) continue;
      visit(std::uint32_t(i), std::uint32_t(j), wa / area, wb / area, wc / area);
    }
  }
}

}  // namespace starlens
