// The closed-form worldlines (animation/worldlines.h) against a long-double RK4 integration of
// the Schwarzschild geodesic equations in the camera's proper time (M = 1):
//   d2r/dtau2 = -1/r^2 + L^2/r^3 - 3 L^2/r^4,   dphi/dtau = L/r^2,   dt/dtau = E / (1 - 2/r),
// started from the velocity the worldline gives the static observer there (u^r = gamma v_r
// sqrt(1 - 2/r), u^phi = gamma v_phi / r): the orbit must stay at its radius and sweep the same
// azimuth, the fall must pass the same radii, and the static observer's speed must be
// |dr/dtau| / E of the integrated fall.
#include <doctest/doctest.h>

#include <cmath>

#include "animation/worldlines.h"

using namespace starlens::animation;

namespace {

struct State {
  long double r, ur, phi;
};

State derivative(const State& s, long double L) {
  const long double r = s.r;
  return {s.ur, -1 / (r * r) + L * L / (r * r * r) - 3 * L * L / (r * r * r * r), L / (r * r)};
}

State step(const State& s, long double L, long double h) {
  auto add = [](const State& a, const State& k, long double f) {
    return State{a.r + f * k.r, a.ur + f * k.ur, a.phi + f * k.phi};
  };
  const State k1 = derivative(s, L);
  const State k2 = derivative(add(s, k1, h / 2), L);
  const State k3 = derivative(add(s, k2, h / 2), L);
  const State k4 = derivative(add(s, k3, h), L);
  return {s.r + h / 6 * (k1.r + 2 * k2.r + 2 * k3.r + k4.r),
          s.ur + h / 6 * (k1.ur + 2 * k2.ur + 2 * k3.ur + k4.ur),
          s.phi + h / 6 * (k1.phi + 2 * k2.phi + 2 * k3.phi + k4.phi)};
}

// Integrates from the worldline's point at tau = 0 to tau, in n steps.
State integrate(const WorldlinePoint& p0, double tau, int n) {
  const long double lapse = std::sqrt(1 - 2 / (long double)p0.r);
  const long double v2 =
      (long double)p0.velocity[0] * p0.velocity[0] + (long double)p0.velocity[2] * p0.velocity[2];
  const long double gamma = 1 / std::sqrt(1 - v2);
  State s{p0.r, gamma * p0.velocity[0] * lapse, p0.phi};
  const long double L = gamma * p0.velocity[2] * p0.r;  // r^2 u^phi
  const long double h = tau / n;
  for (int i = 0; i < n; ++i) s = step(s, L, h);
  return s;
}

}  // namespace

TEST_CASE("circular orbit: a geodesic at its radius, sweeping the closed-form azimuth") {
  for (const double r : {4.0, 6.0, 10.0, 30.0, 1000.0}) {
    for (const int sign : {1, -1}) {
      CAPTURE(r);
      CAPTURE(sign);
      const WorldlinePoint p0 = circular_orbit(r, 0.3, sign, 0);
      CHECK(p0.phi == doctest::Approx(0.3));
      // About a sixth of a revolution (unstable orbits below 6 M drift off slowly under the
      // integration's own error, so they are followed for less).
      const double period = 2 * 3.14159265358979 / orbit_angular_velocity_proper(r);
      const double tau = (r < 6 ? 0.05 : 0.17) * period;
      const State s = integrate(p0, tau, 4000);
      CHECK(std::abs((double)s.r - r) < 1e-7 * r);
      const WorldlinePoint p = circular_orbit(r, 0.3, sign, tau);
      CHECK(std::abs((double)s.phi - p.phi) < 1e-9);
      CHECK(p.r == r);
      CHECK(p.velocity[2] == doctest::Approx(sign * std::sqrt(1 / (r - 2))).epsilon(1e-15));
    }
  }
}

TEST_CASE("radial infall from rest at r0: the cycloid against the integrated fall") {
  for (const double r0 : {10.0, 30.0, 200.0}) {
    CAPTURE(r0);
    const WorldlinePoint p0 = radial_infall(r0, 1.0, 2.0, false, 0);
    CHECK(p0.r == doctest::Approx(r0).epsilon(1e-14));
    CHECK(p0.velocity[0] == 0);
    const double energy = std::sqrt(1 - 2 / r0);
    for (const double fraction : {0.2, 0.5, 0.8, 0.95}) {
      CAPTURE(fraction);
      const double tau = fraction * infall_from_rest_duration(r0);
      const State s = integrate(p0, tau, 20000);
      const WorldlinePoint p = radial_infall(r0, 1.0, 2.0, false, tau);
      CHECK(std::abs(p.r - (double)s.r) < 1e-8 * r0);
      CHECK(p.theta == 1.0);
      CHECK(p.phi == 2.0);
      if (p.r > 2.5) CHECK(-p.velocity[0] == doctest::Approx(-(double)s.ur / energy).epsilon(1e-7));
    }
  }
}

TEST_CASE("radial infall from rest at infinity, at r0 when tau = 0") {
  for (const double r0 : {10.0, 50.0}) {
    CAPTURE(r0);
    const WorldlinePoint p0 = radial_infall(r0, 1.0, 0.0, true, 0);
    CHECK(p0.r == doctest::Approx(r0).epsilon(1e-14));
    CHECK(-p0.velocity[0] == doctest::Approx(std::sqrt(2 / r0)).epsilon(1e-14));
    for (const double fraction : {0.3, 0.7, 0.9}) {
      const double tau = fraction * infall_from_infinity_duration(r0);
      const State s = integrate(p0, tau, 20000);
      const WorldlinePoint p = radial_infall(r0, 1.0, 0.0, true, tau);
      CHECK(std::abs(p.r - (double)s.r) < 1e-8 * r0);
      CHECK(-p.velocity[0] == doctest::Approx(-(double)s.ur).epsilon(1e-7));
    }
  }
}
