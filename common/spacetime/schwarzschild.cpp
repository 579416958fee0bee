#include "spacetime/schwarzschild.h"

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/vector_ops.h"

namespace starlens {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TracedRay not_escaped(RayStatus status) {
  return TracedRay{status, {kNaN, kNaN, kNaN}, kNaN};
}

}  // namespace

SchwarzschildSpacetime::SchwarzschildSpacetime(const Observer& observer, RayAzimuth azimuth)
    : r_obs_(observer.r_obs), hole_(observer.hole_direction) {
  if (!(std::isfinite(r_obs_) && r_obs_ > 3))
    throw_input_error(
        "(arguments)", "--r-obs",
        "must be finite and > 3 (outside the photon sphere), got " + std::to_string(r_obs_));
  if (!(std::abs(norm(hole_) - 1) < 1e-12))
    throw_input_error("(arguments)", "hole direction", "not a unit vector");
  g_ = 1 / std::sqrt(1 - 2 / r_obs_);
  if (azimuth == RayAzimuth::series)
    azimuth_ = std::make_unique<const schwarzschild::AzimuthSeries>(r_obs_);
}

TracedRay SchwarzschildSpacetime::trace(const Vec3& camera_direction) const {
  // psi through its sine and cosine from the vectors; the series takes psi itself.
  const Vec3 normal = vec::cross(camera_direction, hole_);
  const double sin_psi = vec::norm(normal);
  const double cos_psi = vec::dot(camera_direction, hole_);
  if (schwarzschild::is_captured_from_vectors(r_obs_, sin_psi, cos_psi))
    return not_escaped(RayStatus::captured);
  const double azimuth = azimuth_
                             ? azimuth_->azimuth(std::atan2(sin_psi, cos_psi))
                             : schwarzschild::escape_azimuth_from_vectors(r_obs_, sin_psi, cos_psi);
  if (!std::isfinite(azimuth)) return not_escaped(RayStatus::failed);
  const std::int8_t order = order_of(azimuth / 3.14159265358979323846);
  if (sin_psi == 0) return TracedRay{RayStatus::escaped, camera_direction, g_, order};
  // Seen from the hole the observer sits at -h and the backward ray sweeps azimuth phi in the
  // plane of d and h toward e = h x axis (d's component normal to h, from cross products: exact
  // also for d near +-h), so the source direction is -cos(phi) h + sin(phi) e (d itself when
  // phi = pi - psi, flat space); the deflection phi - (pi - psi) is never formed.
  const Vec3 axis{normal[0] / sin_psi, normal[1] / sin_psi, normal[2] / sin_psi};
  const Vec3 toward_ray = vec::cross(hole_, axis);
  const double c = std::cos(azimuth);
  const double s = std::sin(azimuth);
  Vec3 source{};
  for (int k = 0; k < 3; ++k) source[k] = s * toward_ray[k] - c * hole_[k];
  return TracedRay{RayStatus::escaped, vec::normalized(source), g_, order};
}

}  // namespace starlens
