#include "photon_ring.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "spacetime/vector_ops.h"

namespace starlens::produce {

PhotonRing::PhotonRing(std::shared_ptr<const schwarzschild::PointLens> lens, const Camera& camera,
                       const ObserverMotion& motion)
    : lens_(std::move(lens)), camera_(camera), motion_(motion) {
  // A over the band from the closest approach out to phi = kFirstOrder pi (for order 1 the
  // Einstein ring, where A is largest), sampled at steps of 1% in psi - psi_c, the first sample
  // beyond the band's end included: A ~ sin(psi_c) (psi - psi_c) next to the critical angle,
  // and d ln A / d ln(psi - psi_c) stays below 3 out to the Einstein ring (1.6 at r_obs 30, 2.4
  // at 1000, 2.9 at 1e6), so between samples A exceeds the larger of its neighbours by at most
  // about 3%; the margin is 5%.
  const double critical = lens_->critical_angle();
  for (double x = schwarzschild::PointLens::closest_approach(); critical + x < std::numbers::pi;
       x *= 1.01) {
    double phi = 0, slope = 0;
    lens_->series().azimuth_and_derivative(critical + x, phi, slope);
    max_a_ = std::max(max_a_, std::sin(critical + x) / std::abs(slope));
    band_phi_.push_back(phi);
    band_max_a_.push_back(max_a_);
    if (phi < kFirstOrder * std::numbers::pi) break;
  }
  max_a_ *= 1.05;
  const double gamma = motion_.gamma(), speed = motion_.speed();
  motion_mu_ = 1 / (gamma * gamma * (1 - speed) * (1 - speed));
  max_g_ = lens_->frequency_ratio() * gamma * (1 + speed);
}

double PhotonRing::max_mu_near(const Vec3& centre, double radius, int first_order) const {
  const Vec3& hole = lens_->hole();
  const double from_hole = std::atan2(vec::norm(vec::cross(centre, hole)), vec::dot(centre, hole));
  const double nearest = from_hole - radius, farthest = from_hole + radius;
  if (!(nearest > 0 && farthest < std::numbers::pi)) return std::numeric_limits<double>::infinity();
  const double sin_gamma_min = std::min(std::sin(nearest), std::sin(farthest));
  // The disc's stars lie between gamma_min = pi - farthest and gamma_max = pi - nearest from
  // the direction behind the hole: their images of order n >= first_order have phi >= the
  // smallest of order first_order's, (n + 1) pi - gamma_max (n odd) or n pi + gamma_min (n
  // even; each further order's are larger), so only the band from the critical angle out to
  // that phi counts: a prefix of the samples (phi falls along them), and the first sample past
  // its end (A between samples is within the margin of its larger neighbour).
  const double pi = std::numbers::pi;
  const double phi_min = first_order % 2 == 1 ? (first_order + 1) * pi - (pi - nearest)
                                              : first_order * pi + (pi - farthest);
  const auto past = std::partition_point(band_phi_.begin(), band_phi_.end(),
                                         [&](double phi) { return phi >= phi_min; });
  const std::size_t last = std::min<std::size_t>(past - band_phi_.begin(), band_phi_.size() - 1);
  return band_max_a_[last] * 1.05 * motion_mu_ / sin_gamma_min;
}

PhotonRing::Image PhotonRing::image(Star& star, int order, double visible_mu) const {
  Image out;
  const schwarzschild::PointLens::OrderStart start = lens_->start_of_order(star.angle, order);
  if (!start.reachable) return out;
  const double estimate = start.a * motion_mu_ / star.angle.sin_gamma;
  if (estimate * kEstimateMargin < visible_mu) {
    out.exists = true;
    out.faint = true;
    out.mu = estimate;
    return out;
  }
  const schwarzschild::PointImage found = lens_->image(star.angle, order, lens_->start_psi(start));
  if (!found.converged || !(found.mu > 0) || !std::isfinite(found.mu)) return out;
  out.exists = true;
  out.psi = found.psi;
  out.parity = found.parity;
  out.mu = found.mu;
  out.point.g = lens_->frequency_ratio();
  if (!star.has_toward) {
    star.toward = lens_->toward_source(star.source);
    star.has_toward = true;
  }
  Vec3 direction = lens_->image_direction_from(star.toward, order, found.sin_psi, found.cos_psi);
  if (motion_.moving()) {
    // Seen by the moving camera (observer_motion.h): mu / D^2 and g D, D at the static
    // direction, and the direction aberrated.
    const double d = motion_.doppler_of_static(direction);
    out.mu /= d * d;
    out.point.g *= d;
    direction = motion_.camera_direction(direction);
  }
  const auto pixel = camera_.pixel(direction);
  if (!pixel) return out;
  const double x = (*pixel)[0], y = (*pixel)[1];
  out.in_frame = x >= 0 && x < camera_.width() && y >= 0 && y < camera_.height();
  out.point.x = x;
  out.point.y = y;
  return out;
}

}  // namespace starlens::produce
