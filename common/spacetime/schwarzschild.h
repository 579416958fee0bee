#pragma once
// Schwarzschild spacetime seen by a static observer at r_obs > 3M: exact deflection of each
// backward-traced ray (schwarzschild_orbit.h), rotated in the plane of the ray and the hole.
#include "spacetime/spacetime.h"

namespace starlens {

class SchwarzschildSpacetime final : public Spacetime {
 public:
  // Throws InputError unless r_obs > 3 (finite) and hole_direction is a unit vector.
  explicit SchwarzschildSpacetime(const Observer& observer);
  std::string name() const override { return "schwarzschild"; }
  TracedRay trace(const Vec3& camera_direction) const override;
  // 1 / sqrt(1 - 2M/r_obs): the blueshift of light falling to a static observer.
  double frequency_ratio() const { return g_; }

 private:
  double r_obs_;
  Vec3 hole_;
  double g_;
};

}  // namespace starlens
