#include "lensmap_spacetime.h"

#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "lensmap/lensmap_camera.h"
#include "spacetime/vector_ops.h"

namespace starlens::produce {

std::unique_ptr<const Spacetime> lensmap_spacetime(const LensmapAttributes& attributes,
                                                   const std::string& path) {
  Observer observer;
  observer.r_obs = attributes.r_obs;
  observer.hole_direction = lensmap_hole_direction(attributes, path);
  try {
    observer.motion = ObserverMotion(attributes.observer_velocity, "observer_velocity");
  } catch (const InputError& error) {
    throw_input_error(path, "observer_velocity", error.what());
  }
  if (attributes.spacetime == "kerr") {
    observer.spin = attributes.spin;
    // As the trace takes --inclination: 180 is the axis's south end exactly.
    observer.inclination =
        attributes.inclination_deg == 180 ? std::numbers::pi : attributes.inclination_deg * kDegree;
    const HoleFrame sky =
        hole_frame(observer.hole_direction, lensmap_frame_to_icrs(attributes, path, {0, 0, 1}),
                   lensmap_frame_to_icrs(attributes, path, {1, 0, 0}));
    const double pa = attributes.spin_pa_deg * kDegree;
    observer.spin_sky = vec::normalized(
        vec::plus(vec::scaled(std::cos(pa), sky.north), vec::scaled(std::sin(pa), sky.east)));
  }
  const RayAzimuth azimuth =
      attributes.ray_azimuth == "series" ? RayAzimuth::series : RayAzimuth::closed_form;
  try {
    return make_spacetime(attributes.spacetime, observer, azimuth);
  } catch (const InputError& error) {
    throw_input_error(path, "spacetime/r_obs/spin/inclination_deg", error.what());
  }
}

}  // namespace starlens::produce
