#include "lens_mesh.h"

#include <cmath>

namespace starlens::produce {

std::vector<double> interpolation_weights(const LensMesh& mesh) {
  std::vector<double> weights(mesh.xy.size(), 1.0);
  if (mesh.projection != "pinhole" || !(mesh.pinhole_focal_px > 0)) return weights;
  const double focal = mesh.pinhole_focal_px;
  for (std::size_t v = 0; v < mesh.xy.size(); ++v) {
    const double dx = mesh.xy[v][0] - 0.5 * mesh.width;
    const double dy = mesh.xy[v][1] - 0.5 * mesh.height;
    weights[v] = focal / std::sqrt(focal * focal + dx * dx + dy * dy);
  }
  return weights;
}

}  // namespace starlens::produce
