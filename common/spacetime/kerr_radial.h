#pragma once
// The radial motion of a backward-traced light ray in Kerr spacetime (M = 1, Boyer-Lindquist
// r) in closed form. A ray of energy-scaled angular momentum lambda and Carter constant eta has
// the radial potential
//   R(r) = (r^2 + a^2 - a lambda)^2 - Delta (eta + (lambda - a)^2),  Delta = r^2 - 2r + a^2,
// a quartic with no cubic term whose roots (Ferrari's resolvent, polished by Newton's method in
// long double) decide whether the ray, leaving r_obs outward or inward, reaches infinity: an
// inward ray escapes only by turning at the largest root r4 > r_+ (Gralla & Lupsasca 2020,
// "Null geodesics of the Kerr exterior", the cases of four real roots), an outward one unless a
// turning point lies above it. The Mino-time integral of dr / sqrt(R) and those of
// dr / ((r - r_+-) sqrt(R)) along the ray are Carlson's integrals over [y, infinity) of a quartic
// (Carlson 1988, "A table of elliptic integrals of the third kind", the limit x -> infinity of
// its formulas), taken with complex square roots so that one formula holds for real roots and
// complex-conjugate pairs alike.
#include <array>
#include <complex>

namespace starlens::kerr {

struct RadialRoots {
  // Two real roots first (ascending) where there are any, then complex-conjugate pairs: the
  // pairing (1,2)(3,4) the integrals need. All four real: ascending.
  std::array<std::complex<double>, 4> root;
  int real_count = 0;  // 0, 2 or 4
};

// The roots of R for spin a and the ray's constants.
RadialRoots radial_roots(double a, double lambda, double eta);

struct RadialPath {
  bool escapes = false;
  double mino = 0;     // integral of dr / sqrt(R) from r_obs to infinity along the ray
  double k_plus = 0;   // integral of dr / ((r - r_+) sqrt(R))
  double k_minus = 0;  // integral of dr / ((r - r_-) sqrt(R))
};

// The ray from r_obs (> r_+), leaving outward when `outward` (inward otherwise).
RadialPath radial_path(double a, double lambda, double eta, double r_obs, bool outward);

}  // namespace starlens::kerr
