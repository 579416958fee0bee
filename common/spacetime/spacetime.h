#pragma once
// A spacetime seen by a static observer (docs/design.md section 3): it maps a camera ray direction
// on the observer's sky to the asymptotic direction of the backward-traced ray, or reports that the
// ray is captured. Directions are ICRS unit vectors; lengths are in units of the mass M.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "sky/frames.h"
#include "spacetime/observer_motion.h"

namespace starlens {

// The values of /vertices/status in lensmap.h5.
enum class RayStatus : std::uint8_t { escaped = 0, captured = 1, failed = 2 };

struct TracedRay {
  RayStatus status = RayStatus::failed;
  Vec3 source_direction{};  // NaN unless escaped
  double g = 0;             // nu_obs / nu_inf for a source at rest at infinity; NaN unless escaped
  // The order of the image the ray sees (Spacetime::image_order), -1 unless escaped.
  std::int8_t order = -1;
};

// How a Schwarzschild ray's azimuth is evaluated: from the run's Chebyshev series of the closed
// form (azimuth_series.h: agrees with it to ~1e-13 rad, ~3x faster per ray), or from the closed
// form for every ray.
enum class RayAzimuth { series, closed_form };
// "series" | "closed-form": the --ray-azimuth values and the lens map's attribute.
const char* ray_azimuth_name(RayAzimuth azimuth);
// Throws InputError naming --ray-azimuth for another name.
RayAzimuth parse_ray_azimuth(const std::string& name);

// An observer at radius r_obs who sees the hole in direction hole_direction (as the static
// observer there sees it), at rest or moving through that place.
struct Observer {
  double r_obs = 0;
  Vec3 hole_direction{1, 0, 0};
  ObserverMotion motion{};
  // Kerr (kerr.h): the spin a (units of M, |a| < 1), the inclination theta_obs of the observer
  // from the spin axis (radians, [0, pi]) and the direction of the spin axis's projection on the
  // observer's sky (a unit vector normal to hole_direction). For Kerr the motion is relative to
  // the zero-angular-momentum observer (ZAMO) there.
  double spin = 0;
  double inclination = 1.57079632679489661923;
  Vec3 spin_sky{0, 0, 1};
};

// --inclination's degrees (and the lens map's inclination_deg) as radians: 180 is exactly pi,
// the axis's south end.
inline double inclination_radians(double degrees) {
  return degrees == 180 ? std::numbers::pi : degrees * kDegree;
}

class Spacetime {
 public:
  virtual ~Spacetime() = default;
  virtual std::string name() const = 0;
  // Thread-safe: called concurrently for many rays.
  virtual TracedRay trace(const Vec3& camera_direction) const = 0;
  // The order of the image a camera ray sees (0 the primary; in Schwarzschild the number of
  // half-turns of azimuth, floor(phi / pi): 1 the secondary, 2 and more the photon ring), or
  // -1 where the ray does not escape: the traced ray's TracedRay::order.
  int image_order(const Vec3& camera_direction) const {
    const TracedRay ray = trace(camera_direction);
    return ray.status == RayStatus::escaped ? ray.order : -1;
  }
};

// floor(turns) as an image order, at most 127.
inline std::int8_t order_of(double turns) {
  return static_cast<std::int8_t>(std::clamp(std::floor(turns), 0.0, 127.0));
}

// The names accepted by make_spacetime (for --spacetime and messages).
const std::vector<std::string>& spacetime_names();
// Throws InputError naming the field when the name is unknown or the observer is invalid for
// that spacetime (Schwarzschild needs r_obs > 3M: outside the photon sphere; Kerr |spin| < 1
// and r_obs outside the outer horizon). A moving
// observer's spacetime is the static one seen through the motion (moving_observer.h).
std::unique_ptr<Spacetime> make_spacetime(const std::string& name, const Observer& observer,
                                          RayAzimuth azimuth = RayAzimuth::series);

}  // namespace starlens
