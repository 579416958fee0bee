#pragma once
// The angles at which the deflection tests compare with the reference quadrature.
#include <vector>

namespace starlens::test {

// For one observer: a 0.25 degree grid over [0, 180], angles near 90 degrees and near 180, and
// a ladder of offsets on both sides of the critical angle down to 1.5e-6 rad.
std::vector<double> deflection_test_angles(double r_obs);

}  // namespace starlens::test
