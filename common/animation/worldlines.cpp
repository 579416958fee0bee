#include "animation/worldlines.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace starlens::animation {

double orbit_angular_velocity_proper(double r) {
  return std::sqrt(1 / (r * r * r)) / std::sqrt(1 - 3 / r);
}

WorldlinePoint circular_orbit(double r, double phi0, int sign, double tau) {
  WorldlinePoint p;
  p.r = r;
  p.theta = std::numbers::pi / 2;
  p.phi = phi0 + sign * orbit_angular_velocity_proper(r) * tau;
  p.velocity = {0, 0, sign * std::sqrt(1 / (r - 2))};
  return p;
}

double infall_from_rest_duration(double r0) {
  return std::numbers::pi * std::sqrt(r0 * r0 * r0 / 8);
}

double infall_from_rest_radius(double r0, double tau) {
  // tau / sqrt(r0^3 / 8) = eta + sin(eta) is increasing in eta on [0, pi): Newton's method
  // from the bracketing midpoint, kept inside the bracket by bisection.
  const double target = tau / std::sqrt(r0 * r0 * r0 / 8);
  double lo = 0, hi = std::numbers::pi, eta = target / 2;
  for (int i = 0; i < 100; ++i) {
    const double f = eta + std::sin(eta) - target;
    if (f > 0)
      hi = eta;
    else
      lo = eta;
    const double slope = 1 + std::cos(eta);
    double next = slope > 0 ? eta - f / slope : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::abs(next - eta) < 1e-15 * std::max(1.0, eta)) {
      eta = next;
      break;
    }
    eta = next;
  }
  return r0 / 2 * (1 + std::cos(eta));
}

double infall_from_infinity_duration(double r0) {
  return 2.0 / 3.0 * std::pow(r0, 1.5) / std::sqrt(2.0);
}

double infall_from_infinity_radius(double r0, double tau) {
  return std::pow(std::pow(r0, 1.5) - 1.5 * std::sqrt(2.0) * tau, 2.0 / 3.0);
}

double infall_speed(double r, double energy) {
  const double v2 = 1 - (1 - 2 / r) / (energy * energy);
  return v2 > 0 ? std::sqrt(v2) : 0;
}

WorldlinePoint radial_infall(double r0, double theta, double phi, bool from_infinity, double tau) {
  WorldlinePoint p;
  p.theta = theta;
  p.phi = phi;
  p.r = from_infinity ? infall_from_infinity_radius(r0, tau) : infall_from_rest_radius(r0, tau);
  const double energy = from_infinity ? 1 : std::sqrt(1 - 2 / r0);
  p.velocity = {-infall_speed(p.r, energy), 0, 0};
  return p;
}

Flyby flyby_orbit(double periapsis, double speed_at_infinity) {
  Flyby f;
  f.periapsis = periapsis;
  f.energy = 1 / std::sqrt((1 - speed_at_infinity) * (1 + speed_at_infinity));
  const double l2 = periapsis * periapsis * (f.energy * f.energy / (1 - 2 / periapsis) - 1);
  f.angular_momentum = std::sqrt(std::max(l2, 0.0));
  return f;
}

bool flyby_turns(const Flyby& f) {
  const double l2 = f.angular_momentum * f.angular_momentum;
  return l2 * (f.periapsis - 3) > f.periapsis * f.periapsis;
}

WorldlinePoint flyby(const Flyby& f, double phi0, int sign, double tau) {
  const double L = f.angular_momentum;
  struct State {
    double r, ur, phi;
  };
  auto derivative = [L](const State& s) {
    const double r = s.r, l2 = L * L;
    return State{s.ur, -1 / (r * r) + l2 / (r * r * r) - 3 * l2 / (r * r * r * r), L / (r * r)};
  };
  auto add = [](const State& a, const State& k, double w) {
    return State{a.r + w * k.r, a.ur + w * k.ur, a.phi + w * k.phi};
  };
  const double target = std::abs(tau);
  State s{f.periapsis, 0, 0};
  for (double t = 0; t < target;) {
    const double h = std::min(0.001 * std::pow(s.r, 1.5), target - t);
    const State k1 = derivative(s);
    const State k2 = derivative(add(s, k1, h / 2));
    const State k3 = derivative(add(s, k2, h / 2));
    const State k4 = derivative(add(s, k3, h));
    s = {s.r + h / 6 * (k1.r + 2 * k2.r + 2 * k3.r + k4.r),
         s.ur + h / 6 * (k1.ur + 2 * k2.ur + 2 * k3.ur + k4.ur),
         s.phi + h / 6 * (k1.phi + 2 * k2.phi + 2 * k3.phi + k4.phi)};
    t += h;
  }
  // The orbit is symmetric about periapsis: tau < 0 is the mirror image, falling in.
  const double mirror = tau < 0 ? -1 : 1;
  WorldlinePoint p;
  p.r = s.r;
  p.theta = std::numbers::pi / 2;
  p.phi = phi0 + sign * mirror * s.phi;
  p.velocity = {mirror * s.ur / f.energy, 0, sign * L / s.r * std::sqrt(1 - 2 / s.r) / f.energy};
  return p;
}

}  // namespace starlens::animation
