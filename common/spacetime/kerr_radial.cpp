#include "spacetime/kerr_radial.h"

#include <algorithm>
#include <cmath>

#include "spacetime/carlson.h"
#include "spacetime/carlson_complex.h"
#include "spacetime/carlson_fused.h"

namespace starlens::kerr {
namespace {

using Complex = std::complex<double>;
using LongComplex = std::complex<long double>;

// The largest real root of Ferrari's resolvent 8m^3 + 8A m^2 + (2A^2 - 8C) m - B^2 (positive
// for B != 0: the cubic is -B^2 at 0): Cardano's or the trigonometric formula for the depressed
// cubic in double (its start; long double's cube roots and trigonometry cost as much as the
// rest of the quartic), then Newton's method in long double.
long double resolvent_root(long double A, long double B, long double C) {
  const long double c2 = A, c1 = (A * A - 4 * C) / 4, c0 = -B * B / 8;  // m^3 + c2 m^2 + c1 m + c0
  const long double p = c1 - c2 * c2 / 3, q = 2 * c2 * c2 * c2 / 27 - c2 * c1 / 3 + c0;
  const long double disc = q * q / 4 + p * p * p / 27;
  double t;
  if (disc >= 0) {
    const double root = std::sqrt(static_cast<double>(disc)), half_q = static_cast<double>(q / 2);
    t = std::cbrt(-half_q + root) + std::cbrt(-half_q - root);
  } else {
    const double arg =
        std::fmax(-1.0, std::fmin(1.0, static_cast<double>(3 * q / (2 * p) * std::sqrt(-3 / p))));
    t = 2 * std::sqrt(static_cast<double>(-p / 3)) * std::cos(std::acos(arg) / 3);
  }
  long double m = t - c2 / 3;
  for (int i = 0; i < 6; ++i) {
    const long double f = ((m + c2) * m + c1) * m + c0;
    const long double df = (3 * m + 2 * c2) * m + c1;
    if (df == 0) break;
    const long double step = f / df;
    m -= step;
    if (std::fabs(step) <= 1e-19L * std::fabs(m)) break;
  }
  return m;
}

// Roots of x^2 + b x + c by the stable formula.
void quadratic(long double b, long double c, LongComplex& low, LongComplex& high) {
  const long double disc = b * b - 4 * c;
  if (disc >= 0) {
    const long double q = -(b + std::copysign(std::sqrt(disc), b)) / 2;
    long double x1 = q, x2 = q != 0 ? c / q : 0;
    if (x1 > x2) std::swap(x1, x2);
    low = x1;
    high = x2;
  } else {
    const long double im = std::sqrt(-disc) / 2;
    low = LongComplex(-b / 2, -im);
    high = LongComplex(-b / 2, im);
  }
}

// Newton's method on the quartic: in real long double for a real root (the quadratic formula
// gave it an imaginary part of zero), in complex arithmetic otherwise.
LongComplex polish(LongComplex x, long double A, long double B, long double C) {
  if (x.imag() == 0) {
    long double t = x.real();
    for (int i = 0; i < 3; ++i) {
      const long double f = ((t * t + A) * t + B) * t + C;
      const long double df = (4 * t * t + 2 * A) * t + B;
      if (df == 0) break;
      t -= f / df;
    }
    return t;
  }
  for (int i = 0; i < 2; ++i) {
    const LongComplex f = ((x * x + A) * x + B) * x + C;
    const LongComplex df = (4.0L * x * x + 2 * A) * x + B;
    if (df == 0.0L) break;
    x -= f / df;
  }
  return x;
}

// Carlson's integrals over [y, infinity) with the fifth factor t - p (p below y):
// first = integral of dt / sqrt(prod (t - r_i)), third = of dt / ((t - p) sqrt(prod (t - r_i))).
struct Integrals {
  double first, third_plus, third_minus;
};

// Carlson's functions in real arithmetic (NaN outside their proper domain, as for the principal
// values, which are taken in complex arithmetic) and in complex arithmetic.
double carlson_rc(double x, double y) {
  return carlson::rc(x, y);
}
Complex carlson_rc(Complex x, Complex y) {
  return carlson::rc(x, y);
}
double real_part(double v) {
  return v;
}
double real_part(Complex v) {
  return v.real();
}

// T = double where all four roots are real (the faster path), Complex otherwise.
template <class T>
Integrals integrals_in(const std::array<T, 4>& r, double y, bool at_root4, double r_plus,
                       double r_minus) {
  T Y[4];
  for (int i = 0; i < 4; ++i) Y[i] = std::sqrt(T(y) - r[i]);
  if (at_root4) Y[3] = 0;
  const T u12 = Y[0] * Y[1] + Y[2] * Y[3], u13 = Y[0] * Y[2] + Y[1] * Y[3],
          u14 = Y[0] * Y[3] + Y[1] * Y[2];
  const T x = u12 * u12, yy = u13 * u13, z = u14 * u14;
  const T d12 = r[1] - r[0], d13 = r[2] - r[0], d14 = r[3] - r[0];
  // At a = 0, r_- = 0 is also a root of R; the integral is then weighted by a = 0 (kerr.h).
  const double poles[2] = {r_plus, r_minus};
  const int count = r_minus == 0 ? 1 : 2;
  T d15[2] = {T(0.0), T(0.0)}, w2[2] = {T(0.0), T(0.0)}, q2[2] = {T(0.0), T(0.0)},
    p2[2] = {T(0.0), T(0.0)};
  for (int k = 0; k < count; ++k) {
    const double p = poles[k];
    d15[k] = p - r[0];
    const T d25 = p - r[1], d35 = p - r[2], d45 = p - r[3];
    w2[k] = x - d13 * d14 * d25 / d15[k];
    q2[k] = (y - p) / (T(y) - r[0]) * w2[k];
    p2[k] = q2[k] + d25 * d35 * d45 / d15[k];
  }
  // R_F and both poles' R_J from one duplication sequence (carlson_fused.h).
  const carlson::FusedIntegrals<T> carlson_values = carlson::rf_rj(x, yy, z, w2, count);
  const T rf = carlson_values.rf;
  Integrals out{2 * real_part(rf), 0, 0};
  for (int k = 0; k < count; ++k) {
    // Carlson's I3 = integral of (t - r1) / ((t - p) sqrt(...)); the wanted one is
    // (I3 - I1) / (p - r1).
    const T i3 = T(2.0) * d12 * d13 * d14 / (T(3.0) * d15[k]) * carlson_values.rj[k] +
                 T(2.0) * carlson_rc(p2[k], q2[k]);
    const double third = real_part((i3 - T(2.0) * rf) / d15[k]);
    (k == 0 ? out.third_plus : out.third_minus) = third;
  }
  return out;
}

Integrals integrals_from(const RadialRoots& roots, double y, bool at_root4, double r_plus,
                         double r_minus) {
  if (roots.real_count == 4) {
    const std::array<double, 4> r{roots.root[0].real(), roots.root[1].real(), roots.root[2].real(),
                                  roots.root[3].real()};
    const Integrals real = integrals_in(r, y, at_root4, r_plus, r_minus);
    if (std::isfinite(real.first) && std::isfinite(real.third_plus) &&
        std::isfinite(real.third_minus))
      return real;
  }
  return integrals_in(roots.root, y, at_root4, r_plus, r_minus);
}

}  // namespace

RadialRoots radial_roots(double a, double lambda, double eta) {
  const long double al = a, ll = lambda, el = eta;
  const long double A = al * al - el - ll * ll;
  const long double B = 2 * (el + (ll - al) * (ll - al));
  const long double C = -al * al * el;
  LongComplex x[4];
  if (B == 0) {  // biquadratic: x^2 = (-A +- sqrt(A^2 - 4C)) / 2
    LongComplex s_low, s_high;
    quadratic(A, C, s_low, s_high);
    x[0] = -std::sqrt(s_high);
    x[1] = -std::sqrt(s_low);
    x[2] = std::sqrt(s_low);
    x[3] = std::sqrt(s_high);
  } else {
    const long double m = resolvent_root(A, B, C);
    const long double s = std::sqrt(2 * m);
    quadratic(s, A / 2 + m - B / (2 * s), x[0], x[1]);
    quadratic(-s, A / 2 + m + B / (2 * s), x[2], x[3]);
  }
  for (auto& xi : x) xi = polish(xi, A, B, C);
  // By the size of the imaginary part; a polished real root keeps one of rounding size at
  // most, and rounding may split a near-double real root into a close pair or the reverse:
  // the count of real roots is made even by the smallest imaginary parts.
  int order[4] = {0, 1, 2, 3};
  for (int i = 1; i < 4; ++i)
    for (int j = i; j > 0 && std::fabs(x[order[j]].imag()) < std::fabs(x[order[j - 1]].imag()); --j)
      std::swap(order[j], order[j - 1]);
  int real_count = 0;
  for (int i = 0; i < 4; ++i)
    if (std::fabs(x[order[i]].imag()) <=
        1e-12L * (1 + std::fabs(x[order[i]].real()) + std::fabs(x[order[i]].imag())))
      ++real_count;
  if (real_count % 2 != 0) ++real_count;
  long double real[4];
  for (int i = 0; i < real_count; ++i) real[i] = x[order[i]].real();
  for (int i = 1; i < real_count; ++i)
    for (int j = i; j > 0 && real[j] < real[j - 1]; --j) std::swap(real[j], real[j - 1]);
  RadialRoots roots;
  roots.real_count = real_count;
  for (int i = 0; i < real_count; ++i) roots.root[i] = Complex(static_cast<double>(real[i]), 0);
  // Complex roots in conjugate pairs, (re, -|im|) then (re, +|im|), the pair of smaller real
  // part first.
  LongComplex rest[4];
  int n = 0;
  for (int i = real_count; i < 4; ++i) rest[n++] = x[order[i]];
  LongComplex pair_root[2];
  int pairs = 0;
  if (n == 2) {
    pair_root[pairs++] = (rest[0] + std::conj(rest[1])) / 2.0L;
  } else if (n == 4) {
    // rest[0]'s partner: the root closest to its conjugate.
    int partner = 1;
    for (int i = 2; i < 4; ++i)
      if (std::abs(rest[i] - std::conj(rest[0])) < std::abs(rest[partner] - std::conj(rest[0])))
        partner = i;
    int others[2], k = 0;
    for (int i = 1; i < 4; ++i)
      if (i != partner) others[k++] = i;
    pair_root[pairs++] = (rest[0] + std::conj(rest[partner])) / 2.0L;
    pair_root[pairs++] = (rest[others[0]] + std::conj(rest[others[1]])) / 2.0L;
    if (pair_root[1].real() < pair_root[0].real()) std::swap(pair_root[0], pair_root[1]);
  }
  for (int i = 0; i < pairs; ++i) {
    const double re = static_cast<double>(pair_root[i].real());
    const double im = static_cast<double>(std::fabs(pair_root[i].imag()));
    roots.root[real_count + 2 * i] = Complex(re, -im);
    roots.root[real_count + 2 * i + 1] = Complex(re, im);
  }
  return roots;
}

RadialPath radial_path(double a, double lambda, double eta, double r_obs, bool outward) {
  const double root_term = std::sqrt((1 - a) * (1 + a));
  const double r_plus = 1 + root_term, r_minus = a * a / r_plus;
  const RadialRoots roots = radial_roots(a, lambda, eta);
  RadialPath path;
  // The band (r3, r4) where R < 0, when the two largest roots are real.
  const bool band = roots.real_count == 4;
  const double r3 = roots.root[2].real(), r4 = roots.root[3].real();
  // R(r_obs) >= 0, so r_obs lies above the band or below it (up to rounding at its edges).
  const bool above_band = !band || r_obs >= (r3 + r4) / 2;
  if (outward) {
    if (!above_band) return path;  // turns at r3 and falls in
    const Integrals from_obs = integrals_from(roots, r_obs, false, r_plus, r_minus);
    path = {true, from_obs.first, from_obs.third_plus, from_obs.third_minus};
  } else {
    if (!band || !above_band || !(r4 > r_plus)) return path;  // nothing turns it before r_+
    if (r4 >= r_obs) {  // at the turning point (rounding): it leaves outward
      const Integrals at = integrals_from(roots, r_obs, true, r_plus, r_minus);
      path = {true, at.first, at.third_plus, at.third_minus};
    } else {
      const Integrals turn = integrals_from(roots, r4, true, r_plus, r_minus);
      const Integrals from_obs = integrals_from(roots, r_obs, false, r_plus, r_minus);
      path = {true, 2 * turn.first - from_obs.first, 2 * turn.third_plus - from_obs.third_plus,
              2 * turn.third_minus - from_obs.third_minus};
    }
  }
  if (!(std::isfinite(path.mino) && std::isfinite(path.k_plus) && std::isfinite(path.k_minus)))
    path.escapes = false, path.mino = NAN;
  return path;
}

}  // namespace starlens::kerr
