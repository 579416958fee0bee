#include "spacetime/carlson_complex.h"

#include <cmath>

#include "spacetime/carlson_fused.h"

namespace starlens::carlson {
namespace {

// Carlson's r: the relative error bound the series is taken at.
constexpr double kError = 1e-16;

}  // namespace

Complex rf(Complex x, Complex y, Complex z) {
  return rf_rj(x, y, z, nullptr, 0).rf;
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
  return rf_rj(x, y, z, &p, 1).rj[0];
}

}  // namespace starlens::carlson
