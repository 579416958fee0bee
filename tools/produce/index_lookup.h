#pragma once
// The triangle index's search for one star (triangle_index.h) over the index's flat arrays, in
// host+device form: TriangleIndex runs it on its own arrays, the GPU backend's kernels on their
// device copies (gpu/gpu_hit_search.hip). The arithmetic is additions, multiplications,
// divisions and compares only, so with no fused multiply-adds the device finds the host's hits
// with the host's weights, bit for bit.
#include <cstddef>
#include <cstdint>

#include "group_grid.h"
#include "inline_dot.h"
#include "optics/host_device.h"
#include "source_triangle.h"

namespace starlens::produce {

// A catalogue cell's grid of the groups over it: a rectangle of the plane tangent at the
// cell's centre with levels of 1, 2, 4, ... bins a side (triangle_index.h).
struct CellGrid {
  Vec3 centre;  // of the cell; the tangent plane's origin
  Vec3 axis_u;
  Vec3 axis_v;
  double u_min;  // the rectangle [u_min, u_min + 1/u_scale] x [v_min, ...] holds the cell
  double v_min;
  double u_scale;
  double v_scale;
  std::uint32_t first_level;
  std::uint32_t end_level;
  std::uint32_t first_unprojected;  // into the entries
  std::uint32_t end_unprojected;
  double max_mu;  // largest magnification and g of the triangles a star of the cell can meet
  double max_g;
};
// A level is dense (bin offsets from `first`, mask 0) where it holds enough triangles for its
// side^2 bins, else a hash table of its occupied bins (buckets from `first`).
struct CellGridLevel {
  std::uint32_t side;  // bins a side, a power of two
  std::uint32_t first;
  std::uint32_t mask;  // table size - 1
};
// A group filed in a cell: the box of its grid rectangle in the cell's normalised plane
// coordinates (u, v above) and its largest mu, both rounded outward to float (a star outside
// the box cannot be in the rectangle). Unprojected entries hold the group only.
struct CellGridEntry {
  float u_low;
  float u_high;
  float v_low;
  float v_high;
  std::uint32_t group;
  float max_mu;
};
struct CellGridBucket {
  std::uint32_t key;  // bin + 1; 0: empty
  std::uint32_t first;
  std::uint32_t end;
};

// What a search reads: the index's arrays, on the host or on the device.
struct IndexArrays {
  const CellGrid* grids;  // by slot
  const CellGridLevel* levels;
  const std::uint32_t* bin_offsets;  // per dense level: its start, then each bin's end
  const CellGridBucket* buckets;     // the sparse levels' tables
  const CellGridEntry* entries;
  const double* group_max_mu;             // largest mu of each group's triangles
  const GroupGrids::Frame* group_frames;  // whose `entries` point into the same memory
  const std::uint32_t* group_bin_offsets;
  const SourceTriangle* sources;
};

// Clamped: a star a rounding outside its cell's rectangle uses the edge bins.
STARLENS_HOST_DEVICE inline std::uint32_t cell_bin_index(double position, std::uint32_t side) {
  const double scaled = position * side;
  if (!(scaled > 0.0)) return 0;
  return scaled >= side ? side - 1 : static_cast<std::uint32_t>(scaled);
}

// MurmurHash3's finaliser.
STARLENS_HOST_DEVICE inline std::uint32_t cell_bucket_hash(std::uint32_t key) {
  key ^= key >> 16;
  key *= 0x85ebca6bu;
  key ^= key >> 13;
  key *= 0xc2b2ae35u;
  return key ^ (key >> 16);
}

// Calls visit_group(group, may_hold) for the groups of the cell at `slot` whose grids may hold
// p: the unprojected ones, then level by level those of p's bin; may_hold is false where the
// entry's box does not hold p or its mu bound (rounded up) is below min_mu.
template <class VisitGroup>
STARLENS_HOST_DEVICE void for_each_cell_group(const IndexArrays& index, std::size_t slot,
                                              const Vec3& p, double min_mu,
                                              VisitGroup&& visit_group) {
  const CellGrid& grid = index.grids[slot];
  for (std::uint32_t e = grid.first_unprojected; e < grid.end_unprojected; ++e)
    visit_group(index.entries[e].group, true);
  const double depth = inline_dot(p, grid.centre);
  if (!(depth > 0.0)) return;
  const double inverse_depth = 1.0 / depth;
  // Position in the grid's rectangle, in units of its sides.
  const double u = (inline_dot(p, grid.axis_u) * inverse_depth - grid.u_min) * grid.u_scale;
  const double v = (inline_dot(p, grid.axis_v) * inverse_depth - grid.v_min) * grid.v_scale;
  // A bin's groups whose box (or bound on mu) already rules the star out are passed over
  // without touching their grids.
  const auto test = [&](std::uint32_t first, std::uint32_t end) {
    for (std::uint32_t e = first; e < end; ++e) {
      const CellGridEntry& entry = index.entries[e];
      visit_group(entry.group, (entry.max_mu >= min_mu) & (u >= entry.u_low) & (u <= entry.u_high) &
                                   (v >= entry.v_low) & (v <= entry.v_high));
    }
  };
  for (std::uint32_t l = grid.first_level; l < grid.end_level; ++l) {
    const CellGridLevel& level = index.levels[l];
    const std::uint32_t bin =
        cell_bin_index(v, level.side) * level.side + cell_bin_index(u, level.side);
    if (level.mask == 0) {
      test(index.bin_offsets[level.first + bin], index.bin_offsets[level.first + bin + 1]);
      continue;
    }
    // Sparse level: open addressing over its occupied bins.
    const std::uint32_t key = bin + 1;
    for (std::uint32_t h = cell_bucket_hash(key) & level.mask;; h = (h + 1) & level.mask) {
      const CellGridBucket& bucket = index.buckets[level.first + h];
      if (bucket.key == key) test(bucket.first, bucket.end);
      if (bucket.key == key || bucket.key == 0) break;
    }
  }
}

// Calls visit(triangle, weights) for every triangle whose source triangle contains the unit
// vector p, for a star filed under the cell at `slot`, in the order of the cell's groups, then
// of their bins' entries; groups whose triangles all have mu below min_mu are passed over.
template <class Visit>
STARLENS_HOST_DEVICE void for_each_star_hit(const IndexArrays& index, std::size_t slot,
                                            const Vec3& p, double min_mu, Visit&& visit) {
  for_each_cell_group(index, slot, p, min_mu, [&](std::uint32_t group, bool may_hold) {
    if (!may_hold || index.group_max_mu[group] < min_mu) return;
    GroupGrids::BinPlace place;
    if (!GroupGrids::find_bin_in(index.group_frames[group], p, place)) return;
    for (std::uint32_t e = index.group_bin_offsets[place.bin];
         e < index.group_bin_offsets[place.bin + 1]; ++e) {
      const GroupGridEntry& entry = place.entries[e];
      if (!GroupGrids::holds(entry, place)) continue;
      Barycentric weights;
      if (index.sources[entry.triangle].locate(p, weights)) visit(entry.triangle, weights);
    }
  });
}

}  // namespace starlens::produce
