#pragma once
// Carlson's symmetric elliptic integral of the first kind, inline for the per-ray hot path:
// R_F(x, y, z) = (1/2) integral_0^inf dt / sqrt((t + x)(t + y)(t + z)), x, y, z >= 0, at most
// one of them zero. Duplication to a relative spread of (3 eps)^(1/6), then DLMF 19.36.1's
// series to degree 7 (Carlson 1995): relative error a few ulp, as GSL's, without a library
// call and its error bookkeeping per ray.
#include <algorithm>
#include <cmath>
#include <limits>

namespace starlens::carlson {

inline double rf(double x, double y, double z) {
  const double x0 = x, y0 = y, mean0 = (x + y + z) / 3;
  // (3 * 2^-53)^(-1/6): once the spread is below mean / this, the series is exact to rounding.
  constexpr double kSpreadFactor = 379.95;
  double spread =
      kSpreadFactor * std::max({std::abs(mean0 - x), std::abs(mean0 - y), std::abs(mean0 - z)});
  double mean = mean0, scale = 1;
  // Each duplication quarters the spread; 200 steps bound the loop for invalid input
  // (two zero arguments, NaN leaves the loop at once).
  for (int step = 0; step < 200 && spread >= std::abs(mean); ++step) {
    const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const double lambda = sx * sy + sy * sz + sz * sx;
    x = (x + lambda) / 4;
    y = (y + lambda) / 4;
    z = (z + lambda) / 4;
    mean = (mean + lambda) / 4;
    spread /= 4;
    scale *= 4;
  }
  if (spread >= std::abs(mean)) return std::numeric_limits<double>::quiet_NaN();
  // mean - x quarters exactly with each duplication: take it from the start, uncancelled.
  const double dx = (mean0 - x0) / (scale * mean);
  const double dy = (mean0 - y0) / (scale * mean);
  const double dz = -dx - dy;
  const double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
  return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44 - 5 * e2 * e2 * e2 / 208 +
          3 * e3 * e3 / 104 + e2 * e2 * e3 / 16) /
         std::sqrt(mean);
}

// R_F(0, y, z) = pi / (2 AGM(sqrt(y), sqrt(z))), y, z > 0: the complete integral, with one
// square root per step and quadratic convergence.
inline double rf_complete(double y, double z) {
  double a = std::sqrt(y), b = std::sqrt(z);
  // Once |a - b| < 1e-8 a the next mean is exact to (1e-8)^2 / 16: rounding.
  for (int step = 0; step < 64 && std::abs(a - b) >= 1e-8 * a; ++step) {
    const double next = (a + b) / 2;
    b = std::sqrt(a * b);
    a = next;
  }
  return 3.14159265358979323846 / (a + b);
}

}  // namespace starlens::carlson
