#include "deflection_angles.h"

#include <numbers>

#include "spacetime/schwarzschild_orbit.h"

namespace starlens::test {

std::vector<double> deflection_test_angles(double r_obs) {
  std::vector<double> angles;
  for (int i = 0; i <= 720; ++i) angles.push_back(i * 0.25 * std::numbers::pi / 180);
  for (double offset : {1e-3, 1e-6, 1e-9}) {
    angles.push_back(std::numbers::pi / 2 - offset);
    angles.push_back(std::numbers::pi / 2 + offset);
    angles.push_back(std::numbers::pi - offset);
  }
  const double critical = schwarzschild::critical_angle(r_obs);
  for (double offset : {1e-2, 1e-3, 1e-4, 3e-5, 1e-5, 3e-6, 1.5e-6}) {
    angles.push_back(critical - offset);
    angles.push_back(critical + offset);
  }
  return angles;
}

}  // namespace starlens::test
