#pragma once
// The image side of one lens-map triangle: where a star with gnomonic source weights lambda
// appears, and its g.
//
// docs/design.md section 5 interpolates x = sum lambda_i x_i. For a pinhole camera that is exact
// only where the image plane is parallel to the source triangle: the camera itself is a
// central projection, so in the identity (Minkowski) map pixel coordinates are a projective,
// not a linear, function of lambda (errors of ~1e-3 px at the corners of a 60 degree frame
// with 4 px triangles). Weighting each vertex by the depth w_i = f . d_i of its camera ray,
// x = sum lambda_i w_i x_i / sum lambda_i w_i, undoes that projection exactly, so the
// identity map puts every star at its pinhole projection to rounding and a lensing map keeps
// only its own curvature as interpolation error. With all w_i = 1 (other projections) it is
// the design's linear formula. g = sum lambda_i g_i as in docs/design.md. The vertices' angles psi
// from the hole are interpolated the same way: the start of the search for the image's exact psi
// (point_magnification.h).
#include <array>
#include <cstdint>
#include <vector>

#include "source_triangle.h"

namespace starlens::produce {

struct ImagePoint {
  double x;
  double y;
  double g;
};

// Per vertex: its depth weight w (1 unless pinhole), w x, w y, and g.
struct ImageVertex {
  double weighted_x;
  double weighted_y;
  double weight;  // > 0
  double g;
  double weighted_psi;  // w psi; 0 without a point lens
};

struct ImageTriangle {
  std::array<std::uint32_t, 3> vertex;
  double mu;           // Omega_image / Omega_source
  double max_mu;       // mu, or with a point lens the bound of the point magnification over it
  std::uint8_t order;  // image order (0 without a point lens)
  std::int8_t parity;  // +1, or -1 where lensing mirrors the source triangle (the lens map's)

  ImagePoint map(const std::vector<ImageVertex>& vertices, const Barycentric& source) const {
    const auto& l = source.lambda;
    const ImageVertex& a = vertices[vertex[0]];
    const ImageVertex& b = vertices[vertex[1]];
    const ImageVertex& c = vertices[vertex[2]];
    const double inverse = 1.0 / (l[0] * a.weight + l[1] * b.weight + l[2] * c.weight);
    return {(l[0] * a.weighted_x + l[1] * b.weighted_x + l[2] * c.weighted_x) * inverse,
            (l[0] * a.weighted_y + l[1] * b.weighted_y + l[2] * c.weighted_y) * inverse,
            l[0] * a.g + l[1] * b.g + l[2] * c.g};
  }

  // The vertices' psi interpolated as the position is (0 without a point lens).
  double psi(const std::vector<ImageVertex>& vertices, const Barycentric& source) const {
    const auto& l = source.lambda;
    const ImageVertex& a = vertices[vertex[0]];
    const ImageVertex& b = vertices[vertex[1]];
    const ImageVertex& c = vertices[vertex[2]];
    return (l[0] * a.weighted_psi + l[1] * b.weighted_psi + l[2] * c.weighted_psi) /
           (l[0] * a.weight + l[1] * b.weight + l[2] * c.weight);
  }
};

}  // namespace starlens::produce
