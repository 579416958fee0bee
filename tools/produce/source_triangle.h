#pragma once
// The source side of one lens-map triangle (docs/design.md section 5): which sky directions lie
// inside the spherical triangle (s0, s1, s2), and their gnomonic barycentric weights.
//
// For a direction p, e_i = p . (s_j x s_k) (i, j, k cyclic) is, up to a common positive
// factor, the weight of s_i in p = sum mu_i s_i; so p lies inside iff every e_i has the sign
// of the triangle's orientation det(s0, s1, s2), and the weights of the central (gnomonic)
// projection of p onto the plane through s0, s1, s2 are lambda_i = e_i / (e_0 + e_1 + e_2).
// Neighbouring triangles share vertices, and e for their shared edge is computed from the
// same two vectors in opposite order, so it is exactly negated: a direction strictly inside
// one is strictly outside the other. A direction exactly on an edge (e == 0) belongs to the
// one triangle whose edge runs from the lower to the higher vertex number. (A direction
// exactly at a shared vertex, within rounding, may still be counted in more than one
// triangle of its fan, or none: a measure-zero set no catalogue star lands on in practice.)
#include <array>
#include <cstdint>

#include "optics/host_device.h"
#include "sky/frames.h"

namespace starlens::produce {

struct Barycentric {
  std::array<double, 3> lambda;  // gnomonic weights, sum 1, each >= 0
};

class SourceTriangle {
 public:
  SourceTriangle() = default;
  // `vertex_ids` are the lens map's vertex numbers (for the edge tie rule).
  SourceTriangle(const std::array<Vec3, 3>& directions,
                 const std::array<std::uint32_t, 3>& vertex_ids);

  // False for a degenerate triangle (its three directions on one great circle).
  bool valid() const { return orientation_ != 0; }
  // +1 when (s0, s1, s2) is counter-clockwise seen from outside the sphere, -1 otherwise.
  int orientation() const { return orientation_; }

  // Whether p (any non-zero length) lies inside; if so, fills its weights.
  STARLENS_HOST_DEVICE bool locate(const Vec3& p, Barycentric& weights) const {
    double e[3];
    for (int i = 0; i < 3; ++i) {
      e[i] = orientation_ *
             (p[0] * edge_normal_[i][0] + p[1] * edge_normal_[i][1] + p[2] * edge_normal_[i][2]);
      if (e[i] < 0.0 || (e[i] == 0.0 && !owns_edge_[i])) return false;
    }
    const double sum = e[0] + e[1] + e[2];
    if (!(sum > 0.0)) return false;  // p == 0 or the three directions coincide
    const double inverse = 1.0 / sum;
    weights.lambda = {e[0] * inverse, e[1] * inverse, e[2] * inverse};
    return true;
  }

 private:
  std::array<Vec3, 3> edge_normal_{};  // s_j x s_k for the edge opposite vertex i
  std::array<bool, 3> owns_edge_{};    // points exactly on edge i belong to this triangle
  int orientation_ = 0;
};

}  // namespace starlens::produce
