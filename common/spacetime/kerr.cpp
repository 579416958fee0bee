#include "spacetime/kerr.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/errors.h"
#include "spacetime/kerr_angular.h"
#include "spacetime/kerr_radial.h"
#include "spacetime/kerr_zamo.h"
#include "spacetime/vector_ops.h"

namespace starlens {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

struct KerrSpacetime::Path {
  RayStatus status = RayStatus::failed;
  double g = kNaN;
  Vec3 source{kNaN, kNaN, kNaN};
  double half_periods = kNaN;
};

KerrSpacetime::KerrSpacetime(const Observer& observer) : a_(observer.spin), r_obs_(observer.r_obs) {
  if (!(std::abs(a_) < 1))
    throw_input_error("(arguments)", "--spin",
                      "must be finite with |A| < 1, got " + std::to_string(a_));
  const double r_plus = kerr::outer_horizon(a_);
  if (!(std::isfinite(r_obs_) && r_obs_ > r_plus))
    throw_input_error("(arguments)", "--r-obs",
                      "must be finite and outside the outer horizon r_+ = " +
                          std::to_string(r_plus) + ", got " + std::to_string(r_obs_));
  const double inclination = observer.inclination;
  if (!(inclination >= 0 && inclination <= std::numbers::pi))
    throw_input_error("(arguments)", "--inclination", "must be within [0, 180] degrees");
  const Vec3& h = observer.hole_direction;
  const Vec3& p = observer.spin_sky;
  if (!(std::abs(vec::norm(h) - 1) < 1e-12))
    throw_input_error("(arguments)", "hole direction", "not a unit vector");
  if (!(std::abs(vec::norm(p) - 1) < 1e-12 && std::abs(vec::dot(p, h)) < 1e-12))
    throw_input_error("(arguments)", "spin projection", "not a unit vector normal to the hole");
  // On the axis exactly (sin = 0) lambda vanishes for every ray.
  cos_obs_ = std::cos(inclination);
  sin_obs_ = inclination == std::numbers::pi ? 0 : std::sin(inclination);
  if (inclination == std::numbers::pi) cos_obs_ = -1;
  const kerr::Zamo zamo = kerr::zamo_at(a_, r_obs_, cos_obs_, sin_obs_);
  sigma_ = zamo.sigma;
  big_a_ = zamo.big_a;
  alpha_ = zamo.alpha;
  omega_ = zamo.omega;
  varpi_ = zamo.varpi;
  const Vec3 out = vec::scaled(-1, h);
  e_r_ = out;
  e_theta_ = vec::scaled(-1, p);
  e_phi_ = vec::cross(p, out);
  z_ = vec::plus(vec::scaled(cos_obs_, out), vec::scaled(sin_obs_, p));
  x_ = vec::minus(vec::scaled(sin_obs_, out), vec::scaled(cos_obs_, p));
  y_ = vec::cross(z_, x_);
}

bool KerrSpacetime::follow(const Vec3& n, Path& path) const {
  const double n_r = vec::dot(n, e_r_);
  double n_theta = vec::dot(n, e_theta_);
  const double n_phi = vec::dot(n, e_phi_);
  const double energy = alpha_ - omega_ * varpi_ * n_phi;
  const double lambda = -varpi_ * n_phi / energy;
  const double c2 = cos_obs_ * cos_obs_;
  const double eta =
      (sigma_ * n_theta * n_theta + c2 * (big_a_ / sigma_) * n_phi * n_phi) / (energy * energy) -
      a_ * a_ * c2;
  // On the axis the chart is turned to the ray's azimuth phi0, where it leaves along e_theta.
  double phi0 = 0;
  int direction = n_theta > 0 ? -1 : n_theta < 0 ? 1 : (cos_obs_ > 0 ? -1 : 1);
  if (sin_obs_ == 0) {
    const double transverse = std::hypot(n_theta, n_phi);
    phi0 = transverse > 0 ? std::atan2(vec::dot(n, y_), vec::dot(n, x_)) : 0;
    n_theta = transverse;
    direction = cos_obs_ > 0 ? -1 : 1;
  }
  path.g = 1 / energy;
  const kerr::RadialPath radial = kerr::radial_path(a_, lambda, eta, r_obs_, n_r >= 0);
  if (!radial.escapes) {
    path.status = std::isnan(radial.mino) ? RayStatus::failed : RayStatus::captured;
    return false;
  }
  const kerr::AngularStart start{a_,       lambda,   eta,
                                 cos_obs_, sin_obs_, sigma_ * n_theta * n_theta / (energy * energy),
                                 direction};
  const kerr::AngularEnd end = kerr::angular_end(start, radial.mino);
  if (!end.ok) {
    path.status = RayStatus::failed;
    return false;
  }
  // dphi/ds = -(a (2r - a lambda) / Delta + lambda / sin^2(theta)) along the backward ray, the
  // radial part by partial fractions over r_+ and r_-.
  double dphi = -lambda * end.g_phi + std::numbers::pi * end.pole_crossings;
  if (a_ != 0) {
    const double root = std::sqrt((1 - a_) * (1 + a_));
    const double r_plus = 1 + root, r_minus = a_ * a_ / r_plus;
    dphi -=
        a_ / (2 * root) *
        ((2 * r_plus - a_ * lambda) * radial.k_plus - (2 * r_minus - a_ * lambda) * radial.k_minus);
  }
  const double phi = phi0 + dphi;
  const double c = std::cos(phi), s = std::sin(phi);
  Vec3 source{};
  for (int k = 0; k < 3; ++k)
    source[k] = end.sin_theta * (c * x_[k] + s * y_[k]) + end.cos_theta * z_[k];
  path.source = vec::normalized(source);
  path.half_periods = end.half_periods;
  path.status = RayStatus::escaped;
  return true;
}

TracedRay KerrSpacetime::trace(const Vec3& camera_direction) const {
  Path path;
  if (!follow(camera_direction, path)) return TracedRay{path.status, {kNaN, kNaN, kNaN}, kNaN};
  return TracedRay{RayStatus::escaped, path.source, path.g, order_of(path.half_periods)};
}

}  // namespace starlens
