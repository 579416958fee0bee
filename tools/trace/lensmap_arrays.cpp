#include "lensmap_arrays.h"

#include <limits>

namespace starlens {

LensmapArrays to_lensmap_arrays(const RefinedMesh& mesh) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  LensmapArrays arrays;
  std::vector<std::uint32_t> renumbered(mesh.x.size(), 0);
  std::uint32_t next = 0;
  for (std::size_t v = 0; v < mesh.x.size(); ++v)
    if (mesh.used[v]) renumbered[v] = next++;
  arrays.xy.reserve(2 * next);
  arrays.dir.reserve(3 * next);
  arrays.g.reserve(next);
  arrays.status.reserve(next);
  for (std::size_t v = 0; v < mesh.x.size(); ++v) {
    if (!mesh.used[v]) continue;
    const TracedRay& ray = mesh.rays[v];
    const bool escaped = ray.status == RayStatus::escaped;
    arrays.xy.insert(arrays.xy.end(), {mesh.x[v], mesh.y[v]});
    for (int k = 0; k < 3; ++k) arrays.dir.push_back(escaped ? ray.source_direction[k] : kNaN);
    arrays.g.push_back(escaped ? ray.g : kNaN);
    arrays.status.push_back(static_cast<std::uint8_t>(ray.status));
  }
  const std::size_t m = mesh.kept.size();
  arrays.triangle_vertices.reserve(3 * m);
  arrays.mu.reserve(m);
  arrays.parity.reserve(m);
  arrays.depth.reserve(m);
  for (const KeptTriangle& t : mesh.kept) {
    for (std::uint32_t v : t.v) arrays.triangle_vertices.push_back(renumbered[v]);
    arrays.mu.push_back(t.mu);
    arrays.parity.push_back(t.parity);
    arrays.depth.push_back(t.depth);
  }
  return arrays;
}

}  // namespace starlens
