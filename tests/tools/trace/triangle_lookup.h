#pragma once
// The kept triangle of a traced map under an image point: triangles filed by the square cells
// (of `cell_px` pixels) their pixel bounding boxes touch, then tested exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mesh_fixture.h"

namespace starlens::test {

class TriangleLookup {
 public:
  TriangleLookup(const TracedMap& map, double width, double height, double cell_px)
      : map_(map),
        cell_px_(cell_px),
        columns_(static_cast<int>(width / cell_px) + 2),
        rows_(static_cast<int>(height / cell_px) + 2),
        cells_(columns_ * rows_) {
    for (std::size_t t = 0; t < map.triangles.size(); ++t) {
      double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
      for (auto v : map.triangles[t].v) {
        x0 = std::min(x0, map.vertices[v].x), x1 = std::max(x1, map.vertices[v].x);
        y0 = std::min(y0, map.vertices[v].y), y1 = std::max(y1, map.vertices[v].y);
      }
      for (int j = cell(y0, rows_); j <= cell(y1, rows_); ++j)
        for (int i = cell(x0, columns_); i <= cell(x1, columns_); ++i)
          cells_[j * columns_ + i].push_back(static_cast<std::uint32_t>(t));
    }
  }

  // The kept triangle containing (x, y) (its edges included), or -1.
  long find(double x, double y) const {
    for (std::uint32_t t : cells_[cell(y, rows_) * columns_ + cell(x, columns_)]) {
      const auto& v = map_.triangles[t].v;
      const auto& a = map_.vertices[v[0]];
      const auto& b = map_.vertices[v[1]];
      const auto& c = map_.vertices[v[2]];
      const double wa = (b.x - x) * (c.y - y) - (c.x - x) * (b.y - y);
      const double wb = (c.x - x) * (a.y - y) - (a.x - x) * (c.y - y);
      const double wc = (a.x - x) * (b.y - y) - (b.x - x) * (a.y - y);
      if (wa >= 0 && wb >= 0 && wc >= 0) return t;
    }
    return -1;
  }

 private:
  int cell(double v, int count) const {
    return std::clamp(static_cast<int>(std::floor(v / cell_px_)), 0, count - 1);
  }
  const TracedMap& map_;
  double cell_px_;
  int columns_, rows_;
  std::vector<std::vector<std::uint32_t>> cells_;
};

}  // namespace starlens::test
