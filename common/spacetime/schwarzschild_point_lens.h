#pragma once
// The exact point magnification of a star's image in Schwarzschild spacetime (docs/design.md
// section 3), for a static observer at r_obs > 3 who sees the hole in direction h.
//
// The map is axisymmetric about h: a camera ray at angle psi from h sweeps the azimuth
// phi(psi) (azimuth_series.h) and arrives from the source direction s = -cos(phi) h +
// sin(phi) e in the plane of the ray and h. An image of order n (phi in [n pi, (n+1) pi): 0
// the primary, 1 the secondary inside the Einstein ring, 2 and more the photon ring) of a star
// at angle gamma from -h (cos(gamma) = -s.h) therefore lies where phi(psi) = n pi + gamma (n
// even) or (n+1) pi - gamma (n odd), and its magnification is the ratio of solid angles
//   mu = sin(psi) / (sin(gamma) |d phi / d psi|),
// with parity (-1)^n (phi decreases with psi). Given an approximate psi (the lens map's
// interpolated image), Newton's method on phi finds the image's psi; sin(gamma) = |s x h| is
// the star's own, so the result is the point value at the star's exact image, not an average
// over a triangle of the map.
#include <cmath>
#include <cstdint>
#include <vector>

#include "sky/frames.h"
#include "spacetime/azimuth_series.h"

namespace starlens::schwarzschild {

struct PointImage {
  double psi = 0;      // the image's angle from the hole, rad
  double mu = 0;       // > 0; infinite for a star exactly behind or in front of the hole
  double sin_psi = 0;  // sin(psi) and cos(psi), where converged
  double cos_psi = 0;
  int parity = 0;  // +1, or -1 where lensing mirrors the image
  bool converged = false;
};

class PointLens {
 public:
  // Estimated relative error of mu at which Newton's iteration stops.
  static constexpr double kMagnificationTolerance = 1e-11;
  static constexpr int kMaxIterations = 12;

  // Requires r_obs > 3 and a unit hole direction; fits the run's azimuth series (~2 ms).
  PointLens(double r_obs, const Vec3& hole_direction);

  double r_obs() const { return r_obs_; }
  const Vec3& hole() const { return hole_; }
  double critical_angle() const { return critical_; }
  const AzimuthSeries& series() const { return series_; }

  // psi of a camera ray direction (unit vector).
  double psi_of(const Vec3& camera_direction) const;
  // The order n of the image at psi (floor(phi / pi)), for an escaping ray.
  int order_at(double psi) const;
  // The magnification at the camera ray psi whose source direction is `source` (a traced ray
  // and its source): sin(psi) / (|source x h| |phi'(psi)|).
  double magnification_at(double psi, const Vec3& source) const;
  // The star's angle gamma from -h, atan2(|s x h|, -s.h), and sin(gamma) = |s x h|: what the
  // images of every order of one star share, for the overloads below that take it computed once
  // per star (the same values as from the star's direction).
  struct SourceAngle {
    double gamma = 0;
    double sin_gamma = 0;
  };
  SourceAngle source_angle(const Vec3& source) const;
  // The image of order `order` of the star in direction `source` (unit vector), from the
  // starting angle psi_guess. converged is false (and mu NaN) when Newton's iteration leaves
  // the escaping rays or does not settle.
  PointImage image(const Vec3& source, int order, double psi_guess) const {
    return image(source_angle(source), order, psi_guess);
  }
  PointImage image(const SourceAngle& source, int order, double psi_guess) const;
  // The camera ray direction of the image of order `order` at angle psi of the star in
  // direction `source`: in the plane of the source and h, on the source's side of h for even
  // orders and the other side for odd ones (undefined for a source on the axis).
  Vec3 image_direction(const Vec3& source, int order, double psi) const {
    return image_direction_from(toward_source(source), order, std::sin(psi), std::cos(psi));
  }
  // The unit vector normal to h toward the source (from cross products, exact near +-h): what
  // image_direction needs of the star, the same for all its orders.
  Vec3 toward_source(const Vec3& source) const;
  // image_direction from toward_source(source) and sin(psi), cos(psi) (a PointImage's).
  Vec3 image_direction_from(const Vec3& toward, int order, double sin_psi, double cos_psi) const;
  // The image of order `order` of the star in direction `source` without a guess (the producer's
  // images of order 1 and more, which a lens map's mesh drops next to their critical curves):
  // the start from the run's table of phi over log(psi - psi_c), which covers every escaping
  // psi (from pi down to closest_approach()), then image(). converged is false where that image
  // lies closer to the critical angle than the iteration reaches (closest_approach()).
  PointImage image_of_order(const Vec3& source, int order) const;
  // image_of_order's start without the iteration: whether the order's image lies within reach,
  // its approximate log(psi - psi_c), and A = sin(psi) / |phi'(psi)| there, interpolated from
  // the table (mu ~ A / sin(gamma); within 1e-3 of the exact A where the start is within 1e-3
  // of psi: the test measures it), for a quick test of visibility before the exact image is
  // found. The start's psi (start_psi) costs an exp, which a star's faint orders never need.
  struct OrderStart {
    bool reachable = false;
    double log_x = 0;
    double a = 0;
  };
  double start_psi(const OrderStart& start) const { return critical_ + std::exp(start.log_x); }
  OrderStart start_of_order(const Vec3& source, int order) const {
    return start_of_order(source_angle(source), order);
  }
  OrderStart start_of_order(const SourceAngle& source, int order) const;
  // The smallest psi - psi_c that image() works at.
  static constexpr double closest_approach() { return AzimuthSeries::kClosedFormBand * 1e-3; }
  // nu_obs / nu_inf for the static observer: 1 / sqrt(1 - 2 / r_obs).
  double frequency_ratio() const { return 1 / std::sqrt(1 - 2 / r_obs_); }

 private:
  // The azimuth phi at which the image of order `order` of the star at `source` lies.
  static double target_azimuth(const SourceAngle& source, int order);

  double r_obs_;
  Vec3 hole_;
  double critical_;
  AzimuthSeries series_;
  // phi at psi_c + exp(log_x) for log_x descending from log(pi - psi_c) to
  // log(closest_approach()): phi ascending, for image_of_order's start.
  std::vector<double> table_log_x_;
  std::vector<double> table_phi_;
  std::vector<double> table_a_;  // A = sin(psi) / |phi'(psi)| at each entry
  // start_of_order's search: for equal steps of phi from table_phi_.front(), the first entry
  // above the step's start (std::upper_bound's), from which a step or two finds the entry above
  // any phi of the step. Empty (std::upper_bound then) were table_phi_ not ascending.
  std::vector<std::uint32_t> table_bucket_;
  double bucket_scale_ = 0;  // steps per radian of phi
};

}  // namespace starlens::schwarzschild
