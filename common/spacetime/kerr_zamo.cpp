#include "spacetime/kerr_zamo.h"

#include <cmath>

namespace starlens::kerr {

Zamo zamo_at(double a, double r, double cos_theta, double sin_theta) {
  Zamo z{};
  const double a2 = a * a;
  z.sigma = r * r + a2 * cos_theta * cos_theta;
  z.delta = r * r - 2 * r + a2;
  const double r2a2 = r * r + a2;
  z.big_a = r2a2 * r2a2 - a2 * z.delta * sin_theta * sin_theta;
  z.alpha = std::sqrt(z.sigma * z.delta / z.big_a);
  z.omega = 2 * a * r / z.big_a;
  z.varpi = std::sqrt(z.big_a / z.sigma) * sin_theta;
  return z;
}

double outer_horizon(double a) {
  return 1 + std::sqrt((1 - a) * (1 + a));
}

double ergosphere_radius(double a, double cos_theta) {
  const double ac = a * cos_theta;
  return 1 + std::sqrt((1 - ac) * (1 + ac));
}

double static_velocity(const Zamo& zamo) {
  return -zamo.omega * zamo.varpi / zamo.alpha;
}

}  // namespace starlens::kerr
