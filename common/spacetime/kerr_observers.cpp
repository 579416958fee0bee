#include "spacetime/kerr_observers.h"

#include <cmath>
#include <limits>

#include "spacetime/kerr_zamo.h"

namespace starlens::kerr {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// r^(3/2) - 3 r^(1/2) + 2 a_s: positive exactly outside the photon orbit.
double orbit_denominator(double a_s, double r) {
  const double q = std::sqrt(r);
  return q * (r - 3) + 2 * a_s;
}

}  // namespace

int orbit_phi_sign(double a, OrbitSense sense) {
  const int co = a < 0 ? -1 : 1;
  return sense == OrbitSense::prograde ? co : -co;
}

double circular_photon_orbit(double a, int s) {
  return 2 * (1 + std::cos(2.0 / 3.0 * std::acos(-s * a)));
}

double isco_radius(double a, int s) {
  const double a_s = s * a;
  const double z1 = 1 + std::cbrt((1 - a) * (1 + a)) * (std::cbrt(1 + a) + std::cbrt(1 - a));
  const double z2 = std::sqrt(3 * a * a + z1 * z1);
  const double root = std::sqrt((3 - z1) * (3 + z1 + 2 * z2));
  return 3 + z2 + (a_s >= 0 ? -root : root);
}

double orbit_angular_velocity(double a, double r, int s) {
  if (!(r > circular_photon_orbit(a, s) && orbit_denominator(s * a, r) > 0)) return kNaN;
  return s / (r * std::sqrt(r) + s * a);
}

double orbit_time_dilation(double a, double r, int s) {
  const double d = orbit_denominator(s * a, r);
  if (!(r > circular_photon_orbit(a, s) && d > 0)) return kNaN;
  return (r * std::sqrt(r) + s * a) / (std::pow(r, 0.75) * std::sqrt(d));
}

double orbit_zamo_velocity(double a, double r, int s) {
  const double omega_orbit = orbit_angular_velocity(a, r, s);
  if (std::isnan(omega_orbit)) return kNaN;
  const Zamo z = zamo_at(a, r, 0, 1);
  return z.varpi * (omega_orbit - z.omega) / z.alpha;
}

double infall_zamo_speed(double a, double r, double cos_theta, double sin_theta) {
  const Zamo z = zamo_at(a, r, cos_theta, sin_theta);
  return std::sqrt(2 * r * (r * r + a * a) / z.big_a);
}

}  // namespace starlens::kerr
