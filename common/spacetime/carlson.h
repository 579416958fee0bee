#pragma once
// Carlson's symmetric elliptic integrals in real arithmetic (Boost.Math):
//   R_F(x, y, z)    = (1/2) integral_0^inf dt / sqrt((t + x)(t + y)(t + z)),
//   R_J(x, y, z, p) = (3/2) integral_0^inf dt / ((t + p) sqrt((t + x)(t + y)(t + z))),
//   R_C(x, y)       = R_F(x, y, y).
// Each takes the domain on which the integral is a proper real integral: x, y, z >= 0 with at
// most one of them zero, and p > 0, y > 0. Outside it (Cauchy principal values included) the
// result is NaN, never an exception: callers take those cases in complex arithmetic
// (carlson_complex.h).
namespace starlens::carlson {

double rf(double x, double y, double z);
double rj(double x, double y, double z, double p);
double rc(double x, double y);

// The complete integral R_F(0, y, z), y, z > 0.
inline double rf_complete(double y, double z) {
  return rf(0.0, y, z);
}

}  // namespace starlens::carlson
