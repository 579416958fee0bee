#include "triangle_groups.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace starlens::produce {
namespace {

constexpr int kMaxSplitDepth = 40;

double chord(const Vec3& a, const Vec3& b) {
  const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
  return std::sqrt(x * x + y * y + z * z);
}

// Centred on the mean of the source vertices; the radius is the largest vertex distance.
SourceCap cap_of(const LensMesh& mesh, const std::vector<std::uint32_t>& triangles) {
  Vec3 sum{0, 0, 0};
  for (const std::uint32_t t : triangles)
    for (const std::uint32_t v : mesh.triangles[t])
      for (int c = 0; c < 3; ++c) sum[c] += mesh.direction[v][c];
  if (!(norm(sum) > 1e-9 * static_cast<double>(triangles.size())))
    return {{1, 0, 0}, std::numbers::pi};
  const Vec3 centre = normalized(sum);
  double longest = 0;
  for (const std::uint32_t t : triangles)
    for (const std::uint32_t v : mesh.triangles[t])
      longest = std::max(longest, chord(centre, mesh.direction[v]));
  return {centre, 2 * std::asin(std::min(1.0, 0.5 * longest))};
}

// Image quadrants this many levels below a tile (4 px for 64 px tiles) that still hold a cap
// too wide are split on the sky instead: in the photon ring's band next to the shadow,
// neighbouring image triangles see sources far apart (the sky winds round there), and image
// quadrants would part them down to single triangles, each a group of its own.
constexpr int kImageSplitDepth = 4;

// Quadtree splitting in the image plane until the cap is small enough.
struct Splitter {
  const LensMesh& mesh;
  const std::vector<std::array<double, 2>>& centroids;
  double max_radius;

  // Halves at the median of the source centroids' coordinate of widest spread (a k-d split on
  // the sky), until the cap is small enough.
  void split_on_sky(std::vector<std::uint32_t> triangles, int depth,
                    std::vector<TriangleGroup>& out) const {
    if (triangles.empty()) return;
    const SourceCap cap = cap_of(mesh, triangles);
    if (triangles.size() == 1 || cap.radius <= max_radius) {
      out.push_back({std::move(triangles), cap});
      return;
    }
    const auto centre = [&](std::uint32_t t, int axis) {
      const auto& v = mesh.triangles[t];
      return mesh.direction[v[0]][axis] + mesh.direction[v[1]][axis] + mesh.direction[v[2]][axis];
    };
    int widest = 0;
    double widest_range = -1;
    for (int axis = 0; axis < 3; ++axis) {
      double low = 1e300, high = -1e300;
      for (const std::uint32_t t : triangles) {
        const double c = centre(t, axis);
        low = std::min(low, c), high = std::max(high, c);
      }
      if (high - low > widest_range) widest = axis, widest_range = high - low;
    }
    const auto middle = triangles.begin() + static_cast<std::ptrdiff_t>(triangles.size() / 2);
    // Ties broken by number, so the groups do not depend on the sort's implementation.
    std::nth_element(triangles.begin(), middle, triangles.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       const double ca = centre(a, widest), cb = centre(b, widest);
                       return ca < cb || (ca == cb && a < b);
                     });
    std::vector<std::uint32_t> second(middle, triangles.end());
    triangles.erase(middle, triangles.end());
    split_on_sky(std::move(triangles), depth + 1, out);
    split_on_sky(std::move(second), depth + 1, out);
  }

  void split(std::vector<std::uint32_t> triangles, double x0, double y0, double x1, double y1,
             int depth, std::vector<TriangleGroup>& out) const {
    if (triangles.empty()) return;
    const SourceCap cap = cap_of(mesh, triangles);
    if (triangles.size() == 1 || cap.radius <= max_radius) {
      out.push_back({std::move(triangles), cap});
      return;
    }
    if (depth >= kMaxSplitDepth) {  // coincident centroids: halve the list instead
      const auto middle = triangles.begin() + static_cast<std::ptrdiff_t>(triangles.size() / 2);
      std::vector<std::uint32_t> second(middle, triangles.end());
      triangles.erase(middle, triangles.end());
      split(std::move(triangles), x0, y0, x1, y1, depth, out);
      split(std::move(second), x0, y0, x1, y1, depth, out);
      return;
    }
    if (depth >= kImageSplitDepth) return split_on_sky(std::move(triangles), depth, out);
    const double xm = 0.5 * (x0 + x1);
    const double ym = 0.5 * (y0 + y1);
    std::vector<std::uint32_t> quadrant[4];
    for (const std::uint32_t t : triangles)
      quadrant[(centroids[t][0] >= xm ? 1 : 0) + (centroids[t][1] >= ym ? 2 : 0)].push_back(t);
    split(std::move(quadrant[0]), x0, y0, xm, ym, depth + 1, out);
    split(std::move(quadrant[1]), xm, y0, x1, ym, depth + 1, out);
    split(std::move(quadrant[2]), x0, ym, xm, y1, depth + 1, out);
    split(std::move(quadrant[3]), xm, ym, x1, y1, depth + 1, out);
  }
};

}  // namespace

std::vector<TriangleGroup> group_triangles(const LensMesh& mesh,
                                           const std::vector<std::uint8_t>& usable,
                                           double tile_pixels, double max_cap_radius) {
  const auto tiles_x = static_cast<std::size_t>(std::max(1.0, std::ceil(mesh.width / tile_pixels)));
  const auto tiles_y =
      static_cast<std::size_t>(std::max(1.0, std::ceil(mesh.height / tile_pixels)));
  std::vector<std::array<double, 2>> centroids(mesh.triangle_count());
  std::vector<std::vector<std::uint32_t>> tiles(tiles_x * tiles_y);
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    if (!usable[t]) continue;
    const auto& v = mesh.triangles[t];
    for (int c = 0; c < 2; ++c)
      centroids[t][c] = (mesh.xy[v[0]][c] + mesh.xy[v[1]][c] + mesh.xy[v[2]][c]) / 3.0;
    const auto tx =
        static_cast<std::size_t>(std::clamp(centroids[t][0] / tile_pixels, 0.0, tiles_x - 1.0));
    const auto ty =
        static_cast<std::size_t>(std::clamp(centroids[t][1] / tile_pixels, 0.0, tiles_y - 1.0));
    tiles[ty * tiles_x + tx].push_back(t);
  }
  const Splitter splitter{mesh, centroids, max_cap_radius};
  std::vector<std::vector<TriangleGroup>> per_tile(tiles.size());
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const double x0 = static_cast<double>(i % tiles_x) * tile_pixels;
    const double y0 = static_cast<double>(i / tiles_x) * tile_pixels;
    splitter.split(std::move(tiles[i]), x0, y0, x0 + tile_pixels, y0 + tile_pixels, 0, per_tile[i]);
  }
  std::vector<TriangleGroup> groups;
  for (auto& tile_groups : per_tile)
    for (auto& group : tile_groups) groups.push_back(std::move(group));
  return groups;
}

}  // namespace starlens::produce
