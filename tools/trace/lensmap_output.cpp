#include "lensmap_output.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/atomic_output.h"
#include "ordered_parallel.h"

namespace starlens {
namespace {

constexpr std::uint64_t kRowsPerBlock = 1 << 16;  // one HDF5 chunk per write, as before
// Rows gathered at once, by all threads: few parallel regions (threads idle-spin between
// them while HDF5 writes), and buffers far smaller than the refinement's peak memory.
constexpr std::uint64_t kRowsPerGather = 4 * kRowsPerBlock;

// The file's pages are handed to the disk as they are written (start_writeback), so that the
// fsync at the end waits for the last part only: the disk here took 0.1-0.6 s for the 230 MB
// of the benchmark's map.
void write_vertices(LensmapWriter& writer, const RefinedMesh& mesh,
                    const FillVector<std::uint32_t>& renumbered, std::uint64_t used,
                    const std::filesystem::path& path) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  FillVector<double> xy, dir, g;  // every row written by the gather
  FillVector<std::uint8_t> status;
  std::size_t source = 0;  // the first vertex not yet written
  for (std::uint64_t first = 0; first < used; first += kRowsPerGather) {
    const std::uint64_t rows = std::min<std::uint64_t>(used - first, kRowsPerGather);
    // renumbered[v] is the number of used vertices before v: the rows' sources end where it
    // reaches first + rows.
    const auto end = static_cast<std::size_t>(
        std::lower_bound(renumbered.begin() + source, renumbered.end(), first + rows) -
        renumbered.begin());
    xy.resize(2 * rows), dir.resize(3 * rows), g.resize(rows), status.resize(rows);
#pragma omp parallel for schedule(static)
    for (std::int64_t v = source; v < static_cast<std::int64_t>(end); ++v) {
      if (!mesh.used[v]) continue;
      const std::uint64_t row = renumbered[v] - first;
      const StoredRay& ray = mesh.rays[v];
      const bool escaped = ray.status() == RayStatus::escaped;
      xy[2 * row] = mesh.points[v].x;
      xy[2 * row + 1] = mesh.points[v].y;
      for (int k = 0; k < 3; ++k) dir[3 * row + k] = escaped ? ray.source_direction[k] : kNaN;
      g[row] = escaped ? ray.g : kNaN;
      status[row] = static_cast<std::uint8_t>(ray.status());
    }
    for (std::uint64_t at = 0; at < rows; at += kRowsPerBlock)
      writer.write_vertices(first + at, std::min(rows - at, kRowsPerBlock), &xy[2 * at],
                            &dir[3 * at], &g[at], &status[at]);
    start_writeback(path);
    source = end;
  }
}

void write_triangles(LensmapWriter& writer, const RefinedMesh& mesh,
                     const FillVector<std::uint32_t>& renumbered,
                     const std::filesystem::path& path) {
  FillVector<std::uint32_t> v;  // every row written by the gather
  FillVector<double> mu;
  FillVector<std::int8_t> parity;
  FillVector<std::uint8_t> depth;
  for (std::uint64_t first = 0; first < mesh.kept.size(); first += kRowsPerGather) {
    const std::uint64_t rows = std::min<std::uint64_t>(mesh.kept.size() - first, kRowsPerGather);
    v.resize(3 * rows), mu.resize(rows), parity.resize(rows), depth.resize(rows);
#pragma omp parallel for schedule(static)
    for (std::int64_t row = 0; row < static_cast<std::int64_t>(rows); ++row) {
      const KeptTriangle& triangle = mesh.kept[first + row];
      for (int k = 0; k < 3; ++k) v[3 * row + k] = renumbered[triangle.v[k]];
      mu[row] = triangle.mu;
      parity[row] = triangle.parity;
      depth[row] = triangle.depth;
    }
    for (std::uint64_t at = 0; at < rows; at += kRowsPerBlock)
      writer.write_triangles(first + at, std::min(rows - at, kRowsPerBlock), &v[3 * at], &mu[at],
                             &parity[at], &depth[at]);
    start_writeback(path);
  }
}

}  // namespace

void write_refined_mesh(const std::filesystem::path& path, const std::string& display_path,
                        const LensmapAttributes& attributes, const RefinedMesh& mesh) {
  // New numbers of the used vertices: how many used ones come before.
  FillVector<std::uint32_t> renumbered(mesh.points.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(mesh.points.size()); ++v)
    renumbered[v] = mesh.used[v];
  const std::uint32_t used = exclusive_scan_in_parallel(renumbered);
  LensmapWriter writer(path, display_path, used, mesh.kept.size());
  write_vertices(writer, mesh, renumbered, used, path);
  write_triangles(writer, mesh, renumbered, path);
  writer.finish(attributes);
}

}  // namespace starlens
