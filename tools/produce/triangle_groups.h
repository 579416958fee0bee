#pragma once
// Groups of lens-map triangles whose source triangles fit in small caps: image tiles, split
// quadtree-fashion until each group's source cap is small enough (near critical curves, where
// a small image area maps to a long arc of sky, that goes down to single triangles). A cap is
// what the producer queries against the catalogue's HEALPix cells (triangle_index.h), so
// grouping keeps the number of queries far below the number of triangles; each group also has
// its own grid (group_grid.h). (Splitting groups further, into pieces that fill their caps
// well, was measured: more build time and no faster lookups.)
#include <cstdint>
#include <vector>

#include "lens_mesh.h"

namespace starlens::produce {

// Every source vertex of the group lies within `radius` of `centre`.
struct SourceCap {
  Vec3 centre;
  double radius;  // rad
};

struct TriangleGroup {
  std::vector<std::uint32_t> triangles;  // ascending within an image tile
  SourceCap cap;
};

// Groups the triangles with usable[t] != 0. Deterministic: groups come tile by tile (rows of
// tiles_pixels squares, by the triangles' image centroids), quadrants in a fixed order.
std::vector<TriangleGroup> group_triangles(const LensMesh& mesh,
                                           const std::vector<std::uint8_t>& usable,
                                           double tile_pixels, double max_cap_radius);

}  // namespace starlens::produce
