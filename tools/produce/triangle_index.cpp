#include "triangle_index.h"

#include <healpix_base.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <parallel/algorithm>
#include <tuple>
#include <utility>

#include "catalog/sky_cells.h"
#include "core/progress.h"
#include "photon_ring.h"
#include "planar_bins.h"
#include "triangle_groups.h"

namespace starlens::produce {
namespace {

// A single triangle may have a wider cap than max_cap_radius, but a triangle must stay well
// inside a hemisphere for its edges' great circles to bound it.
constexpr double kLargestCapRadius = 80.0 * kDegree;
// Directions this close to a cell's horizon (depth = cos(angle) below it) are not projected
// into its plane; a group with such a corner is tried for every star of the cell instead.
constexpr double kSmallestDepth = 0.05;
constexpr int kMaxLevel = 10;  // 1024 bins a side
// A level is stored dense while it has no more than this many bins per entry (plus a few);
// a level holding few groups stores only its occupied bins, in a hash table.
constexpr double kBinsPerEntry = 8;
// Points sampled along a cell's boundary for its rectangle, and the margin added for the
// boundary's curvature between them (a fraction of the rectangle's size).
constexpr std::size_t kBoundarySteps = 8;
constexpr double kBoundaryMargin = 0.02;
// Padding of an entry's box, in units of the cell rectangle's sides: far above the rounding of
// the projections (and of the group rectangle's corners), far below any group.
constexpr double kEntryBoxPadding = 1e-9;

float float_below(double x) {
  float f = static_cast<float>(x);
  if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
float float_above(double x) {
  float f = static_cast<float>(x);
  if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// A triangle's image side: its mu, or with a point lens its bound of the point magnification
// (what the visibility bounds of groups and cells take) and its image order.
ImageTriangle image_triangle(const LensMesh& mesh, std::size_t t) {
  const std::int8_t parity = mesh.parity.empty() ? std::int8_t{1} : mesh.parity[t];
  if (mesh.max_point_mu.empty()) return {mesh.triangles[t], mesh.mu[t], mesh.mu[t], 0, parity};
  return {mesh.triangles[t], mesh.mu[t], mesh.max_point_mu[t], mesh.order[t], parity};
}

}  // namespace

// One cell's grid, built on its own (cells are built in parallel) and then appended.
struct TriangleIndex::CellBuild {
  CellGrid grid{};
  std::vector<GridLevel> levels;           // first relative to this cell's bins or buckets
  std::vector<std::uint32_t> bin_offsets;  // relative to this cell's entries; per dense level its
                                           // start, then each bin's end
  std::vector<Entry> entries;              // unprojected first, then bin by bin
  std::vector<Bucket> buckets;             // first and end relative to this cell's entries
  std::uint32_t unprojected = 0;
};

TriangleIndex::TriangleIndex(const LensMesh& mesh, int catalogue_order,
                             const IndexSettings& settings)
    : order_(catalogue_order),
      point_lens_(mesh.point_lens),
      photon_ring_(mesh.photon_ring),
      traced_images_(mesh.traced_images),
      motion_(mesh.motion) {
  auto phase_start = std::chrono::steady_clock::now();
  const auto end_phase = [&](const char* phase) {
    statistics_.build_seconds.add(phase, seconds_since(phase_start));
    phase_start = std::chrono::steady_clock::now();
  };
  const std::size_t count = mesh.triangle_count();
  const std::vector<double> weights = interpolation_weights(mesh);
  image_vertices_.resize(mesh.xy.size());
  for (std::size_t v = 0; v < mesh.xy.size(); ++v)
    image_vertices_[v] = {weights[v] * mesh.xy[v][0], weights[v] * mesh.xy[v][1], weights[v],
                          mesh.g[v], mesh.point_lens ? weights[v] * mesh.psi[v] : 0.0};
  sources_.resize(count);
  images_.resize(count);
  std::vector<std::uint8_t> usable(count, 0);
#pragma omp parallel for schedule(static)
  for (std::size_t t = 0; t < count; ++t) {
    const auto& v = mesh.triangles[t];
    sources_[t] =
        SourceTriangle({mesh.direction[v[0]], mesh.direction[v[1]], mesh.direction[v[2]]}, v);
    images_[t] = image_triangle(mesh, t);
    usable[t] = sources_[t].valid();
  }
  statistics_.triangles_degenerate =
      static_cast<std::uint64_t>(std::count(usable.begin(), usable.end(), 0));
  if (photon_ring_ && mesh.order.size() == count) {
    // The images of these orders come from the point lens (photon_ring.h): their triangles are
    // not searched at all, and the ring's bound stands for them in every cell's.
    for (std::size_t t = 0; t < count; ++t) {
      if (!usable[t] || mesh.order[t] < PhotonRing::kFirstOrder) continue;
      usable[t] = 0;
      ++statistics_.triangles_of_point_lens_orders;
    }
  }

  end_phase("triangles");
  // Groups, their grids, and the cells their caps overlap.
  std::vector<TriangleGroup> groups =
      group_triangles(mesh, usable, settings.tile_pixels, settings.max_cap_radius);
  std::erase_if(groups, [&](const TriangleGroup& group) {
    const bool too_large = group.triangles.size() == 1 && group.cap.radius > kLargestCapRadius;
    statistics_.triangles_too_large += too_large;
    return too_large;
  });
  for (const TriangleGroup& group : groups) statistics_.triangles_indexed += group.triangles.size();
  statistics_.groups = groups.size();
  end_phase("grouping");
  groups_ = GroupGrids(mesh, groups);
  std::vector<std::array<double, 2>> group_bounds(groups.size(), {0.0, 0.0});  // max mu, max g
#pragma omp parallel for schedule(dynamic, 64)
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (const std::uint32_t t : groups[g].triangles) {
      group_bounds[g][0] = std::max(group_bounds[g][0], images_[t].max_mu);
      if (!mesh.max_g.empty()) {
        group_bounds[g][1] = std::max(group_bounds[g][1], mesh.max_g[t]);
      } else {
        for (const std::uint32_t v : images_[t].vertex)
          group_bounds[g][1] = std::max(group_bounds[g][1], mesh.g[v]);
      }
    }
  statistics_.group_grid_entries = groups_.entries();
  statistics_.group_grid_bins = groups_.bins();

  number_by_group(mesh, groups);
  group_max_mu_.resize(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) group_max_mu_[g] = group_bounds[g][0];
  end_phase("group_grids");
  const catalog::SkyCells sky(order_);
  std::vector<std::vector<std::uint64_t>> cells_of_group(groups.size());
  Progress querying("produce index: cells of the triangle groups", groups.size(), settings.quiet);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t g = 0; g < groups.size(); ++g) {
    cells_of_group[g] = sky.cells_in_disc(
        groups[g].cap.centre, std::min(groups[g].cap.radius + kPlanarPadding, std::numbers::pi));
    querying.advance();
  }
  querying.finish();
  groups = {};
  // Every (cell, group) pair as one key, cell above group, sorted: filled and sorted on all
  // threads (there are tens of millions at the catalogue orders of large stores).
  static_assert(catalog::kMaxStoreOrder <= 14, "a cell number must fit above a group's 32 bits");
  std::vector<std::size_t> first_of_group(cells_of_group.size() + 1, 0);
  for (std::size_t g = 0; g < cells_of_group.size(); ++g)
    first_of_group[g + 1] = first_of_group[g] + cells_of_group[g].size();
  std::vector<std::uint64_t> pairs(first_of_group.back());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::size_t g = 0; g < cells_of_group.size(); ++g) {
    std::size_t i = first_of_group[g];
    for (const std::uint64_t cell : cells_of_group[g]) pairs[i++] = cell << 32 | g;
    cells_of_group[g] = {};
  }
  cells_of_group = {};
  __gnu_parallel::sort(pairs.begin(), pairs.end());
  statistics_.cell_group_pairs = pairs.size();
  std::vector<std::size_t> first_pair;  // of each cell
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (i == 0 || pairs[i] >> 32 != pairs[i - 1] >> 32) {
      first_pair.push_back(i);
      cells_.push_back(pairs[i] >> 32);
    }
  first_pair.push_back(pairs.size());
  if (photon_ring_) {
    // Every cell, with or without triangles: a star's ring images come from the point lens.
    std::vector<std::uint64_t> every(sky.count());
    std::vector<std::size_t> first_of_every(sky.count() + 1, pairs.size());
    std::size_t held = 0;
    for (std::uint64_t cell = 0; cell < sky.count(); ++cell) {
      every[cell] = cell;
      first_of_every[cell] = held < cells_.size() ? first_pair[held] : pairs.size();
      if (held < cells_.size() && cells_[held] == cell) ++held;
    }
    cells_ = std::move(every);
    first_pair = std::move(first_of_every);
  }
  std::vector<std::uint32_t> group_of_pair(pairs.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < pairs.size(); ++i)
    group_of_pair[i] = static_cast<std::uint32_t>(pairs[i]);
  pairs = {};

  end_phase("cell_query");
  // Each cell's grid of groups, then all appended in cell order.
  std::vector<CellBuild> built(cells_.size());
  Progress gridding("produce index: cell grids", cells_.size(), settings.quiet);
#pragma omp parallel for schedule(dynamic, 4)
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    built[c] = build_cell(cells_[c], group_of_pair.data() + first_pair[c],
                          first_pair[c + 1] - first_pair[c], group_bounds);
    gridding.advance();
  }
  gridding.finish();
  // Appended in cell order, each cell's part of every array at its offset: the offsets by a
  // prefix sum, the copies on all threads.
  struct Offsets {
    std::size_t levels = 0, bins = 0, buckets = 0, entries = 0;
  };
  std::vector<Offsets> offsets(built.size() + 1);
  for (std::size_t c = 0; c < built.size(); ++c) {
    offsets[c + 1].levels = offsets[c].levels + built[c].levels.size();
    offsets[c + 1].bins = offsets[c].bins + built[c].bin_offsets.size();
    offsets[c + 1].buckets = offsets[c].buckets + built[c].buckets.size();
    offsets[c + 1].entries = offsets[c].entries + built[c].entries.size();
    statistics_.unprojected_entries += built[c].unprojected;
  }
  grids_.resize(built.size());
  levels_.resize(offsets.back().levels);
  bin_offsets_.resize(offsets.back().bins);
  buckets_.resize(offsets.back().buckets);
  entries_.resize(offsets.back().entries);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::size_t c = 0; c < built.size(); ++c) {
    CellBuild& cell = built[c];
    const Offsets& at = offsets[c];
    const auto entry_base = static_cast<std::uint32_t>(at.entries);
    const auto bin_base = static_cast<std::uint32_t>(at.bins);
    const auto bucket_base = static_cast<std::uint32_t>(at.buckets);
    CellGrid grid = cell.grid;
    grid.first_unprojected = entry_base;
    grid.end_unprojected = entry_base + cell.unprojected;
    grid.first_level = static_cast<std::uint32_t>(at.levels);
    grid.end_level = grid.first_level + static_cast<std::uint32_t>(cell.levels.size());
    grids_[c] = grid;
    for (std::size_t l = 0; l < cell.levels.size(); ++l) {
      GridLevel level = cell.levels[l];
      level.first += level.mask == 0 ? bin_base : bucket_base;
      levels_[at.levels + l] = level;
    }
    for (std::size_t b = 0; b < cell.bin_offsets.size(); ++b)
      bin_offsets_[at.bins + b] = entry_base + cell.bin_offsets[b];
    for (std::size_t b = 0; b < cell.buckets.size(); ++b) {
      Bucket bucket = cell.buckets[b];
      if (bucket.key != 0) bucket.first += entry_base, bucket.end += entry_base;
      buckets_[at.buckets + b] = bucket;
    }
    std::copy(cell.entries.begin(), cell.entries.end(),
              entries_.begin() + static_cast<std::ptrdiff_t>(at.entries));
    cell = CellBuild();
  }
  if (photon_ring_) {
    const double radius = T_Healpix_Base<int64>(order_, NEST).max_pixrad();
    ring_beyond_first_max_mu_.assign(grids_.size(), 0);
#pragma omp parallel for schedule(static)
    for (std::size_t c = 0; c < grids_.size(); ++c) {
      grids_[c].max_mu =
          std::max(grids_[c].max_mu, photon_ring_->max_mu_near(grids_[c].centre, radius));
      grids_[c].max_g = std::max(grids_[c].max_g, photon_ring_->max_g());
      ring_beyond_first_max_mu_[c] =
          photon_ring_->max_mu_near(grids_[c].centre, radius, PhotonRing::kFirstOrder + 1);
    }
  }
  statistics_.cell_grid_entries = entries_.size() - statistics_.unprojected_entries;
  statistics_.cell_grid_bins = bin_offsets_.size() + buckets_.size();
  end_phase("cell_grids");
}

void TriangleIndex::number_by_group(const LensMesh& mesh,
                                    const std::vector<TriangleGroup>& groups) {
  constexpr std::uint32_t kUnplaced = static_cast<std::uint32_t>(-1);
  std::vector<std::uint32_t> new_number(sources_.size(), kUnplaced);
  mesh_triangle_.clear();
  mesh_triangle_.reserve(sources_.size());
  const auto place = [&](std::uint32_t triangle) {
    new_number[triangle] = static_cast<std::uint32_t>(mesh_triangle_.size());
    mesh_triangle_.push_back(triangle);
  };
  for (const TriangleGroup& group : groups)
    for (const std::uint32_t triangle : group.triangles) place(triangle);
  for (std::uint32_t triangle = 0; triangle < sources_.size(); ++triangle)
    if (new_number[triangle] == kUnplaced) place(triangle);
      // Rebuilt from the mesh in the new order: in place and in parallel (permuting the arrays in
      // place follows cycles one cache miss at a time; a copy would double their memory).
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < mesh_triangle_.size(); ++i) {
    const std::uint32_t t = mesh_triangle_[i];
    const auto& v = mesh.triangles[t];
    sources_[i] =
        SourceTriangle({mesh.direction[v[0]], mesh.direction[v[1]], mesh.direction[v[2]]}, v);
    images_[i] = image_triangle(mesh, t);
  }
  groups_.renumber(new_number);
}

TriangleIndex::CellBuild TriangleIndex::build_cell(
    std::uint64_t cell, const std::uint32_t* groups, std::size_t group_count,
    const std::vector<std::array<double, 2>>& group_bounds) const {
  CellBuild build;
  const T_Healpix_Base<int64> base(order_, NEST);
  const vec3 centre = base.pix2vec(static_cast<int64>(cell));
  CellGrid& grid = build.grid;
  grid.centre = {centre.x, centre.y, centre.z};
  std::tie(grid.axis_u, grid.axis_v) = tangent_axes(grid.centre);
  const auto project = [&](const Vec3& d, std::array<double, 2>& q) {
    const double depth = inline_dot(d, grid.centre);
    if (!(depth > kSmallestDepth)) return false;
    q = {inline_dot(d, grid.axis_u) / depth, inline_dot(d, grid.axis_v) / depth};
    return true;
  };

  // The cell's rectangle: its boundary's projection, plus a margin for the boundary's
  // curvature between the sampled points.
  std::vector<vec3> boundary;
  base.boundaries(static_cast<int64>(cell), kBoundarySteps, boundary);
  double u0 = 1e300, u1 = -1e300, v0 = 1e300, v1 = -1e300;
  for (const vec3& b : boundary) {
    std::array<double, 2> q{0, 0};
    project({b.x, b.y, b.z}, q);
    u0 = std::min(u0, q[0]), u1 = std::max(u1, q[0]), v0 = std::min(v0, q[1]),
    v1 = std::max(v1, q[1]);
  }
  const double margin = kBoundaryMargin * std::max(u1 - u0, v1 - v0);
  u0 -= margin, u1 += margin, v0 -= margin, v1 += margin;
  grid.u_min = u0;
  grid.v_min = v0;
  grid.u_scale = 1.0 / (u1 - u0);
  grid.v_scale = 1.0 / (v1 - v0);
  const double extent = std::max(u1 - u0, v1 - v0);

  // Each group's rectangle in the cell's plane, and its level.
  struct Placed {
    ConvexPolygon polygon;
    int level;
    std::uint32_t group;
    Entry entry;
  };
  const auto unbounded_entry = [&](std::uint32_t g) {
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    return Entry{-kInfinity, kInfinity, -kInfinity, kInfinity, g, float_above(group_bounds[g][0])};
  };
  std::vector<Placed> placed;
  for (std::size_t i = 0; i < group_count; ++i) {
    const std::uint32_t g = groups[i];
    Placed p{};
    p.group = g;
    p.polygon.corners = 4;
    const std::array<Vec3, 4> corners = groups_.rectangle_corners(g);
    bool projectable = true;
    for (int k = 0; k < 4 && projectable; ++k)
      projectable = project(corners[k], p.polygon.corner[k]);
    const auto include_bounds = [&] {
      grid.max_mu = std::max(grid.max_mu, group_bounds[g][0]);
      grid.max_g = std::max(grid.max_g, group_bounds[g][1]);
    };
    if (!projectable) {
      build.entries.push_back(unbounded_entry(g));
      include_bounds();
      continue;
    }
    double pu0 = 1e300, pu1 = -1e300, pv0 = 1e300, pv1 = -1e300;
    for (int k = 0; k < 4; ++k) {
      pu0 = std::min(pu0, p.polygon.corner[k][0]), pu1 = std::max(pu1, p.polygon.corner[k][0]);
      pv0 = std::min(pv0, p.polygon.corner[k][1]), pv1 = std::max(pv1, p.polygon.corner[k][1]);
    }
    if (pu1 < u0 || pu0 > u1 || pv1 < v0 || pv0 > v1) continue;  // misses the cell's rectangle
    include_bounds();
    // The corners project to the corners of the rectangle's image (the rectangle is the cone
    // of its corners, all in front of the cell's plane, and central projection keeps it
    // convex), so a star in the rectangle projects inside their box.
    p.entry = unbounded_entry(g);
    p.entry.u_low = float_below((pu0 - u0) * grid.u_scale - kEntryBoxPadding);
    p.entry.u_high = float_above((pu1 - u0) * grid.u_scale + kEntryBoxPadding);
    p.entry.v_low = float_below((pv0 - v0) * grid.v_scale - kEntryBoxPadding);
    p.entry.v_high = float_above((pv1 - v0) * grid.v_scale + kEntryBoxPadding);
    const double size = std::max(std::sqrt(p.polygon.area()), kPlanarPadding);
    p.level = std::clamp(static_cast<int>(std::floor(std::log2(extent / size))), 0, kMaxLevel);
    placed.push_back(p);
  }
  build.unprojected = static_cast<std::uint32_t>(build.entries.size());
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed& a, const Placed& b) { return a.level < b.level; });

  // (bin, group, placed index) of one level
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> binned;
  std::size_t next = 0;
  while (next < placed.size()) {
    const int level = placed[next].level;
    std::size_t end = next;
    while (end < placed.size() && placed[end].level == level) ++end;
    const std::uint32_t side = 1u << level;
    const PlanarGrid level_grid{u0, v0, (u1 - u0) / side, (v1 - v0) / side, side, side};
    binned.clear();
    for (std::size_t i = next; i < end; ++i)
      for_each_overlapped_bin(placed[i].polygon, level_grid, [&](std::uint32_t bin) {
        binned.emplace_back(bin, placed[i].group, static_cast<std::uint32_t>(i));
      });
    std::sort(binned.begin(), binned.end());
    const auto base_entry = static_cast<std::uint32_t>(build.entries.size());
    for (const auto& entry : binned) build.entries.push_back(placed[std::get<2>(entry)].entry);
    const double bins = static_cast<double>(side) * side;
    if (bins <=
        kBinsPerEntry * static_cast<double>(binned.size()) + 64) {  // dense: start, then ends
      build.levels.push_back({side, static_cast<std::uint32_t>(build.bin_offsets.size()), 0});
      build.bin_offsets.push_back(base_entry);
      std::size_t i = 0;
      for (std::uint32_t bin = 0; bin < side * side; ++bin) {
        while (i < binned.size() && std::get<0>(binned[i]) == bin) ++i;
        build.bin_offsets.push_back(base_entry + static_cast<std::uint32_t>(i));
      }
    } else {  // a hash table of the occupied bins, at most half full
      std::size_t occupied = 0;
      for (std::size_t i = 0; i < binned.size(); ++i)
        occupied += i == 0 || std::get<0>(binned[i]) != std::get<0>(binned[i - 1]);
      std::uint32_t size = 4;
      while (size < 2 * occupied) size *= 2;
      const auto first = static_cast<std::uint32_t>(build.buckets.size());
      build.buckets.resize(first + size, Bucket{0, 0, 0});
      build.levels.push_back({side, first, size - 1});
      for (std::size_t i = 0; i < binned.size();) {
        std::size_t j = i;
        while (j < binned.size() && std::get<0>(binned[j]) == std::get<0>(binned[i])) ++j;
        const std::uint32_t key = std::get<0>(binned[i]) + 1;
        std::uint32_t h = bucket_hash(key) & (size - 1);
        while (build.buckets[first + h].key != 0) h = (h + 1) & (size - 1);
        build.buckets[first + h] = {key, base_entry + static_cast<std::uint32_t>(i),
                                    base_entry + static_cast<std::uint32_t>(j)};
        i = j;
      }
    }
    next = end;
  }
  return build;
}

std::size_t TriangleIndex::slot_of(std::uint64_t cell) const {
  const auto found = std::lower_bound(cells_.begin(), cells_.end(), cell);
  if (found == cells_.end() || *found != cell) return kNoSlot;
  return static_cast<std::size_t>(found - cells_.begin());
}

}  // namespace starlens::produce
