#pragma once
// Binning convex polygons on a rectangular grid of a tangent plane: which bins a polygon
// overlaps (its box's bins that none of its edges separates from it), padded so that rounding
// never drops a bin a point inside the polygon can fall in.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace starlens::produce {

// Far above the rounding of the projections (~1e-16 of coordinates below 10), far below any
// triangle.
constexpr double kPlanarPadding = 1e-12;

struct PlanarGrid {
  double u0, v0;        // the rectangle's corner
  double bin_u, bin_v;  // bin sides
  std::uint32_t columns, rows;

  std::uint32_t column_of(double u) const { return clamp_bin((u - u0) / bin_u, columns); }
  std::uint32_t row_of(double v) const { return clamp_bin((v - v0) / bin_v, rows); }
  static std::uint32_t clamp_bin(double position, std::uint32_t size) {
    if (!(position > 0.0)) return 0;
    return position >= size ? size - 1 : static_cast<std::uint32_t>(position);
  }
};

// A convex polygon of 3 or 4 corners, in order around it.
struct ConvexPolygon {
  std::array<std::array<double, 2>, 4> corner;
  int corners;
  double area() const {
    double twice = 0;
    for (int i = 0; i < corners; ++i) {
      const auto& a = corner[i];
      const auto& b = corner[(i + 1) % corners];
      twice += a[0] * b[1] - a[1] * b[0];
    }
    return 0.5 * std::abs(twice);
  }
};

// Calls use(row * columns + column) for every bin the polygon overlaps.
template <class Use>
void for_each_overlapped_bin(const ConvexPolygon& polygon, const PlanarGrid& grid, Use&& use) {
  double u_low = 1e300, u_high = -1e300, v_low = 1e300, v_high = -1e300, orientation = 0;
  for (int i = 0; i < polygon.corners; ++i) {
    const auto& a = polygon.corner[i];
    const auto& b = polygon.corner[(i + 1) % polygon.corners];
    u_low = std::min(u_low, a[0]);
    u_high = std::max(u_high, a[0]);
    v_low = std::min(v_low, a[1]);
    v_high = std::max(v_high, a[1]);
    orientation += a[0] * b[1] - a[1] * b[0];
  }
  const std::uint32_t c0 = grid.column_of(u_low - kPlanarPadding),
                      c1 = grid.column_of(u_high + kPlanarPadding);
  const std::uint32_t r0 = grid.row_of(v_low - kPlanarPadding),
                      r1 = grid.row_of(v_high + kPlanarPadding);
  for (std::uint32_t r = r0; r <= r1; ++r) {
    for (std::uint32_t c = c0; c <= c1; ++c) {
      const double x0 = grid.u0 + c * grid.bin_u - kPlanarPadding,
                   x1 = x0 + grid.bin_u + 2 * kPlanarPadding;
      const double y0 = grid.v0 + r * grid.bin_v - kPlanarPadding,
                   y1 = y0 + grid.bin_v + 2 * kPlanarPadding;
      bool separated = false;
      for (int i = 0; i < polygon.corners && !separated; ++i) {
        const auto& a = polygon.corner[i];
        const auto& b = polygon.corner[(i + 1) % polygon.corners];
        // Inward side of edge a-b: orientation * cross(b - a, x - a) >= 0.
        const auto inside = [&](double x, double y) {
          return orientation * ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) >= 0;
        };
        separated = !inside(x0, y0) && !inside(x1, y0) && !inside(x0, y1) && !inside(x1, y1);
      }
      if (!separated) use(r * grid.columns + c);
    }
  }
}

}  // namespace starlens::produce
