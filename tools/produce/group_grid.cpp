#include "group_grid.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace starlens::produce {
namespace {

// A group's bins: no more than this many per triangle (plus a few), however the triangles lie.
constexpr double kMaxBinsPerTriangle = 4;

struct GroupBuild {
  GroupGrids::Frame frame{};
  std::vector<std::uint32_t> bin_offsets;  // relative, one per bin plus the end
  std::vector<GroupGrids::Entry> triangles;
};

// Where `offset` (in bins, from the bin's corner) falls in the bin, in steps, floored and
// clamped to the bin.
std::uint8_t box_step(double offset) {
  return static_cast<std::uint8_t>(
      std::clamp(std::floor(offset * GroupGrids::kBoxSteps), 0.0, GroupGrids::kBoxSteps - 1));
}

GroupBuild build_group(const LensMesh& mesh, const TriangleGroup& group) {
  GroupBuild build;
  GroupGrids::Frame& f = build.frame;
  f.centre = group.cap.centre;
  auto [u_axis, v_axis] = tangent_axes(f.centre);
  const auto project = [&](const Vec3& d, const Vec3& a, const Vec3& b) {
    const double inverse_depth = 1.0 / inline_dot(d, f.centre);
    return std::array<double, 2>{inline_dot(d, a) * inverse_depth,
                                 inline_dot(d, b) * inverse_depth};
  };
  // The slivers' direction: the longest edges' mean orientation, angles doubled so that an
  // edge and its reverse agree, weighted by length: (du + i dv)^2 / L = L (cos 2a + i sin 2a).
  double c2 = 0, s2 = 0;
  for (const std::uint32_t t : group.triangles) {
    std::array<std::array<double, 2>, 3> q;
    for (int i = 0; i < 3; ++i)
      q[i] = project(mesh.direction[mesh.triangles[t][i]], u_axis, v_axis);
    double best = -1, du = 0, dv = 0;
    for (int i = 0; i < 3; ++i) {
      const double eu = q[(i + 1) % 3][0] - q[i][0], ev = q[(i + 1) % 3][1] - q[i][1];
      const double squared = eu * eu + ev * ev;
      if (squared > best) best = squared, du = eu, dv = ev;
    }
    if (best > 0) {
      const double inverse_length = 1.0 / std::sqrt(best);
      c2 += (du * du - dv * dv) * inverse_length;
      s2 += 2 * du * dv * inverse_length;
    }
  }
  const double turn = 0.5 * std::atan2(s2, c2);
  const double ct = std::cos(turn), st = std::sin(turn);
  f.axis_u = {ct * u_axis[0] + st * v_axis[0], ct * u_axis[1] + st * v_axis[1],
              ct * u_axis[2] + st * v_axis[2]};
  f.axis_v = cross(f.centre, f.axis_u);

  // Triangles in the turned frame; the rectangle and the typical extents.
  std::vector<ConvexPolygon> polygons;
  polygons.reserve(group.triangles.size());
  double u0 = 1e300, u1 = -1e300, v0 = 1e300, v1 = -1e300, extent_u = 0, extent_v = 0;
  for (const std::uint32_t t : group.triangles) {
    ConvexPolygon polygon{};
    polygon.corners = 3;
    double tu0 = 1e300, tu1 = -1e300, tv0 = 1e300, tv1 = -1e300;
    for (int i = 0; i < 3; ++i) {
      polygon.corner[i] = project(mesh.direction[mesh.triangles[t][i]], f.axis_u, f.axis_v);
      tu0 = std::min(tu0, polygon.corner[i][0]);
      tu1 = std::max(tu1, polygon.corner[i][0]);
      tv0 = std::min(tv0, polygon.corner[i][1]);
      tv1 = std::max(tv1, polygon.corner[i][1]);
    }
    u0 = std::min(u0, tu0), u1 = std::max(u1, tu1), v0 = std::min(v0, tv0), v1 = std::max(v1, tv1);
    extent_u += tu1 - tu0;
    extent_v += tv1 - tv0;
    polygons.push_back(polygon);
  }
  const double n = static_cast<double>(polygons.size());
  u0 -= kPlanarPadding, u1 += kPlanarPadding, v0 -= kPlanarPadding, v1 += kPlanarPadding;
  double bin_u = std::max(extent_u / n, kPlanarPadding),
         bin_v = std::max(extent_v / n, kPlanarPadding);
  const double bins = std::ceil((u1 - u0) / bin_u) * std::ceil((v1 - v0) / bin_v);
  const double most = kMaxBinsPerTriangle * n + 16;
  if (bins > most) {  // sparse group: coarser bins, same shape
    const double scale = std::sqrt(bins / most);
    bin_u *= scale;
    bin_v *= scale;
  }
  PlanarGrid& grid = f.grid;
  grid.u0 = u0;
  grid.v0 = v0;
  grid.columns = static_cast<std::uint32_t>(std::clamp(std::ceil((u1 - u0) / bin_u), 1.0, 4096.0));
  grid.rows = static_cast<std::uint32_t>(std::clamp(std::ceil((v1 - v0) / bin_v), 1.0, 4096.0));
  grid.bin_u = (u1 - u0) / grid.columns;
  grid.bin_v = (v1 - v0) / grid.rows;

  const std::size_t bin_count = std::size_t(grid.columns) * grid.rows;
  std::vector<std::uint32_t> counts(bin_count + 1, 0);
  for (const ConvexPolygon& polygon : polygons)
    for_each_overlapped_bin(polygon, grid, [&](std::uint32_t bin) { ++counts[bin + 1]; });
  for (std::size_t b = 0; b < bin_count; ++b) counts[b + 1] += counts[b];
  build.triangles.resize(counts[bin_count]);
  std::vector<std::uint32_t> fill(counts.begin(), counts.end() - 1);
  for (std::size_t i = 0; i < polygons.size(); ++i) {
    // The triangle's padded box in bins, computed as a point's column and row are (the
    // projection less the corner, over the bin's side: each step rounds monotonically, so a
    // point of the triangle never lands outside it).
    const ConvexPolygon& polygon = polygons[i];
    double tu0 = 1e300, tu1 = -1e300, tv0 = 1e300, tv1 = -1e300;
    for (int k = 0; k < 3; ++k) {
      tu0 = std::min(tu0, polygon.corner[k][0]), tu1 = std::max(tu1, polygon.corner[k][0]);
      tv0 = std::min(tv0, polygon.corner[k][1]), tv1 = std::max(tv1, polygon.corner[k][1]);
    }
    const double column0 = (tu0 - kPlanarPadding - grid.u0) / grid.bin_u;
    const double column1 = (tu1 + kPlanarPadding - grid.u0) / grid.bin_u;
    const double row0 = (tv0 - kPlanarPadding - grid.v0) / grid.bin_v;
    const double row1 = (tv1 + kPlanarPadding - grid.v0) / grid.bin_v;
    for_each_overlapped_bin(polygon, grid, [&](std::uint32_t bin) {
      const double column = bin % grid.columns, row = bin / grid.columns;
      build.triangles[fill[bin]++] = {group.triangles[i], box_step(column0 - column),
                                      box_step(column1 - column), box_step(row0 - row),
                                      box_step(row1 - row)};
    });
  }
  build.bin_offsets = std::move(counts);
  return build;
}

}  // namespace

GroupGrids::GroupGrids(const LensMesh& mesh, const std::vector<TriangleGroup>& groups) {
  std::vector<GroupBuild> built(groups.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t g = 0; g < groups.size(); ++g) built[g] = build_group(mesh, groups[g]);
  // Each group keeps its own entries (moved, not copied into one array: a copy would hold
  // them twice at the index build's peak); its bins' offsets, relative to its entries and
  // with its end, go into one array.
  std::vector<std::size_t> first_bin(built.size() + 1, 0);
  for (std::size_t g = 0; g < built.size(); ++g) {
    first_bin[g + 1] = first_bin[g] + built[g].bin_offsets.size();
    bins_ += built[g].bin_offsets.size() - 1;
    entries_ += built[g].triangles.size();
  }
  frames_.resize(built.size());
  group_entries_.resize(built.size());
  bin_offsets_.resize(first_bin.back());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::size_t g = 0; g < built.size(); ++g) {
    GroupBuild& build = built[g];
    std::copy(build.bin_offsets.begin(), build.bin_offsets.end(),
              bin_offsets_.begin() + static_cast<std::ptrdiff_t>(first_bin[g]));
    group_entries_[g] = std::move(build.triangles);
    build.frame.first_bin = static_cast<std::uint32_t>(first_bin[g]);
    build.frame.entries = group_entries_[g].data();
    frames_[g] = build.frame;
    build = GroupBuild();
  }
}

void GroupGrids::renumber(const std::vector<std::uint32_t>& new_number) {
#pragma omp parallel for schedule(dynamic, 64)
  for (std::size_t g = 0; g < group_entries_.size(); ++g)
    for (Entry& entry : group_entries_[g]) entry.triangle = new_number[entry.triangle];
}

std::array<Vec3, 4> GroupGrids::rectangle_corners(std::uint32_t group) const {
  const Frame& f = frames_[group];
  const double u[2] = {f.grid.u0, f.grid.u0 + f.grid.columns * f.grid.bin_u};
  const double v[2] = {f.grid.v0, f.grid.v0 + f.grid.rows * f.grid.bin_v};
  std::array<Vec3, 4> corners;
  const int order[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // around the rectangle
  for (int k = 0; k < 4; ++k) {
    const double a = u[order[k][0]], b = v[order[k][1]];
    corners[k] = normalized({f.centre[0] + a * f.axis_u[0] + b * f.axis_v[0],
                             f.centre[1] + a * f.axis_u[1] + b * f.axis_v[1],
                             f.centre[2] + a * f.axis_u[2] + b * f.axis_v[2]});
  }
  return corners;
}

}  // namespace starlens::produce
