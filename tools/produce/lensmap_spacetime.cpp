#include "lensmap_spacetime.h"

#include <string>

#include "core/errors.h"
#include "lensmap/lensmap_camera.h"
#include "spacetime/kerr_zamo.h"
#include "spacetime/vector_ops.h"

namespace starlens::produce {

std::unique_ptr<const Spacetime> lensmap_spacetime(const LensmapAttributes& attributes,
                                                   const ObserverMotion& motion,
                                                   const std::string& path) {
  Observer observer;
  observer.r_obs = attributes.r_obs;
  observer.hole_direction = lensmap_hole_direction(attributes, path);
  observer.motion = motion;
  if (attributes.spacetime == "kerr") {
    observer.spin = attributes.spin;
    // The reader holds |spin| < 1; the observer must be outside the hole it makes.
    const double r_plus = kerr::outer_horizon(attributes.spin);
    if (!(attributes.r_obs > r_plus))
      throw_input_error(path, "attribute r_obs",
                        std::to_string(attributes.r_obs) +
                            " is not outside the outer horizon r_+ = " + std::to_string(r_plus) +
                            " of spin " + std::to_string(attributes.spin));
    observer.inclination = inclination_radians(attributes.inclination_deg);
    const HoleFrame sky =
        hole_frame(observer.hole_direction, lensmap_frame_to_icrs(attributes, path, {0, 0, 1}),
                   lensmap_frame_to_icrs(attributes, path, {1, 0, 0}));
    observer.spin_sky =
        vec::normalized(position_angle_direction(sky, attributes.spin_pa_deg * kDegree));
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
