#pragma once
// Each image's magnification as the exact point value at the star's image (docs/design.md section
// 3), not its lens-map triangle's solid-angle ratio (an average over the triangle, up to ~12% off
// next to the Einstein ring).
//
// For a Schwarzschild map the producer rebuilds the map's camera and hole from the lens map's
// attributes and the run's azimuth series (spacetime/schwarzschild_point_lens.h), and for
// every vertex the angle psi of its camera ray from the hole. Each triangle gets its image
// order (from its vertices' azimuths: kept triangles do not straddle a critical curve, where
// the order changes) and a bound of the point magnification over it, which the triangle index
// uses to skip stars too faint to be seen:
//   mu = A(psi) / sin(gamma), A = sin(psi) / |phi'(psi)|,
// so mu <= max_vertices(A) (1 + 1e-3 + 2 dpsi) / sin(gamma_min), where sin(gamma_min) is the
// smallest |s x h| over the source triangle (its vertices' smallest less the longest edge
// chord, |s x h| being 1-Lipschitz, or where that is under half of it, the exact distance to
// +-h; 0 when the triangle holds the point behind or in front of the hole: unbounded) and dpsi
// the triangle's spread of psi
// (A is smooth: its interior maximum exceeds its vertices' by less than that margin; the test
// measures it). A star's image then has the point magnification of its exact image, found by
// Newton's method from the interpolated psi.
//
// For a Kerr map the images' point values come from rays traced at each image with the map's
// own spacetime and camera (traced_images.h), and each triangle's bound is its mu times
// TracedImages::kMuMargin.
#include <string>

#include "lens_mesh.h"
#include "lensmap/lensmap_file.h"

namespace starlens::produce {

// Fills mesh.point_lens, psi, order and max_point_mu when the map is Schwarzschild, and
// traced_images, order and max_point_mu when it is Kerr (leaves them empty otherwise).
// InputError naming `path` for attributes that make no camera or spacetime, or a Kerr map
// whose attributes do not trace its stored rays.
void add_point_magnification(LensMesh& mesh, const LensmapAttributes& attributes,
                             const std::string& path);

// Sine of the smallest angle between direction q and the spherical triangle (s0, s1, s2): 0
// inside it, 1 where the angle is 90 degrees or more.
double sin_angle_to_spherical_triangle(const Vec3& q, const Vec3& s0, const Vec3& s1,
                                       const Vec3& s2);

}  // namespace starlens::produce
