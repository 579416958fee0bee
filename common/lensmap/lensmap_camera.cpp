#include "lensmap/lensmap_camera.h"

#include "core/errors.h"

namespace starlens {
Vec3 lensmap_frame_to_icrs(const LensmapAttributes& attributes, const std::string& path,
                           const Vec3& v) {
  if (attributes.bh_frame == "icrs") return v;
  if (attributes.bh_frame == "galactic") return galactic_to_icrs(v);
  throw_input_error(path, "bh_frame", "unknown frame '" + attributes.bh_frame + "'");
}

Vec3 lensmap_hole_direction(const LensmapAttributes& attributes, const std::string& path) {
  return lensmap_frame_to_icrs(
      attributes, path,
      unit_vector_from_angles(attributes.bh_lon_deg * kDegree, attributes.bh_lat_deg * kDegree));
}

Camera lensmap_camera(const LensmapAttributes& attributes, const std::string& path) {
  const Vec3 look = lensmap_frame_to_icrs(
      attributes, path,
      unit_vector_from_angles((attributes.bh_lon_deg + attributes.look_dlon_deg) * kDegree,
                              (attributes.bh_lat_deg + attributes.look_dlat_deg) * kDegree));
  const CameraAxes axes = camera_axes(look, lensmap_frame_to_icrs(attributes, path, {0, 0, 1}),
                                      lensmap_frame_to_icrs(attributes, path, {1, 0, 0}),
                                      attributes.roll_deg * kDegree);
  if (!(attributes.width > 0 && attributes.height > 0 && attributes.width <= UINT32_MAX &&
        attributes.height <= UINT32_MAX))
    throw_input_error(path, "width/height", "not a usable image size");
  try {
    return Camera(axes, parse_projection(attributes.projection), attributes.fov_deg,
                  static_cast<std::uint32_t>(attributes.width),
                  static_cast<std::uint32_t>(attributes.height));
  } catch (const InputError& error) {
    throw_input_error(path, "projection/fov_deg", error.what());
  }
}

}  // namespace starlens
