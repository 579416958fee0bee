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

SchwarzschildSpacetime::SchwarzschildSpacetime(const Observer& observer)
    : r_obs_(observer.r_obs), hole_(observer.hole_direction) {
  if (!(std::isfinite(r_obs_) && r_obs_ > 3))
    throw_input_error(
        "(arguments)", "--r-obs",
        "must be finite and > 3 (outside the photon sphere), got " + std::to_string(r_obs_));
  if (!(std::abs(norm(hole_) - 1) < 1e-12))
    throw_input_error("(arguments)", "hole direction", "not a unit vector");
  g_ = 1 / std::sqrt(1 - 2 / r_obs_);
}

TracedRay SchwarzschildSpacetime::trace(const Vec3& camera_direction) const {
  // psi from atan2 of sine and cosine: accurate at 0 and pi, unlike acos of the dot product.
  const Vec3 normal = vec::cross(camera_direction, hole_);
  const double sin_psi = vec::norm(normal);
  const double cos_psi = vec::dot(camera_direction, hole_);
  const double psi = std::atan2(sin_psi, cos_psi);
  if (schwarzschild::is_captured(r_obs_, psi, sin_psi)) return not_escaped(RayStatus::captured);
  const double azimuth = schwarzschild::escape_azimuth(r_obs_, psi, sin_psi, cos_psi);
  if (!std::isfinite(azimuth)) return not_escaped(RayStatus::failed);
  // The deflection rotates d toward the hole about the normal of their plane (Rodrigues;
  // d is perpendicular to the axis). The ray's azimuth starts at pi - psi from the outward
  // radial direction, so the deflection is what the orbit adds to that.
  const double deflection = azimuth - (kPi - psi);
  if (sin_psi == 0 || deflection == 0) return TracedRay{RayStatus::escaped, camera_direction, g_};
  const Vec3 axis{normal[0] / sin_psi, normal[1] / sin_psi, normal[2] / sin_psi};
  const Vec3 toward_hole = vec::cross(axis, camera_direction);
  const double c = std::cos(deflection);
  const double s = std::sin(deflection);
  Vec3 source{};
  for (int k = 0; k < 3; ++k) source[k] = c * camera_direction[k] + s * toward_hole[k];
  return TracedRay{RayStatus::escaped, vec::normalized(source), g_};
}

}  // namespace starlens
