#pragma once
// The triangle index of the producer (docs/design.md section 5): the catalogue cells each lens-map
// triangle may overlap, and for a star of a cell the few triangles it can fall in.
//
// Cells: triangles are grouped into small source caps (triangle_groups.h) and each cap is
// queried against the catalogue's HEALPix NESTED cells (HEALPix C++ query_disc_inclusive,
// conservative); the cells found are the ones the producer reads.
//
// Stars: each group has its own grid of its triangles (group_grid.h), and each cell a grid of
// the groups over it, on the plane tangent to the sky at the cell's centre. Gnomonic
// projection maps great circles to straight lines, so a group's grid rectangle projects to a
// convex quadrilateral, entered in every cell-grid bin it overlaps. Groups of very different
// sizes meet in one cell, so the cell grid has levels of 1, 2, 4, ... bins a side and each
// group goes to the level whose bins match its size. A star is projected into its cell's grid,
// then into the grids of the groups found there, and tested exactly (source_triangle.h)
// against the triangles of its bins. A group sits on one level of a cell and a triangle in one
// group, so a star meets each triangle at most once.
#include <cstdint>
#include <vector>

#include "core/stopwatch.h"
#include "group_grid.h"
#include "image_triangle.h"
#include "index_lookup.h"
#include "inline_dot.h"
#include "lens_mesh.h"
#include "source_triangle.h"
#include "triangle_groups.h"

namespace starlens::produce {

struct IndexSettings {
  double tile_pixels = 64;       // side of the first image tiles of the groups
  double max_cap_radius = 0.07;  // rad (4 degrees): groups with wider source caps are split
  bool quiet = true;             // no progress bars for the cell query and the cell grids
};

struct IndexStatistics {
  std::uint64_t triangles_indexed = 0;
  std::uint64_t triangles_degenerate = 0;  // source directions on one great circle
  std::uint64_t triangles_too_large = 0;   // source triangle wider than a safe hemisphere part
  // With the photon ring: the mesh's triangles of orders >= PhotonRing::kFirstOrder, left out
  // (their images come from the point lens).
  std::uint64_t triangles_of_point_lens_orders = 0;
  std::uint64_t groups = 0;
  std::uint64_t cell_group_pairs = 0;
  std::uint64_t cell_grid_entries = 0;    // (cell, level, bin, group)
  std::uint64_t cell_grid_bins = 0;       // dense bins and hash buckets
  std::uint64_t unprojected_entries = 0;  // groups tested against every star of their cell
  std::uint64_t group_grid_entries = 0;   // (group, bin, triangle)
  std::uint64_t group_grid_bins = 0;
  PhaseTimes build_seconds;  // triangles, grouping, group_grids, cell_query, cell_grids
};

class TriangleIndex {
 public:
  static constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);

  TriangleIndex(const LensMesh& mesh, int catalogue_order, const IndexSettings& settings = {});

  int catalogue_order() const { return order_; }
  // Catalogue cells that at least one indexed triangle may overlap, ascending.
  const std::vector<std::uint64_t>& cells() const { return cells_; }
  // Position of `cell` in cells(), or kNoSlot.
  std::size_t slot_of(std::uint64_t cell) const;

  // Bounds on what any image of a star of the cell at `slot` can have: the largest mu (with a
  // point lens, the largest bound of the point magnification) and g of the triangles its grid
  // holds (a star with no visible image at those is skipped).
  double max_mu(std::size_t slot) const { return grids_[slot].max_mu; }
  double max_g(std::size_t slot) const { return grids_[slot].max_g; }
  // With the photon ring: the bound of mu over the cell's ring images of orders above
  // PhotonRing::kFirstOrder (photon_ring.h), for stars whose first order is all that can be
  // seen.
  double ring_beyond_first_max_mu(std::size_t slot) const {
    return ring_beyond_first_max_mu_[slot];
  }

  // Triangles are numbered group by group (their candidates then lie together in memory);
  // the lens mesh's number of the index's triangle t:
  std::uint32_t mesh_triangle(std::uint32_t triangle) const { return mesh_triangle_[triangle]; }

  const SourceTriangle& source(std::uint32_t triangle) const { return sources_[triangle]; }
  // Where a star with these source weights in `triangle` appears, and the triangle's mu.
  ImagePoint map(std::uint32_t triangle, const Barycentric& weights) const {
    return images_[triangle].map(image_vertices_, weights);
  }
  double mu(std::uint32_t triangle) const { return images_[triangle].mu; }
  // The vertices' angles from the hole interpolated to the star (point lens only).
  double psi(std::uint32_t triangle, const Barycentric& weights) const {
    return images_[triangle].psi(image_vertices_, weights);
  }
  std::uint8_t image_order(std::uint32_t triangle) const { return images_[triangle].order; }
  // +1, or -1 where the lens map's triangle mirrors its source.
  std::int8_t parity(std::uint32_t triangle) const { return images_[triangle].parity; }
  // mu, or with a point lens the bound of the point magnification over the triangle.
  double max_mu_of(std::uint32_t triangle) const { return images_[triangle].max_mu; }
  // The mesh's point lens (null unless Schwarzschild): images get its point magnification.
  const schwarzschild::PointLens* point_lens() const { return point_lens_.get(); }
  // The photon ring's images (null unless a whole Schwarzschild map): the mesh's images of
  // order PhotonRing::kFirstOrder and above give way to them.
  const PhotonRing* photon_ring() const { return photon_ring_.get(); }
  // The traced rays of a Kerr map's images (null otherwise): images get their point values.
  const TracedImages* traced_images() const { return traced_images_.get(); }
  // The camera's motion: with it the images get point values of mu and g in flat space too.
  const ObserverMotion& motion() const { return motion_; }
  std::size_t triangle_count() const { return sources_.size(); }
  const IndexStatistics& statistics() const { return statistics_; }

  // Calls visit(triangle, weights) (the index's numbering) for every triangle whose source
  // triangle contains the unit vector p, for a star filed under the cell at `slot`; groups
  // whose triangles all have mu below min_mu (images too faint to matter) are passed over.
  template <class Visit>
  void for_each_hit(std::size_t slot, const Vec3& p, Visit&& visit, double min_mu = 0.0) const {
    for_each_star_hit(arrays(), slot, p, min_mu, visit);
  }

  // The arrays the search reads (index_lookup.h), valid while the index lives.
  IndexArrays arrays() const {
    return {grids_.data(),           levels_.data(),
            bin_offsets_.data(),     buckets_.data(),
            entries_.data(),         group_max_mu_.data(),
            groups_.frames().data(), groups_.bin_offsets().data(),
            sources_.data()};
  }
  // Their lengths, and the group grids (whose entries the frames point into), for a copy.
  struct ArraySizes {
    std::size_t grids, levels, bin_offsets, buckets, entries, groups, group_bin_offsets, sources;
  };
  ArraySizes array_sizes() const {
    return {grids_.size(),   levels_.size(),       bin_offsets_.size(),          buckets_.size(),
            entries_.size(), group_max_mu_.size(), groups_.bin_offsets().size(), sources_.size()};
  }
  const GroupGrids& groups() const { return groups_; }

  // Per-worker buffers of for_each_hit_batch.
  struct BatchScratch {
    struct Pair {  // a star and a group over it
      std::uint32_t star;
      std::uint32_t group;
    };
    struct Place {  // a star and its bin in a group's grid
      std::uint32_t star;
      GroupGrids::BinPlace place;
    };
    struct Candidate {
      std::uint32_t star;
      std::uint32_t triangle;
    };
    std::vector<Pair> pairs;
    std::vector<Place> places;
    std::vector<Candidate> candidates;
  };

  // for_each_hit for `count` stars of the cell at `slot` at once: calls visit(star, triangle,
  // weights) (star: 0 .. count-1) for the same hits in the same order as for_each_hit star by
  // star, but goes step by step over all the stars (the cell's groups, the groups' bins, the
  // bins' triangles, the exact tests), asking for each step's memory a step ahead, so that the
  // cache misses of different stars overlap instead of following one another.
  template <class Visit>
  void for_each_hit_batch(std::size_t slot, const Vec3* points, const double* min_mu,
                          std::size_t count, BatchScratch& scratch, Visit&& visit) const {
    auto& pairs = scratch.pairs;
    auto& places = scratch.places;
    auto& candidates = scratch.candidates;
    // The cell's groups over each star: every entry is written, those that pass are kept
    // (no branch on the box test, which goes either way).
    std::size_t pair_count = 0;
    for (std::uint32_t s = 0; s < count; ++s)
      for_each_group(slot, points[s], min_mu[s], [&](std::uint32_t group, bool may_hold) {
        if (pair_count == pairs.size()) pairs.resize(2 * pair_count + 256);
        pairs[pair_count] = {s, group};
        pair_count += may_hold;
      });
    for (std::size_t i = 0; i < pair_count; ++i) {
      groups_.prefetch_frame(pairs[i].group);
      __builtin_prefetch(&group_max_mu_[pairs[i].group]);
    }
    places.clear();
    for (std::size_t i = 0; i < pair_count; ++i) {
      const auto [star, group] = pairs[i];
      if (group_max_mu_[group] < min_mu[star]) continue;
      GroupGrids::BinPlace place;
      if (!groups_.find_bin(group, points[star], place)) continue;
      groups_.prefetch_bin(place.bin);
      places.push_back({star, place});
    }
    for (const auto& [star, place] : places) groups_.prefetch_bin_entries(place);
    std::size_t candidate_count = 0;
    for (const auto& [star, place] : places) {
      const GroupGrids::EntryRange range = groups_.bin_entries(place);
      const auto size = static_cast<std::size_t>(range.end - range.first);
      if (candidate_count + size > candidates.size())
        candidates.resize(2 * (candidate_count + size) + 256);
      for (const GroupGrids::Entry* entry = range.first; entry != range.end; ++entry) {
        candidates[candidate_count] = {star, entry->triangle};
        candidate_count += GroupGrids::holds(*entry, place);
      }
    }
    for (std::size_t i = 0; i < candidate_count; ++i) {
      const char* address = reinterpret_cast<const char*>(&sources_[candidates[i].triangle]);
      __builtin_prefetch(address);
      __builtin_prefetch(address + sizeof(SourceTriangle) - 1);
    }
    for (std::size_t i = 0; i < candidate_count; ++i) {
      const auto [star, triangle] = candidates[i];
      Barycentric weights;
      if (sources_[triangle].locate(points[star], weights)) visit(star, triangle, weights);
    }
  }

  // Hints for mapping a hit soon: the image triangle (and its lens-map number), then (once
  // that is loaded) its vertices.
  void prefetch_image(std::uint32_t triangle) const {
    __builtin_prefetch(&images_[triangle]);
    __builtin_prefetch(&mesh_triangle_[triangle]);
  }
  void prefetch_image_vertices(std::uint32_t triangle) const {
    for (const std::uint32_t v : images_[triangle].vertex) __builtin_prefetch(&image_vertices_[v]);
  }

 private:
  template <class VisitGroup>
  void for_each_group(std::size_t slot, const Vec3& p, double min_mu,
                      VisitGroup&& visit_group) const {
    for_each_cell_group(arrays(), slot, p, min_mu, visit_group);
  }

  using GridLevel = CellGridLevel;
  using Entry = CellGridEntry;
  using Bucket = CellGridBucket;
  static std::uint32_t bucket_hash(std::uint32_t key) { return cell_bucket_hash(key); }
  struct CellBuild;

  // Renumbers the triangles in the groups' order (unindexed ones last).
  void number_by_group(const LensMesh& mesh, const std::vector<TriangleGroup>& groups);
  CellBuild build_cell(std::uint64_t cell, const std::uint32_t* groups, std::size_t group_count,
                       const std::vector<std::array<double, 2>>& group_bounds) const;

  int order_;
  std::shared_ptr<const schwarzschild::PointLens> point_lens_;
  std::shared_ptr<const PhotonRing> photon_ring_;
  std::shared_ptr<const TracedImages> traced_images_;
  std::vector<double> ring_beyond_first_max_mu_;  // by slot, with the photon ring
  ObserverMotion motion_;
  std::vector<SourceTriangle> sources_;
  std::vector<ImageTriangle> images_;
  std::vector<ImageVertex> image_vertices_;
  std::vector<std::uint32_t> mesh_triangle_;  // of each index triangle
  std::vector<double> group_max_mu_;          // largest mu of each group's triangles
  std::vector<std::uint64_t> cells_;
  std::vector<CellGrid> grids_;
  std::vector<GridLevel> levels_;
  std::vector<std::uint32_t>
      bin_offsets_;              // per dense level: its start, then each bin's end (into entries_)
  std::vector<Bucket> buckets_;  // the sparse levels' tables
  std::vector<Entry> entries_;
  GroupGrids groups_;
  IndexStatistics statistics_;
};

}  // namespace starlens::produce
