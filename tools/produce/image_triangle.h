#pragma once
// The image side of one lens-map triangle: where a star with gnomonic source weights lambda
// appears, and its g.
//
// DESIGN section 5 interpolates x = sum lambda_i x_i. For a pinhole camera that is exact
// only where the image plane is parallel to the source triangle: the camera itself is a
// central projection, so in the identity (Minkowski) map pixel coordinates are a projective,
// not a linear, function of lambda (errors of ~1e-3 px at the corners of a 60 degree frame
// with 4 px triangles). Weighting each vertex by the depth w_i = f . d_i of its camera ray,
// x = sum lambda_i w_i x_i / sum lambda_i w_i, undoes that projection exactly, so the
// identity map puts every star at its pinhole projection to rounding and a lensing map keeps
// only its own curvature as interpolation error. With all w_i = 1 (other projections) it is
// DESIGN's linear formula. g = sum lambda_i g_i as in DESIGN.
#include <array>

#include "source_triangle.h"

namespace starlens::produce {

struct ImagePoint {
  double x;
  double y;
  double g;
};

struct ImageTriangle {
  std::array<double, 3> weighted_x;  // w_i x_i
  std::array<double, 3> weighted_y;  // w_i y_i
  std::array<double, 3> weight;      // w_i > 0
  std::array<double, 3> g;
  double mu;  // Omega_image / Omega_source

  ImagePoint map(const Barycentric& source) const {
    const auto& l = source.lambda;
    const double inverse = 1.0 / (l[0] * weight[0] + l[1] * weight[1] + l[2] * weight[2]);
    return {(l[0] * weighted_x[0] + l[1] * weighted_x[1] + l[2] * weighted_x[2]) * inverse,
            (l[0] * weighted_y[0] + l[1] * weighted_y[1] + l[2] * weighted_y[2]) * inverse,
            l[0] * g[0] + l[1] * g[1] + l[2] * g[2]};
  }
};

}  // namespace starlens::produce
