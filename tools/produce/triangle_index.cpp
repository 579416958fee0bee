#include "triangle_index.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "catalog/sky_cells.h"

namespace starlens::produce {
namespace {

// A single triangle may have a wider cap than max_cap_radius, but the gnomonic projection
// needs the whole cap well inside a hemisphere.
constexpr double kLargestCapRadius = 80.0 * kDegree;
// Padding of caps and bins: far above the rounding of the projections (~1e-16), far below
// any triangle.
constexpr double kPadding = 1e-12;
constexpr int kMaxSplitDepth = 40;
constexpr std::uint32_t kMaxBinsPerSide = 512;

double angle_between(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

}  // namespace

// The smallest-ish cap around a group's source directions: centred on their mean.
struct Cap {
  Vec3 centre;
  double radius;
};

struct PatchDraft {
  std::vector<std::uint32_t> triangles;
  Cap cap;
};

namespace {

Cap cap_of(const LensMesh& mesh, const std::vector<std::uint32_t>& triangles) {
  Vec3 sum{0, 0, 0};
  for (const std::uint32_t t : triangles)
    for (const std::uint32_t v : mesh.triangles[t])
      for (int c = 0; c < 3; ++c) sum[c] += mesh.direction[v][c];
  if (!(norm(sum) > 1e-9 * static_cast<double>(triangles.size()))) return {{1, 0, 0}, kPi};
  const Vec3 centre = normalized(sum);
  double radius = 0;
  for (const std::uint32_t t : triangles)
    for (const std::uint32_t v : mesh.triangles[t])
      radius = std::max(radius, angle_between(centre, mesh.direction[v]));
  return {centre, radius};
}

struct SplitContext {
  const LensMesh& mesh;
  const std::vector<std::array<double, 2>>& centroids;
  double max_radius;
};

// Splits an image rectangle's triangles until each group's source cap is small enough.
void split_tile(const SplitContext& context, std::vector<std::uint32_t> triangles, double x0,
                double y0, double x1, double y1, int depth, std::vector<PatchDraft>& out) {
  if (triangles.empty()) return;
  const Cap cap = cap_of(context.mesh, triangles);
  if (triangles.size() == 1 || cap.radius <= context.max_radius) {
    out.push_back({std::move(triangles), cap});
    return;
  }
  if (depth >= kMaxSplitDepth) {  // coincident centroids: split by position in the list
    const auto middle = triangles.begin() + static_cast<std::ptrdiff_t>(triangles.size() / 2);
    std::vector<std::uint32_t> second(middle, triangles.end());
    triangles.erase(middle, triangles.end());
    split_tile(context, std::move(triangles), x0, y0, x1, y1, depth + 1, out);
    split_tile(context, std::move(second), x0, y0, x1, y1, depth + 1, out);
    return;
  }
  const double xm = 0.5 * (x0 + x1);
  const double ym = 0.5 * (y0 + y1);
  std::vector<std::uint32_t> quadrant[4];
  for (const std::uint32_t t : triangles) {
    const auto& c = context.centroids[t];
    quadrant[(c[0] >= xm ? 1 : 0) + (c[1] >= ym ? 2 : 0)].push_back(t);
  }
  split_tile(context, std::move(quadrant[0]), x0, y0, xm, ym, depth + 1, out);
  split_tile(context, std::move(quadrant[1]), xm, y0, x1, ym, depth + 1, out);
  split_tile(context, std::move(quadrant[2]), x0, ym, xm, y1, depth + 1, out);
  split_tile(context, std::move(quadrant[3]), xm, ym, x1, y1, depth + 1, out);
}

// Two unit vectors completing `centre` to a right-handed orthonormal frame.
std::pair<Vec3, Vec3> tangent_axes(const Vec3& centre) {
  int least = 0;
  for (int c = 1; c < 3; ++c)
    if (std::abs(centre[c]) < std::abs(centre[least])) least = c;
  Vec3 pole{0, 0, 0};
  pole[least] = 1;
  const Vec3 u = normalized(cross(pole, centre));
  return {u, cross(centre, u)};
}

}  // namespace

TriangleIndex::TriangleIndex(const LensMesh& mesh, int catalogue_order,
                             const IndexSettings& settings)
    : order_(catalogue_order) {
  const std::size_t count = mesh.triangle_count();
  const std::vector<double> weights = interpolation_weights(mesh);
  sources_.resize(count);
  images_.resize(count);
  for (std::size_t t = 0; t < count; ++t) {
    const auto& v = mesh.triangles[t];
    sources_[t] =
        SourceTriangle({mesh.direction[v[0]], mesh.direction[v[1]], mesh.direction[v[2]]}, v);
    ImageTriangle& image = images_[t];
    for (int i = 0; i < 3; ++i) {
      image.weight[i] = weights[v[i]];
      image.weighted_x[i] = weights[v[i]] * mesh.xy[v[i]][0];
      image.weighted_y[i] = weights[v[i]] * mesh.xy[v[i]][1];
      image.g[i] = mesh.g[v[i]];
    }
    image.mu = mesh.mu[t];
  }

  std::vector<PatchDraft> drafts;
  build_patches(mesh, settings, drafts);
  std::vector<double> cap_radii;
  bin_offsets_.push_back(0);
  for (const PatchDraft& draft : drafts) {
    if (draft.triangles.size() == 1 && draft.cap.radius > kLargestCapRadius) {
      ++statistics_.triangles_too_large;
      continue;
    }
    add_patch(mesh, draft);
    cap_radii.push_back(draft.cap.radius);
  }
  statistics_.patches = patches_.size();
  statistics_.bin_entries = bin_triangles_.size();
  build_cell_table(cap_radii);
}

void TriangleIndex::build_patches(const LensMesh& mesh, const IndexSettings& settings,
                                  std::vector<PatchDraft>& drafts) {
  const double tile = settings.tile_pixels;
  const auto tiles_x = static_cast<std::size_t>(std::max(1.0, std::ceil(mesh.width / tile)));
  const auto tiles_y = static_cast<std::size_t>(std::max(1.0, std::ceil(mesh.height / tile)));
  std::vector<std::array<double, 2>> centroids(mesh.triangle_count());
  std::vector<std::vector<std::uint32_t>> tiles(tiles_x * tiles_y);
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    if (!sources_[t].valid()) {
      ++statistics_.triangles_degenerate;
      continue;
    }
    const auto& v = mesh.triangles[t];
    for (int c = 0; c < 2; ++c)
      centroids[t][c] = (mesh.xy[v[0]][c] + mesh.xy[v[1]][c] + mesh.xy[v[2]][c]) / 3.0;
    const auto tx =
        static_cast<std::size_t>(std::clamp(centroids[t][0] / tile, 0.0, tiles_x - 1.0));
    const auto ty =
        static_cast<std::size_t>(std::clamp(centroids[t][1] / tile, 0.0, tiles_y - 1.0));
    tiles[ty * tiles_x + tx].push_back(t);
  }
  const SplitContext context{mesh, centroids, settings.max_cap_radius};
  std::vector<std::vector<PatchDraft>> per_tile(tiles.size());
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const double x0 = static_cast<double>(i % tiles_x) * tile;
    const double y0 = static_cast<double>(i / tiles_x) * tile;
    split_tile(context, std::move(tiles[i]), x0, y0, x0 + tile, y0 + tile, 0, per_tile[i]);
  }
  for (auto& tile_drafts : per_tile)
    for (auto& draft : tile_drafts) drafts.push_back(std::move(draft));
}

void TriangleIndex::add_patch(const LensMesh& mesh, const PatchDraft& draft) {
  Patch patch{};
  patch.centre = draft.cap.centre;
  std::tie(patch.axis_u, patch.axis_v) = tangent_axes(patch.centre);
  patch.cos_radius = std::cos(std::min(draft.cap.radius + kPadding, kPi));

  // Gnomonic bounding box of each triangle, and of the patch.
  struct Box {
    double u0, u1, v0, v1;
  };
  std::vector<Box> boxes;
  boxes.reserve(draft.triangles.size());
  Box all{1e300, -1e300, 1e300, -1e300};
  for (const std::uint32_t t : draft.triangles) {
    Box box{1e300, -1e300, 1e300, -1e300};
    for (const std::uint32_t v : mesh.triangles[t]) {
      const Vec3& d = mesh.direction[v];
      const double depth = dot(d, patch.centre);
      const double u = dot(d, patch.axis_u) / depth;
      const double w = dot(d, patch.axis_v) / depth;
      box = {std::min(box.u0, u), std::max(box.u1, u), std::min(box.v0, w), std::max(box.v1, w)};
    }
    box = {box.u0 - kPadding, box.u1 + kPadding, box.v0 - kPadding, box.v1 + kPadding};
    all = {std::min(all.u0, box.u0), std::max(all.u1, box.u1), std::min(all.v0, box.v0),
           std::max(all.v1, box.v1)};
    boxes.push_back(box);
  }
  const double extent_u = all.u1 - all.u0;
  const double extent_v = all.v1 - all.v0;
  // About two bins per triangle, square bins, at most kMaxBinsPerSide a side.
  double bin = std::sqrt(extent_u * extent_v / (2.0 * static_cast<double>(boxes.size())));
  bin = std::max({bin, extent_u / kMaxBinsPerSide, extent_v / kMaxBinsPerSide, kPadding});
  patch.columns = std::clamp<std::uint32_t>(static_cast<std::uint32_t>(std::ceil(extent_u / bin)),
                                            1, kMaxBinsPerSide);
  patch.rows = std::clamp<std::uint32_t>(static_cast<std::uint32_t>(std::ceil(extent_v / bin)), 1,
                                         kMaxBinsPerSide);
  patch.u_min = all.u0;
  patch.v_min = all.v0;
  patch.inverse_bin = 1.0 / bin;
  patch.first_bin = static_cast<std::uint32_t>(bin_offsets_.size() - 1);

  // Counting pass, then filling (CSR over this patch's bins).
  const std::size_t bins = std::size_t(patch.columns) * patch.rows;
  std::vector<std::uint32_t> counts(bins + 1, 0);
  const auto bin_range = [&](const Box& box, std::uint32_t& c0, std::uint32_t& c1,
                             std::uint32_t& r0, std::uint32_t& r1) {
    const auto clamp_bin = [](double position, std::uint32_t size) {
      return static_cast<std::uint32_t>(std::clamp(std::floor(position), 0.0, size - 1.0));
    };
    c0 = clamp_bin((box.u0 - patch.u_min) * patch.inverse_bin, patch.columns);
    c1 = clamp_bin((box.u1 - patch.u_min) * patch.inverse_bin, patch.columns);
    r0 = clamp_bin((box.v0 - patch.v_min) * patch.inverse_bin, patch.rows);
    r1 = clamp_bin((box.v1 - patch.v_min) * patch.inverse_bin, patch.rows);
  };
  for (const Box& box : boxes) {
    std::uint32_t c0, c1, r0, r1;
    bin_range(box, c0, c1, r0, r1);
    for (std::uint32_t r = r0; r <= r1; ++r)
      for (std::uint32_t c = c0; c <= c1; ++c) ++counts[std::size_t(r) * patch.columns + c + 1];
  }
  for (std::size_t b = 0; b < bins; ++b) counts[b + 1] += counts[b];
  const auto base = static_cast<std::uint32_t>(bin_triangles_.size());
  bin_triangles_.resize(base + counts[bins]);
  std::vector<std::uint32_t> fill(counts.begin(), counts.end() - 1);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    std::uint32_t c0, c1, r0, r1;
    bin_range(boxes[i], c0, c1, r0, r1);
    for (std::uint32_t r = r0; r <= r1; ++r)
      for (std::uint32_t c = c0; c <= c1; ++c)
        bin_triangles_[base + fill[std::size_t(r) * patch.columns + c]++] = draft.triangles[i];
  }
  for (std::size_t b = 1; b <= bins; ++b) bin_offsets_.push_back(base + counts[b]);
  statistics_.triangles_indexed += draft.triangles.size();
  patches_.push_back(patch);
}

void TriangleIndex::build_cell_table(const std::vector<double>& cap_radii) {
  const catalog::SkyCells sky(order_);
  std::vector<std::vector<std::uint64_t>> cells_of_patch(patches_.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t p = 0; p < patches_.size(); ++p)
    cells_of_patch[p] =
        sky.cells_in_disc(patches_[p].centre, std::min(cap_radii[p] + kPadding, kPi));

  std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs;
  for (std::size_t p = 0; p < patches_.size(); ++p)
    for (const std::uint64_t cell : cells_of_patch[p])
      pairs.emplace_back(cell, static_cast<std::uint32_t>(p));
  std::sort(pairs.begin(), pairs.end());
  statistics_.cell_patch_pairs = pairs.size();
  cell_patch_offsets_.push_back(0);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i == 0 || pairs[i].first != pairs[i - 1].first) {
      if (i > 0) cell_patch_offsets_.push_back(static_cast<std::uint32_t>(i));
      cells_.push_back(pairs[i].first);
    }
    cell_patches_.push_back(pairs[i].second);
  }
  if (!pairs.empty()) cell_patch_offsets_.push_back(static_cast<std::uint32_t>(pairs.size()));
}

std::size_t TriangleIndex::slot_of(std::uint64_t cell) const {
  const auto found = std::lower_bound(cells_.begin(), cells_.end(), cell);
  if (found == cells_.end() || *found != cell) return kNoSlot;
  return static_cast<std::size_t>(found - cells_.begin());
}

}  // namespace starlens::produce
