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

// The fly-by's azimuth at radius r (u = 1/r) from the orbit equation
// (du/dphi)^2 = P(u) = (E^2 - 1)/L^2 + 2u/L^2 - u^2 + 2u^3, by Simpson's rule on
// phi = integral_0^sqrt(u_p - u) 2 s ds / sqrt(P(u_p - s^2)), which is regular at s = 0
// (there the integrand tends to 2 / sqrt(-P'(u_p))): independent of the time integration.
double flyby_azimuth_at(const Flyby& f, double r) {
  const long double E = f.energy, L = f.angular_momentum, up = 1 / (long double)f.periapsis;
  auto P = [&](long double u) {
    return (E * E - 1) / (L * L) + 2 * u / (L * L) - u * u + 2 * u * u * u;
  };
  const long double dP = 2 / (L * L) - 2 * up + 6 * up * up;
  auto integrand = [&](long double s) {
    return s == 0 ? 2 / std::sqrt(-dP) : 2 * s / std::sqrt(P(up - s * s));
  };
  const long double S = std::sqrt(up - 1 / (long double)r);
  const int n = 20000;
  const long double h = S / n;
  long double sum = integrand(0) + integrand(S);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * integrand(i * h);
  return (double)(sum * h / 3);
}

TEST_CASE("fly-by: E and L conserved, the orbit equation's azimuth, mirrored before periapsis") {
  for (const auto& [rp, v_inf] : {std::pair{8.0, 0.3}, std::pair{20.0, 0.1}, std::pair{5.0, 0.6}}) {
    CAPTURE(rp);
    const Flyby f = flyby_orbit(rp, v_inf);
    REQUIRE(flyby_turns(f));
    const WorldlinePoint p0 = flyby(f, 0.5, 1, 0);
    CHECK(p0.r == rp);
    CHECK(p0.velocity[0] == 0);
    for (const double tau : {5.0, 40.0, 300.0, 2000.0}) {
      CAPTURE(tau);
      const WorldlinePoint p = flyby(f, 0.5, 1, tau);
      const WorldlinePoint q = flyby(f, 0.5, 1, -tau);
      const double v2 = p.velocity[0] * p.velocity[0] + p.velocity[2] * p.velocity[2];
      const double gamma = 1 / std::sqrt(1 - v2);
      CHECK(gamma * std::sqrt(1 - 2 / p.r) == doctest::Approx(f.energy).epsilon(1e-10));
      CHECK(gamma * p.velocity[2] * p.r == doctest::Approx(f.angular_momentum).epsilon(1e-10));
      CHECK(p.velocity[0] > 0);
      CHECK(std::abs(p.phi - 0.5 - flyby_azimuth_at(f, p.r)) < 1e-8);
      CHECK(q.r == p.r);
      CHECK(q.phi - 0.5 == doctest::Approx(-(p.phi - 0.5)));
      CHECK(q.velocity[0] == -p.velocity[0]);
    }
    // Retrograde turns the other way.
    CHECK(flyby(f, 0.5, -1, 100).phi - 0.5 == doctest::Approx(-(flyby(f, 0.5, 1, 100).phi - 0.5)));
  }
  // From far away at low speed a periapsis inside ~4 M is captured instead.
  CHECK_FALSE(flyby_turns(flyby_orbit(3.5, 0.05)));
}
