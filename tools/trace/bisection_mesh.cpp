#include "bisection_mesh.h"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "ordered_parallel.h"
#include "prefetch.h"

namespace starlens {
namespace {

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t{a} << 32) | b : (std::uint64_t{b} << 32) | a;
}

}  // namespace

BisectionMesh::BisectionMesh(double width, double height, double step) {
  const auto columns = static_cast<std::uint32_t>(std::max(1.0, std::ceil(width / step)));
  const auto rows = static_cast<std::uint32_t>(std::max(1.0, std::ceil(height / step)));
  for (std::uint32_t j = 0; j <= rows; ++j)
    for (std::uint32_t i = 0; i <= columns; ++i) add_vertex(i * step, j * step);
  const auto at = [&](std::uint32_t i, std::uint32_t j) { return j * (columns + 1) + i; };
  for (std::uint32_t j = 0; j < rows; ++j) {
    for (std::uint32_t i = 0; i < columns; ++i) {
      const std::uint32_t tl = at(i, j), tr = at(i + 1, j), bl = at(i, j + 1),
                          br = at(i + 1, j + 1);
      // Diagonals alternate (a "union jack" grid) so that the mesh has no preferred direction.
      if ((i + j) % 2 == 0) {
        add_triangle(tr, br, tl, 0);
        add_triangle(bl, tl, br, 0);
      } else {
        add_triangle(tl, tr, bl, 0);
        add_triangle(br, bl, tr, 0);
      }
    }
  }
  link_base_neighbours(columns, rows);
}

std::uint32_t BisectionMesh::add_vertex(double x, double y) {
  if (points_.size() >= UINT32_MAX)
    throw std::length_error("mesh has more vertices than uint32 indices");
  points_.push_back({x, y});
  return static_cast<std::uint32_t>(points_.size() - 1);
}

std::int32_t BisectionMesh::add_triangle(std::uint32_t v0, std::uint32_t v1, std::uint32_t v2,
                                         std::uint8_t depth, std::uint32_t outer_midpoint) {
  if (triangles_.size() >= INT32_MAX) throw std::length_error("mesh has too many triangles");
  triangles_.resize(triangles_.size() + 1);
  const auto t = static_cast<std::int32_t>(triangles_.size() - 1);
  set_triangle(t, {v0, v1, v2}, depth, outer_midpoint);
  return t;
}

void BisectionMesh::set_triangle(std::int32_t t, const std::array<std::uint32_t, 3>& v,
                                 std::uint8_t depth, std::uint32_t outer_midpoint) {
  MeshTriangle& triangle = triangles_[t];
  triangle.v = v;
  triangle.depth = depth;
  triangle.midpoint = {outer_midpoint, kNoVertex, kNoVertex};
  triangle.neighbour = {-1, -1, -1};
  triangle.fresh = true;
}

void BisectionMesh::link_base_neighbours(std::uint32_t columns, std::uint32_t rows) {
  // Triangles 2c and 2c + 1 fill cell c = j * columns + i: an edge of a triangle is shared
  // with the other triangle of its cell or with one of the four side neighbours' (each edge
  // has at most one triangle across it, so this finds what any search would).
  const auto count = static_cast<std::int64_t>(triangles_.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < count; ++t) {
    const auto cell = static_cast<std::uint32_t>(t / 2);
    const std::uint32_t i = cell % columns, j = cell / columns;
    std::int64_t candidates[5] = {t ^ 1, -1, -1, -1, -1};
    if (i > 0) candidates[1] = t - 2;
    if (i + 1 < columns) candidates[2] = t + 2;
    if (j > 0) candidates[3] = t - 2 * static_cast<std::int64_t>(columns);
    if (j + 1 < rows) candidates[4] = t + 2 * static_cast<std::int64_t>(columns);
    MeshTriangle& triangle = triangles_[t];
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t key = edge_key(triangle.v[(k + 1) % 3], triangle.v[(k + 2) % 3]);
      for (const std::int64_t first : candidates) {
        if (first < 0) continue;
        // The candidate cell's two triangles (for t ^ 1 just that one).
        for (std::int64_t u = first & ~std::int64_t{1}; u <= (first | 1); ++u) {
          if (u == t) continue;
          const auto& w = triangles_[u].v;
          for (int m = 0; m < 3; ++m)
            if (edge_key(w[(m + 1) % 3], w[(m + 2) % 3]) == key)
              triangle.neighbour[k] = static_cast<std::int32_t>(u);
        }
      }
    }
  }
}

std::uint32_t BisectionMesh::midpoint(std::int32_t t, int k) {
  if (triangles_[t].midpoint[k] != kNoVertex) return triangles_[t].midpoint[k];
  const std::uint32_t m = add_vertex(0, 0);
  set_midpoint(t, k, m);
  return m;
}

void BisectionMesh::set_midpoint(std::int32_t t, int k, std::uint32_t m) {
  MeshTriangle& triangle = triangles_[t];
  const std::uint32_t a = triangle.v[(k + 1) % 3], b = triangle.v[(k + 2) % 3];
  points_[m] = {(points_[a].x + points_[b].x) / 2, (points_[a].y + points_[b].y) / 2};
  triangle.midpoint[k] = m;
  const std::int32_t other = triangle.neighbour[k];
  if (other >= 0)
    for (int j = 0; j < 3; ++j)
      if (triangles_[other].neighbour[j] == t) triangles_[other].midpoint[j] = m;
}

unsigned BisectionMesh::edges_to_split(std::int32_t t, std::int32_t rank) const {
  const MeshTriangle& triangle = triangles_[t];
  unsigned edges = 0;
  for (int k = 0; k < 3; ++k) {
    if (triangle.midpoint[k] != kNoVertex) continue;
    const std::int32_t other = triangle.neighbour[k];
    const std::int32_t other_rank = other >= 0 ? rank_[other] : -1;
    if (other_rank < 0 || other_rank > rank) edges |= 1u << k;
  }
  return edges;
}

void BisectionMesh::create_midpoints(const std::vector<std::int32_t>& leaves) {
  const auto count = static_cast<std::int64_t>(leaves.size());
  if (count == 0) return;
  if (count >= INT32_MAX) throw std::length_error("too many leaves for create_midpoints");
  rank_.resize(triangles_.size(), -1);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) rank_[leaves[i]] = static_cast<std::int32_t>(i);
  FillVector<std::uint8_t> edges(leaves.size());   // both written in full below
  FillVector<std::uint32_t> first(leaves.size());  // new vertices per leaf, then their offset
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    prefetch_ahead(
        i, count, [&](std::int64_t j) { prefetch(triangles_[leaves[j]]); },
        [&](std::int64_t j) {
          for (std::int32_t n : triangles_[leaves[j]].neighbour)
            if (n >= 0) prefetch(rank_[n]);
        });
    edges[i] = static_cast<std::uint8_t>(edges_to_split(leaves[i], static_cast<std::int32_t>(i)));
    first[i] = std::popcount(edges[i]);
  }
  const std::uint64_t base = points_.size();
  const std::uint64_t total = exclusive_scan_in_parallel(first);
  if (base + total > UINT32_MAX)
    throw std::length_error("mesh has more vertices than uint32 indices");
  points_.resize_for_overwrite(base + total);  // every new point is placed below
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    prefetch_ahead(
        i, count, [&](std::int64_t j) { prefetch_for_write(triangles_[leaves[j]]); },
        [&](std::int64_t j) {
          const MeshTriangle& triangle = triangles_[leaves[j]];
          for (std::uint32_t v : triangle.v) prefetch(points_[v]);
          for (std::int32_t n : triangle.neighbour)
            if (n >= 0) prefetch_for_write(triangles_[n]);
        });
    auto m = static_cast<std::uint32_t>(base + first[i]);
    for (int k = 0; k < 3; ++k)
      if (edges[i] & (1u << k)) set_midpoint(leaves[i], k, m++);
    rank_[leaves[i]] = -1;
  }
}

void BisectionMesh::replace_neighbour(std::int32_t t, std::int32_t old_neighbour,
                                      std::int32_t new_neighbour) {
  if (t < 0) return;
  for (auto& n : triangles_[t].neighbour)
    if (n == old_neighbour) n = new_neighbour;
}

void BisectionMesh::split(std::int32_t t, std::vector<std::int32_t>& created) {
  std::int32_t base = triangles_[t].neighbour[0];
  // A coarser neighbour has our hypotenuse as one of its legs: split it first, which
  // leaves a child across our hypotenuse that shares it as its own hypotenuse.
  if (base >= 0 && triangles_[base].neighbour[0] != t) {
    split(base, created);
    base = triangles_[t].neighbour[0];
    if (base < 0 || triangles_[base].neighbour[0] != t)
      throw std::logic_error("bisection mesh lost conformity");
  }
  const std::uint32_t m = midpoint(t, 0);
  const MeshTriangle parent = triangles_[t];
  // Slots already refilled (fresh) are in `created` already.
  const bool base_was_fresh = base >= 0 && triangles_[base].fresh;
  const auto [v0, v1, v2] = parent.v;
  const std::uint8_t depth = parent.depth + 1;
  // Children of X = (x0; x1, x2): first = (m; x0, x1) in X's own slot, second = (m; x2, x0)
  // appended; each keeps the midpoint already made on its outer edge.
  const std::int32_t t_first = t;
  set_triangle(t_first, {m, v0, v1}, depth, parent.midpoint[2]);
  const std::int32_t t_second = add_triangle(m, v2, v0, depth, parent.midpoint[1]);
  std::int32_t b_first = -1, b_second = -1;
  if (base >= 0) {
    const MeshTriangle other = triangles_[base];
    const auto [w0, w1, w2] = other.v;  // w1 == v2, w2 == v1
    b_first = base;
    set_triangle(b_first, {m, w0, w1}, depth, other.midpoint[2]);
    b_second = add_triangle(m, w2, w0, depth, other.midpoint[1]);
    triangles_[b_first].neighbour = {other.neighbour[2], t_second, b_second};
    triangles_[b_second].neighbour = {other.neighbour[1], b_first, t_first};
    replace_neighbour(other.neighbour[1], base, b_second);
  }
  triangles_[t_first].neighbour = {parent.neighbour[2], b_second, t_second};
  triangles_[t_second].neighbour = {parent.neighbour[1], t_first, b_first};
  replace_neighbour(parent.neighbour[1], t, t_second);
  if (!parent.fresh) created.push_back(t_first);
  created.push_back(t_second);
  if (base < 0) return;
  if (!base_was_fresh) created.push_back(b_first);
  created.push_back(b_second);
}

void BisectionMesh::reserve(std::size_t more_triangles) {
  triangles_.reserve(triangles_.size() + more_triangles);
  // At most one new vertex per new triangle pair, but most pairs' midpoint exists already.
  points_.reserve(points_.size() + more_triangles / 2);
}

}  // namespace starlens
