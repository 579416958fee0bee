#pragma once
// Schwarzschild spacetime seen by a static observer at r_obs > 3M: the deflection of each
// backward-traced ray from the closed form (schwarzschild_orbit.h) or from the run's series of
// it (azimuth_series.h), rotated in the plane of the ray and the hole.
#include <memory>

#include "spacetime/azimuth_series.h"
#include "spacetime/spacetime.h"

namespace starlens {

class SchwarzschildSpacetime final : public Spacetime {
 public:
  // Throws InputError unless r_obs > 3 (finite) and hole_direction is a unit vector.
  explicit SchwarzschildSpacetime(const Observer& observer,
                                  RayAzimuth azimuth = RayAzimuth::series);
  std::string name() const override { return "schwarzschild"; }
  TracedRay trace(const Vec3& camera_direction) const override;
  // 1 / sqrt(1 - 2M/r_obs): the blueshift of light falling to a static observer.
  double frequency_ratio() const { return g_; }
  // The azimuth's series; null with RayAzimuth::closed_form.
  const schwarzschild::AzimuthSeries* azimuth_series() const { return azimuth_.get(); }

 private:
  double r_obs_;
  Vec3 hole_;
  double g_;
  std::unique_ptr<const schwarzschild::AzimuthSeries> azimuth_;
};

}  // namespace starlens
