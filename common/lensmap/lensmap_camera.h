#pragma once
// The camera and the hole's direction of a traced lens map, rebuilt from its root attributes
// (docs/formats/lensmap.md) exactly as starlens-trace built them (docs/design.md section 3): the
// hole at (bh_lon_deg, bh_lat_deg) of bh_frame, the look direction offset from it by
// (look_dlon_deg, look_dlat_deg) in that frame, whose pole is "up" and whose x axis the
// fallback, turned by roll_deg.
#include "lensmap/camera.h"
#include "lensmap/lensmap_file.h"

namespace starlens {

// Throws InputError naming `path` and the attribute for a bh_frame or projection it does not
// know, or a camera the attributes do not make.
// A vector of the placement frame (bh_frame) in ICRS.
Vec3 lensmap_frame_to_icrs(const LensmapAttributes& attributes, const std::string& path,
                           const Vec3& v);
Vec3 lensmap_hole_direction(const LensmapAttributes& attributes, const std::string& path);
Camera lensmap_camera(const LensmapAttributes& attributes, const std::string& path);

}  // namespace starlens
