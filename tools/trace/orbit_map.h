#pragma once
// A frame of a circular orbit from another frame's lens map (starlens-trace --orbit-map,
// docs/usage/animation.md). On a circular orbit (Schwarzschild, or Kerr's equatorial one) whose
// camera keeps its orientation to the hole, the spacetime is the same seen from every point of
// the orbit: the camera's 4-velocity, its frame and every ray's path relative to it do not
// change, only the place on the orbit does. So the image-plane mesh, g, mu and parity of two
// frames are the same, and each source direction of one is the other's turned about the
// orbit's axis (the pole of the path's frame) by the difference of their azimuths.
#include <filesystem>
#include <string>

#include "lensmap/lensmap_file.h"
#include "sky/frames.h"

namespace starlens {

// Refuses (InputError naming `file` and the attribute) a source map that is not a frame of the
// same path traced with the same flags: `expected` holds this frame's attributes.
void check_orbit_map_source(const LensmapAttributes& source, const LensmapAttributes& expected,
                            const std::string& file);

// Turns `v` about the unit vector `axis` by `angle` radians (right-handed; Rodrigues' formula,
// so an angle of 0 returns v exactly). NaN components (the directions of captured rays) stay NaN.
Vec3 rotate_about(const Vec3& v, const Vec3& axis, double angle);

struct RotatedMapCounts {
  std::uint64_t vertices = 0, triangles = 0, mirrored_triangles = 0;
  double mu_min = 0, mu_max = 0;
};

// Writes `source`'s mesh to `path` (the AtomicOutput's temporary; messages name
// `display_path`) with every source direction turned about `axis` by `angle`, in blocks of
// rows, and `attributes` (this frame's; the dropped and shadow counts taken from the source).
RotatedMapCounts write_rotated_lensmap(const LensmapReader& source, const Vec3& axis, double angle,
                                       const std::filesystem::path& path,
                                       const std::string& display_path,
                                       LensmapAttributes attributes);

}  // namespace starlens
