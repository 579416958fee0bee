#include "animation/worldlines.h"

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

}  // namespace starlens::animation
