#include "lensmap_output.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <exception>
#include <limits>

#include "core/atomic_output.h"
#include "ordered_parallel.h"

namespace starlens {
namespace {

constexpr std::uint64_t kRowsPerBlock = 1 << 16;  // one HDF5 chunk per write, as before
// Rows gathered at once: few parallel regions, and buffers far smaller than the refinement's
// peak memory.
constexpr std::uint64_t kRowsPerGather = 4 * kRowsPerBlock;

// Runs gather(group, buffer, all_threads) and write(group, buffer) for groups 0 .. count - 1,
// writing in group order on this thread (the only one that calls HDF5) while a second thread
// gathers the next group into the other buffer: HDF5's writes, the longer of the two, then
// hide the gathers. An exception on either thread is rethrown here once both are done.
template <typename Buffer, typename Gather, typename Write>
void gather_while_writing(std::uint64_t count, const Gather& gather, const Write& write) {
  if (count == 0) return;
  std::array<Buffer, 2> buffers;
  gather(0, buffers[0], true);
  for (std::uint64_t group = 0; group < count; ++group) {
    Buffer& current = buffers[group % 2];
    Buffer& next = buffers[(group + 1) % 2];
    const bool more = group + 1 < count;
    if (!more || omp_get_max_threads() < 2) {
      write(group, current);
      if (more) gather(group + 1, next, true);
      continue;
    }
    std::array<std::exception_ptr, 2> failures;
#pragma omp parallel num_threads(2)
    {
      const int thread = omp_get_thread_num();
      try {
        if (thread == 0)
          write(group, current);
        else
          gather(group + 1, next, false);
      } catch (...) {
        failures[thread] = std::current_exception();
      }
    }
    for (const std::exception_ptr& failure : failures)
      if (failure) std::rethrow_exception(failure);
  }
}

struct VertexRows {
  FillVector<double> xy, dir, g;  // every row written by the gather
  FillVector<std::uint8_t> status;
};

struct TriangleRows {
  FillVector<std::uint32_t> v;  // every row written by the gather
  FillVector<double> mu;
  FillVector<std::int8_t> parity;
  FillVector<std::uint8_t> depth;
};

// The file's pages are handed to the disk as they are written (start_writeback), so that the
// fsync at the end waits for the last part only.
void write_vertices(LensmapWriter& writer, const RefinedMesh& mesh,
                    const FillVector<std::uint32_t>& renumbered, std::uint64_t used,
                    const std::filesystem::path& path) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const auto rows_of = [&](std::uint64_t group) {
    return std::min<std::uint64_t>(used - group * kRowsPerGather, kRowsPerGather);
  };
  const auto gather = [&](std::uint64_t group, VertexRows& buffer, bool all_threads) {
    const std::uint64_t first = group * kRowsPerGather, rows = rows_of(group);
    // renumbered[v] is the number of used vertices before v: the group's vertices are those
    // from where it reaches `first` to where it reaches first + rows.
    const auto source = static_cast<std::int64_t>(
        std::lower_bound(renumbered.begin(), renumbered.end(), first) - renumbered.begin());
    const auto end = static_cast<std::int64_t>(
        std::lower_bound(renumbered.begin() + source, renumbered.end(), first + rows) -
        renumbered.begin());
    buffer.xy.resize(2 * rows), buffer.dir.resize(3 * rows), buffer.g.resize(rows);
    buffer.status.resize(rows);
#pragma omp parallel for schedule(static) if (all_threads)
    for (std::int64_t v = source; v < end; ++v) {
      if (!mesh.used[v]) continue;
      const std::uint64_t row = renumbered[v] - first;
      const StoredRay& ray = mesh.rays[v];
      const bool escaped = ray.status() == RayStatus::escaped;
      buffer.xy[2 * row] = mesh.points[v].x;
      buffer.xy[2 * row + 1] = mesh.points[v].y;
      for (int k = 0; k < 3; ++k)
        buffer.dir[3 * row + k] = escaped ? ray.source_direction[k] : kNaN;
      buffer.g[row] = escaped ? ray.g : kNaN;
      buffer.status[row] = static_cast<std::uint8_t>(ray.status());
    }
  };
  const auto write = [&](std::uint64_t group, const VertexRows& buffer) {
    const std::uint64_t first = group * kRowsPerGather, rows = rows_of(group);
    for (std::uint64_t at = 0; at < rows; at += kRowsPerBlock)
      writer.write_vertices(first + at, std::min(rows - at, kRowsPerBlock), &buffer.xy[2 * at],
                            &buffer.dir[3 * at], &buffer.g[at], &buffer.status[at]);
    start_writeback(path);
  };
  gather_while_writing<VertexRows>((used + kRowsPerGather - 1) / kRowsPerGather, gather, write);
}

void write_triangles(LensmapWriter& writer, const RefinedMesh& mesh,
                     const FillVector<std::uint32_t>& renumbered,
                     const std::filesystem::path& path) {
  const std::uint64_t kept = mesh.kept.size();
  const auto rows_of = [&](std::uint64_t group) {
    return std::min<std::uint64_t>(kept - group * kRowsPerGather, kRowsPerGather);
  };
  const auto gather = [&](std::uint64_t group, TriangleRows& buffer, bool all_threads) {
    const std::uint64_t first = group * kRowsPerGather, rows = rows_of(group);
    buffer.v.resize(3 * rows), buffer.mu.resize(rows), buffer.parity.resize(rows);
    buffer.depth.resize(rows);
#pragma omp parallel for schedule(static) if (all_threads)
    for (std::int64_t row = 0; row < static_cast<std::int64_t>(rows); ++row) {
      const KeptTriangle& triangle = mesh.kept[first + row];
      for (int k = 0; k < 3; ++k) buffer.v[3 * row + k] = renumbered[triangle.v[k]];
      buffer.mu[row] = triangle.mu;
      buffer.parity[row] = triangle.parity;
      buffer.depth[row] = triangle.depth;
    }
  };
  const auto write = [&](std::uint64_t group, const TriangleRows& buffer) {
    const std::uint64_t first = group * kRowsPerGather, rows = rows_of(group);
    for (std::uint64_t at = 0; at < rows; at += kRowsPerBlock)
      writer.write_triangles(first + at, std::min(rows - at, kRowsPerBlock), &buffer.v[3 * at],
                             &buffer.mu[at], &buffer.parity[at], &buffer.depth[at]);
    start_writeback(path);
  };
  gather_while_writing<TriangleRows>((kept + kRowsPerGather - 1) / kRowsPerGather, gather, write);
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
