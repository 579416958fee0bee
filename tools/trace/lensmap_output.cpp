#include "lensmap_output.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace starlens {
namespace {

constexpr std::uint64_t kRowsPerBlock = 1 << 16;

void write_vertices(LensmapWriter& writer, const RefinedMesh& mesh) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> xy, dir, g;
  std::vector<std::uint8_t> status;
  std::uint64_t written = 0;
  const auto flush = [&] {
    writer.write_vertices(written, g.size(), xy.data(), dir.data(), g.data(), status.data());
    written += g.size();
    xy.clear(), dir.clear(), g.clear(), status.clear();
  };
  for (std::size_t v = 0; v < mesh.x.size(); ++v) {
    if (!mesh.used[v]) continue;
    const StoredRay& ray = mesh.rays[v];
    const bool escaped = ray.status() == RayStatus::escaped;
    xy.insert(xy.end(), {mesh.x[v], mesh.y[v]});
    for (int k = 0; k < 3; ++k) dir.push_back(escaped ? ray.source_direction[k] : kNaN);
    g.push_back(escaped ? ray.g : kNaN);
    status.push_back(static_cast<std::uint8_t>(ray.status()));
    if (g.size() == kRowsPerBlock) flush();
  }
  flush();
}

void write_triangles(LensmapWriter& writer, const RefinedMesh& mesh,
                     const std::vector<std::uint32_t>& renumbered) {
  std::vector<std::uint32_t> v;
  std::vector<double> mu;
  std::vector<std::int8_t> parity;
  std::vector<std::uint8_t> depth;
  for (std::uint64_t first = 0; first < mesh.kept.size(); first += kRowsPerBlock) {
    const std::uint64_t end = std::min<std::uint64_t>(mesh.kept.size(), first + kRowsPerBlock);
    v.clear(), mu.clear(), parity.clear(), depth.clear();
    for (std::uint64_t t = first; t < end; ++t) {
      const KeptTriangle& triangle = mesh.kept[t];
      for (std::uint32_t index : triangle.v) v.push_back(renumbered[index]);
      mu.push_back(triangle.mu);
      parity.push_back(triangle.parity);
      depth.push_back(triangle.depth);
    }
    writer.write_triangles(first, end - first, v.data(), mu.data(), parity.data(), depth.data());
  }
}

}  // namespace

void write_refined_mesh(const std::filesystem::path& path, const std::string& display_path,
                        const LensmapAttributes& attributes, const RefinedMesh& mesh) {
  std::vector<std::uint32_t> renumbered(mesh.x.size(), 0);
  std::uint32_t used = 0;
  for (std::size_t v = 0; v < mesh.x.size(); ++v)
    if (mesh.used[v]) renumbered[v] = used++;
  LensmapWriter writer(path, display_path, used, mesh.kept.size());
  write_vertices(writer, mesh);
  write_triangles(writer, mesh, renumbered);
  writer.finish(attributes);
}

}  // namespace starlens
