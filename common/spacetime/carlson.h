#pragma once
// Carlson's symmetric elliptic integral of the first kind from GSL,
// R_F(x, y, z) = (1/2) integral_0^inf dt / sqrt((t + x)(t + y)(t + z)), x, y, z >= 0, at most
// one of them zero: NaN where GSL reports an error (it never aborts the program).
namespace starlens::carlson {

double rf(double x, double y, double z);

// The complete integral R_F(0, y, z), y, z > 0.
inline double rf_complete(double y, double z) {
  return rf(0.0, y, z);
}

}  // namespace starlens::carlson
