#pragma once
// Carlson's R_F(x, y, z) together with R_J(x, y, z, p) at one or two values of p, from one
// duplication sequence of x, y and z (Carlson 1995, "Numerical computation of real or complex
// elliptic integrals", Numer. Algorithms 10, 13-26, algorithms 1 and 2). The Kerr integrals
// (kerr_radial.h, kerr_angular.h) take R_F and R_J at the same x, y, z: sharing the duplication
// steps, and summing R_J's terms R_C(1, 1 + e) by their series once e is small, costs about what
// one of the separate functions does.
//
// Real arguments: the proper domain of carlson.h (x, y, z >= 0, at most one of them zero, p > 0);
// outside it the values are NaN, as there. Complex arguments: the cases of carlson_complex.h.
#include <complex>

namespace starlens::carlson {

template <class T>
struct FusedIntegrals {
  T rf;
  T rj[2];  // at p[0], p[1]; only the first `count` are computed
};

FusedIntegrals<double> rf_rj(double x, double y, double z, const double* p, int count);
FusedIntegrals<std::complex<double>> rf_rj(std::complex<double> x, std::complex<double> y,
                                           std::complex<double> z, const std::complex<double>* p,
                                           int count);

// R_C(1, 1 + e) = atan(sqrt(e)) / sqrt(e), the terms of R_J's sum.
double rc_one(double e);
std::complex<double> rc_one(std::complex<double> e);

}  // namespace starlens::carlson
