#include "spacetime/carlson_complex.h"

#include <algorithm>
#include <cmath>

namespace starlens::carlson {
namespace {

// Carlson's r: the relative error bound the series is taken at.
constexpr double kError = 1e-16;

double largest(std::initializer_list<double> values) {
  return std::max(values);
}

}  // namespace

Complex rf(Complex x, Complex y, Complex z) {
  const Complex a0 = (x + y + z) / 3.0;
  const double q = std::pow(3 * kError, -1.0 / 6) *
                   largest({std::abs(a0 - x), std::abs(a0 - y), std::abs(a0 - z)});
  Complex a = a0;
  double scale = 1;  // 4^-m
  const Complex x0 = x, y0 = y;
  for (int m = 0; m < 100 && scale * q >= std::abs(a); ++m) {
    const Complex sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const Complex lambda = sx * (sy + sz) + sy * sz;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    scale *= 0.25;
  }
  const Complex dx = (a0 - x0) * scale / a, dy = (a0 - y0) * scale / a, dz = -dx - dy;
  const Complex e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
  return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / std::sqrt(a);
}

Complex rc(Complex x, Complex y) {
  const Complex a0 = (x + 2.0 * y) / 3.0;
  const double q = std::pow(3 * kError, -1.0 / 8) * std::abs(a0 - x);
  Complex a = a0;
  double scale = 1;
  const Complex y0 = y;
  for (int m = 0; m < 100 && scale * q >= std::abs(a); ++m) {
    const Complex lambda = 2.0 * std::sqrt(x) * std::sqrt(y) + y;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    scale *= 0.25;
  }
  const Complex s = (y0 - a0) * scale / a;
  return (1.0 + s * s *
                    (3.0 / 10 +
                     s * (1.0 / 7 +
                          s * (3.0 / 8 + s * (9.0 / 22 + s * (159.0 / 208 + s * (9.0 / 8))))))) /
         std::sqrt(a);
}

Complex rj(Complex x, Complex y, Complex z, Complex p) {
  const Complex a0 = (x + y + z + 2.0 * p) / 5.0;
  const Complex delta = (p - x) * (p - y) * (p - z);
  const double q = std::pow(kError / 4, -1.0 / 6) * largest({std::abs(a0 - x), std::abs(a0 - y),
                                                             std::abs(a0 - z), std::abs(a0 - p)});
  Complex a = a0, sum = 0;
  double scale = 1;  // 4^-m
  const Complex x0 = x, y0 = y, z0 = z;
  for (int m = 0; m < 100 && scale * q >= std::abs(a); ++m) {
    const Complex sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z), sp = std::sqrt(p);
    const Complex lambda = sx * (sy + sz) + sy * sz;
    const Complex d = (sp + sx) * (sp + sy) * (sp + sz);
    const Complex e = scale * scale * scale * delta / (d * d);
    sum += scale * rc(1.0, 1.0 + e) / d;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    p = (p + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    scale *= 0.25;
  }
  const Complex dx = (a0 - x0) * scale / a, dy = (a0 - y0) * scale / a, dz = (a0 - z0) * scale / a;
  const Complex dp = -(dx + dy + dz) / 2.0;
  const Complex e2 = dx * dy + dx * dz + dy * dz - 3.0 * dp * dp;
  const Complex e3 = dx * dy * dz + 2.0 * e2 * dp + 4.0 * dp * dp * dp;
  const Complex e4 = (2.0 * dx * dy * dz + e2 * dp + 3.0 * dp * dp * dp) * dp;
  const Complex e5 = dx * dy * dz * dp * dp;
  const Complex series = 1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0 -
                         9.0 * e2 * e3 / 52.0 + 3.0 * e5 / 26.0;
  return scale * series / (a * std::sqrt(a)) + 6.0 * sum;
}

}  // namespace starlens::carlson
