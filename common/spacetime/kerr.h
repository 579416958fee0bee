#pragma once
// Kerr spacetime (M = 1, spin a, |a| < 1) seen by the zero-angular-momentum observer (ZAMO,
// kerr_zamo.h) at Boyer-Lindquist radius r_obs > r_+ and polar angle theta_obs = the
// inclination (any value in [0, pi], the axis included). Each camera ray is traced backward in
// closed form: its constants lambda = L/E and eta = Q/E^2 from the ZAMO's frame, the radial
// Mino-time integrals (kerr_radial.h) and the polar motion over that Mino time
// (kerr_angular.h) give its final (theta, phi) at infinity, the source direction.
//
// Placement (docs/design.md section 3): the hole lies in direction h on the observer's sky; the
// spin axis makes the angle theta_obs with the direction -h from the hole to the observer and
// projects on the sky along the unit vector p (normal to h). The hole's frame is then
//   z = cos(theta_obs) (-h) + sin(theta_obs) p,  x = sin(theta_obs) (-h) - cos(theta_obs) p,
//   y = z x x,
// with the observer at phi = 0, and the ZAMO's orthonormal axes at the observer are
//   e_r = -h, e_theta = -p, e_phi = p x (-h)
// (the limits from off the axis at phi = 0, so defined on the axis too). A ray leaving in
// direction n = n_r e_r + n_theta e_theta + n_phi e_phi (the direction the light comes from)
// carries, per unit energy measured by the ZAMO, E = alpha - omega varpi n_phi,
// lambda = -varpi n_phi / E and eta = (Sigma n_theta^2 + cos^2 (A / Sigma) n_phi^2) / E^2
// - a^2 cos^2, and g = 1 / E.
#include "spacetime/spacetime.h"

namespace starlens {

class KerrSpacetime final : public Spacetime {
 public:
  // Throws InputError naming --spin unless |a| < 1, --r-obs unless r_obs > r_+ (finite),
  // --inclination unless it is in [0, pi], and the hole direction or spin projection unless
  // they are unit vectors normal to each other.
  explicit KerrSpacetime(const Observer& observer);
  std::string name() const override { return "kerr"; }
  // The ray's order: floor of the polar phase swept in half-periods (at a = 0 the
  // Schwarzschild order).
  TracedRay trace(const Vec3& camera_direction) const override;

  double spin() const { return a_; }

 private:
  struct Path;
  bool follow(const Vec3& n, Path& path) const;

  double a_, r_obs_, cos_obs_, sin_obs_;
  double sigma_, big_a_, alpha_, omega_, varpi_;
  Vec3 e_r_, e_theta_, e_phi_;  // the ZAMO's axes at the observer
  Vec3 x_, y_, z_;              // the hole's frame
};

}  // namespace starlens
