#pragma once
// Geometry of the mesh's triangles on the sky: signed solid angles, the size of a source
// triangle, and the two measures of linear-interpolation error used by the refinement.
#include <array>

#include "sky/frames.h"
#include "spacetime/vector_ops.h"

namespace starlens {

using vec::angle_between;

// Signed solid angle of the spherical triangle (a, b, c) of unit vectors (Van Oosterom &
// Strackee 1983): tan(Omega/2) = a.(b x c) / (1 + a.b + b.c + c.a). Positive when a, b, c run
// counter-clockwise seen from outside the sphere. The triple product is formed from edge
// differences so that tiny triangles keep their digits.
double signed_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c);

// The same for a pinhole camera's image triangle from its corners' pixel offsets from the
// image centre, without forming unit directions: the unnormalised rays (F, dx, -dy) in the
// camera's (forward, right, up) frame have triple product F times the pixel triangle's doubled
// area; `handedness` = forward . (right x up) carries it to the sky's orientation.
double pinhole_solid_angle(double focal, double handedness,
                           const std::array<std::array<double, 2>, 3>& offsets);

// Barycentric weights of direction s with respect to the plane through s0, s1, s2, after
// central (gnomonic) projection onto it: how the producer places a star inside a source
// triangle (docs/design.md section 5).
std::array<double, 3> gnomonic_barycentric(const Vec3& s, const Vec3& s0, const Vec3& s1,
                                           const Vec3& s2);

// The same with what depends on the triangle alone computed once (the refinement weighs three
// midpoints per triangle); weights(s) gives gnomonic_barycentric's values bit for bit.
class GnomonicFrame {
 public:
  GnomonicFrame(const Vec3& s0, const Vec3& s1, const Vec3& s2);
  std::array<double, 3> weights(const Vec3& s) const;

 private:
  Vec3 s0_, e1_, e2_, normal_;
  double area2_, plane_;  // |normal|^2, s0 . normal
};

struct ImagePoint {
  double x, y;
  Vec3 source;
};

// the design's estimate for edge (a, b) with traced midpoint m: the angle between m's source and
// the normalised mean of a's and b's, converted to pixels by the edge's image/source length
// ratio (angles taken as chords: small-angle form).
double edge_midpoint_error(const ImagePoint& a, const ImagePoint& b, const ImagePoint& m);

// What the producer would actually do at the midpoint m: place m's source inside the triangle
// (p0, p1, p2) by gnomonic barycentric weights; returns the distance in pixels from the
// traced midpoint. Catches anisotropic stretching that the per-edge ratio underestimates.
double interpolation_error(const ImagePoint& p0, const ImagePoint& p1, const ImagePoint& p2,
                           const ImagePoint& m);
// The same with the source triangle's frame already made.
double interpolation_error(const GnomonicFrame& frame, const ImagePoint& p0, const ImagePoint& p1,
                           const ImagePoint& p2, const ImagePoint& m);

}  // namespace starlens
