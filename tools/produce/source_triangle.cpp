#include "source_triangle.h"

namespace starlens::produce {

SourceTriangle::SourceTriangle(const std::array<Vec3, 3>& directions,
                               const std::array<std::uint32_t, 3>& vertex_ids) {
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const int k = (i + 2) % 3;
    edge_normal_[i] = cross(directions[j], directions[k]);
    owns_edge_[i] = vertex_ids[j] < vertex_ids[k];
  }
  const double determinant = dot(directions[0], edge_normal_[0]);
  orientation_ = determinant > 0.0 ? 1 : determinant < 0.0 ? -1 : 0;
}

}  // namespace starlens::produce
