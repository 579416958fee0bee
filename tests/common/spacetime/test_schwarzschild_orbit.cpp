// The closed-form Schwarzschild deflection against an independent long-double quadrature
// (orbit_reference.h): docs/design.md section 10's budget of 1e-10 rad for escaping rays away from
// the critical angle, and the capture decision on both sides of it.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "deflection_angles.h"
#include "orbit_reference.h"
#include "spacetime/schwarzschild_orbit.h"

namespace sw = starlens::schwarzschild;

namespace {

constexpr double kBudget = 1e-10;  // docs/design.md section 10

}  // namespace

TEST_CASE("Schwarzschild deflection matches long-double quadrature to 1e-10 rad") {
  for (double r_obs : {4.0, 6.0, 10.0, 30.0, 1000.0}) {
    const double critical = sw::critical_angle(r_obs);
    double worst = 0, worst_psi = 0;
    int escaped = 0, captured = 0;
    for (double psi : starlens::test::deflection_test_angles(r_obs)) {
      const auto reference = starlens::test::reference_escape_azimuth(r_obs, psi);
      const bool captured_here = sw::is_captured(r_obs, psi);
      INFO("r_obs = " << r_obs << ", psi = " << psi << ", critical = " << critical);
      REQUIRE(captured_here == !reference.has_value());
      if (captured_here) {
        ++captured;
        continue;
      }
      ++escaped;
      const double error = std::abs(sw::escape_azimuth(r_obs, psi) - double(*reference));
      CHECK(error <= kBudget);
      if (error > worst) worst = error, worst_psi = psi;
    }
    MESSAGE("r_obs " << r_obs << ": " << escaped << " escaped, " << captured
                     << " captured; max |error| " << worst << " rad at psi " << worst_psi);
    CHECK(captured > 0);
  }
}

TEST_CASE("capture is decided on both sides of the critical angle") {
  for (double r_obs : {3.001, 4.0, 6.0, 10.0, 30.0, 1000.0, 1e8}) {
    const double critical = sw::critical_angle(r_obs);
    // b(critical) = 3 sqrt(3) by construction; check that with an independent formula.
    CHECK(std::abs(r_obs * std::sin(critical) / std::sqrt(1 - 2 / r_obs) -
                   sw::kCriticalImpactParameter) < 1e-12);
    for (double offset : {1e-4, 1e-6, 1e-9, 1e-12}) {
      if (offset > critical / 2) continue;  // angles are in [0, pi]
      INFO("r_obs " << r_obs << " offset " << offset);
      CHECK(starlens::test::reference_is_captured(r_obs, critical - offset));
      CHECK_FALSE(starlens::test::reference_is_captured(r_obs, critical + offset));
      CHECK(sw::is_captured(r_obs, critical - offset));
      CHECK_FALSE(sw::is_captured(r_obs, critical + offset));
      CHECK(std::isfinite(sw::escape_azimuth(r_obs, critical + offset)));
    }
    CHECK(sw::is_captured(r_obs, 0.0));
    CHECK_FALSE(sw::is_captured(r_obs, std::numbers::pi / 2));
    CHECK_FALSE(sw::is_captured(r_obs, std::numbers::pi));
  }
}

TEST_CASE("the deflection has its limiting values") {
  // Radially outgoing: no azimuth at all (sin(std::numbers::pi) is 1.2e-16, not 0). Far observer,
  // ray at periapsis: half the weak-field deflection 4/b + 15 pi/(4 b^2) + O(1/b^3) beyond pi/2.
  CHECK(sw::escape_azimuth(30, std::numbers::pi) < 1e-15);
  const double r_obs = 1e6;
  const double b = r_obs / std::sqrt(1 - 2 / r_obs);
  CHECK(std::abs(sw::escape_azimuth(r_obs, std::numbers::pi / 2) -
                 (std::numbers::pi / 2 + 2 / b + 15 * std::numbers::pi / (8 * b * b))) < 1e-15);
}
