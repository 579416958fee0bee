#include "spacetime/carlson_fused.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "spacetime/carlson.h"
#include "spacetime/carlson_complex.h"

namespace starlens::carlson {
namespace {

using Complex = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Carlson's r, the relative error the series are taken at (as in carlson_complex.cpp).
constexpr double kError = 1e-16;
// Below this |e| the series of R_C(1, 1 + e) to (-e)^8 / 17 is exact to rounding.
constexpr double kSeriesLimit = 1e-2;

// sum over k of (-e)^k / (2k + 1), k = 0..8.
template <class T>
T rc_one_series(T e) {
  T sum = T(1.0 / 17);
  for (int k = 7; k >= 0; --k) sum = T(1.0 / (2 * k + 1)) - e * sum;
  return sum;
}

// R_C(1, b) for b = 1 + e near 0, from b itself: with v = sqrt(1 - b), atanh(v) / v =
// log((1 + v) / sqrt(b)) / v, since 1 - v = b / (1 + v).
double rc_near_zero(double b) {
  if (!(b > 0)) return std::numeric_limits<double>::quiet_NaN();
  const double v = std::sqrt(1 - b);
  return std::log((1 + v) / std::sqrt(b)) / v;
}
std::complex<double> rc_near_zero(std::complex<double> b) {
  return rc(std::complex<double>(1.0), b);
}

template <class T>
FusedIntegrals<T> fused(T x, T y, T z, const T* p_in, int count) {
  const T f0 = (x + y + z) / 3.0;
  T j0[2] = {T(0.0), T(0.0)}, delta[2] = {T(0.0), T(0.0)}, p[2] = {T(0.0), T(0.0)};
  double q = std::pow(3 * kError, -1.0 / 6) *
             std::max({std::abs(f0 - x), std::abs(f0 - y), std::abs(f0 - z)});
  double q_j[2] = {0, 0};
  for (int k = 0; k < count; ++k) {
    p[k] = p_in[k];
    j0[k] = (x + y + z + 2.0 * p[k]) / 5.0;
    delta[k] = (p[k] - x) * (p[k] - y) * (p[k] - z);
    q_j[k] =
        std::pow(kError / 4, -1.0 / 6) * std::max({std::abs(j0[k] - x), std::abs(j0[k] - y),
                                                   std::abs(j0[k] - z), std::abs(j0[k] - p[k])});
  }
  const T x0 = x, y0 = y, z0 = z;
  T a_f = f0, a_j[2] = {j0[0], j0[1]}, sum[2] = {T(0.0), T(0.0)};
  double scale = 1;  // 4^-m
  const auto settled = [&] {
    if (scale * q >= std::abs(a_f)) return false;
    for (int k = 0; k < count; ++k)
      if (scale * q_j[k] >= std::abs(a_j[k])) return false;
    return true;
  };
  for (int m = 0; m < 100 && !settled(); ++m) {
    const T sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const T lambda = sx * (sy + sz) + sy * sz;
    for (int k = 0; k < count; ++k) {
      const T sp = std::sqrt(p[k]);
      const T d = (sp + sx) * (sp + sy) * (sp + sz);
      const T e = scale * scale * scale * delta[k] / (d * d);
      // Next to e = -1, 1 + e by the duplication formula (d^2 + delta_m = 2 sqrt(p_m) (p_m +
      // lambda_m) d, delta_m = 4^-3m delta), not by cancellation.
      const T term = std::real(e) < -0.5 ? rc_near_zero(2.0 * sp * (p[k] + lambda) / d) : rc_one(e);
      sum[k] += scale * term / d;
      p[k] = (p[k] + lambda) * 0.25;
      a_j[k] = (a_j[k] + lambda) * 0.25;
    }
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    a_f = (a_f + lambda) * 0.25;
    scale *= 0.25;
  }
  FusedIntegrals<T> out{};
  {
    const T dx = (f0 - x0) * scale / a_f, dy = (f0 - y0) * scale / a_f, dz = -dx - dy;
    const T e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
    out.rf = (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / std::sqrt(a_f);
  }
  for (int k = 0; k < count; ++k) {
    const T a = a_j[k];
    const T dx = (j0[k] - x0) * scale / a, dy = (j0[k] - y0) * scale / a,
            dz = (j0[k] - z0) * scale / a;
    const T dp = -(dx + dy + dz) / 2.0;
    const T e2 = dx * dy + dx * dz + dy * dz - 3.0 * dp * dp;
    const T e3 = dx * dy * dz + 2.0 * e2 * dp + 4.0 * dp * dp * dp;
    const T e4 = (2.0 * dx * dy * dz + e2 * dp + 3.0 * dp * dp * dp) * dp;
    const T e5 = dx * dy * dz * dp * dp;
    const T series = 1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0 -
                     9.0 * e2 * e3 / 52.0 + 3.0 * e5 / 26.0;
    out.rj[k] = scale * series / (a * std::sqrt(a)) + 6.0 * sum[k];
  }
  return out;
}

bool proper(double x, double y, double z) {
  const int zeros = (x == 0) + (y == 0) + (z == 0);
  return x >= 0 && y >= 0 && z >= 0 && zeros <= 1 && std::isfinite(x + y + z);
}

}  // namespace

double rc_one(double e) {
  // R_J's e falls by about 64 each duplication step: after the first, four terms are enough.
  if (std::abs(e) < 1e-5) return 1 - e * (1.0 / 3 - e * (1.0 / 5 - e * (1.0 / 7)));
  if (std::abs(e) < kSeriesLimit) return rc_one_series(e);
  if (e > 0) {
    const double root = std::sqrt(e);
    return std::atan(root) / root;
  }
  if (e > -1) {
    const double root = std::sqrt(-e);
    return std::atanh(root) / root;
  }
  return kNaN;  // 1 + e <= 0: outside R_C's proper domain
}

Complex rc_one(Complex e) {
  const double size = std::abs(e);
  if (size < 1e-5) return 1.0 - e * (1.0 / 3 - e * (1.0 / 5 - e * (1.0 / 7)));
  if (size < kSeriesLimit) return rc_one_series(e);
  return rc(Complex(1.0), 1.0 + e);
}

FusedIntegrals<double> rf_rj(double x, double y, double z, const double* p, int count) {
  FusedIntegrals<double> out{kNaN, {kNaN, kNaN}};
  if (!proper(x, y, z)) return out;
  double valid[2] = {0, 0};
  int used = 0;
  for (int k = 0; k < count; ++k) {
    if (!(p[k] > 0) || !std::isfinite(p[k])) continue;
    valid[used++] = p[k];
  }
  const FusedIntegrals<double> found = fused(x, y, z, valid, used);
  out.rf = found.rf;
  used = 0;
  for (int k = 0; k < count; ++k)
    if (p[k] > 0 && std::isfinite(p[k])) out.rj[k] = found.rj[used++];
  for (double* value : {&out.rf, &out.rj[0], &out.rj[1]})
    if (!std::isfinite(*value)) *value = kNaN;
  return out;
}

FusedIntegrals<Complex> rf_rj(Complex x, Complex y, Complex z, const Complex* p, int count) {
  return fused(x, y, z, p, count);
}

}  // namespace starlens::carlson
