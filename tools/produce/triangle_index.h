#pragma once
// The triangle index of the producer (DESIGN section 5): which lens-map triangles a
// catalogue star can fall in, found without testing the star against every triangle.
//
// Two levels. Triangles are grouped into patches: image tiles whose triangles' source
// directions fit in a small cap (tiles are split, quadtree-fashion, until they do, which near
// critical curves goes down to single triangles). Each patch's cap is queried once against
// the catalogue's HEALPix NESTED cells (HEALPix C++ query_disc_inclusive, conservative):
// that cell -> patches table decides which cells the producer reads. Inside a patch the
// triangles' source triangles are projected gnomonically onto the plane tangent at the cap's
// centre, where great circles are straight lines, and binned on a uniform grid by their
// bounding boxes; a star is projected the same way and tested exactly (source_triangle.h)
// against the few triangles of its bin. Every triangle is in exactly one patch and a star in
// one bin of a patch, so a star meets each triangle at most once.
#include <cstdint>
#include <vector>

#include "image_triangle.h"
#include "lens_mesh.h"
#include "source_triangle.h"

namespace starlens::produce {

struct IndexSettings {
  double tile_pixels = 64;       // side of the first image tiles
  double max_cap_radius = 0.07;  // rad (4 degrees): tiles with wider source caps are split
};

struct PatchDraft;  // a group of triangles on its way to becoming a patch (triangle_index.cpp)

struct IndexStatistics {
  std::uint64_t triangles_indexed = 0;
  std::uint64_t triangles_degenerate = 0;  // source directions on one great circle
  std::uint64_t triangles_too_large = 0;   // source cap wider than a hemisphere's safe part
  std::uint64_t patches = 0;
  std::uint64_t bin_entries = 0;
  std::uint64_t cell_patch_pairs = 0;
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

  const SourceTriangle& source(std::uint32_t triangle) const { return sources_[triangle]; }
  const ImageTriangle& image(std::uint32_t triangle) const { return images_[triangle]; }
  std::size_t triangle_count() const { return sources_.size(); }
  const IndexStatistics& statistics() const { return statistics_; }

  // Calls visit(triangle, weights) for every triangle whose source triangle contains the
  // unit vector p, for a star filed under the cell at `slot`.
  template <class Visit>
  void for_each_hit(std::size_t slot, const Vec3& p, Visit&& visit) const {
    for (std::uint32_t k = cell_patch_offsets_[slot]; k < cell_patch_offsets_[slot + 1]; ++k) {
      const Patch& patch = patches_[cell_patches_[k]];
      const double depth = dot(p, patch.centre);
      if (depth < patch.cos_radius) continue;
      const double u = dot(p, patch.axis_u) / depth;
      const double v = dot(p, patch.axis_v) / depth;
      const double column = (u - patch.u_min) * patch.inverse_bin;
      const double row = (v - patch.v_min) * patch.inverse_bin;
      if (!(column >= 0.0 && row >= 0.0 && column < patch.columns && row < patch.rows)) continue;
      const std::uint32_t bin = patch.first_bin + static_cast<std::uint32_t>(row) * patch.columns +
                                static_cast<std::uint32_t>(column);
      for (std::uint32_t e = bin_offsets_[bin]; e < bin_offsets_[bin + 1]; ++e) {
        const std::uint32_t triangle = bin_triangles_[e];
        Barycentric weights;
        if (sources_[triangle].locate(p, weights)) visit(triangle, weights);
      }
    }
  }

 private:
  struct Patch {
    Vec3 centre;
    Vec3 axis_u;
    Vec3 axis_v;
    double cos_radius;
    double u_min;
    double v_min;
    double inverse_bin;
    std::uint32_t columns;
    std::uint32_t rows;
    std::uint32_t first_bin;  // into bin_offsets_
  };
  void build_patches(const LensMesh& mesh, const IndexSettings& settings,
                     std::vector<PatchDraft>& drafts);
  void add_patch(const LensMesh& mesh, const PatchDraft& draft);
  void build_cell_table(const std::vector<double>& cap_radii);

  int order_;
  std::vector<SourceTriangle> sources_;
  std::vector<ImageTriangle> images_;
  std::vector<Patch> patches_;
  std::vector<std::uint32_t> bin_offsets_;
  std::vector<std::uint32_t> bin_triangles_;
  std::vector<std::uint64_t> cells_;
  std::vector<std::uint32_t> cell_patch_offsets_;
  std::vector<std::uint32_t> cell_patches_;
  IndexStatistics statistics_;
};

}  // namespace starlens::produce
