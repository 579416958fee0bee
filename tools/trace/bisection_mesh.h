#pragma once
// A conforming triangle mesh of the image plane refined by newest-vertex bisection (a 4-8
// mesh): the base grid's cells are split into two triangles, and a triangle is always split
// at the midpoint of its hypotenuse together with the neighbour across it, after splitting
// that neighbour first when it is coarser. So the mesh never has hanging vertices: every
// edge is shared by exactly two triangles (one on the border), neighbouring triangles agree
// on the midpoint vertex, and source triangles tile the sky without gaps or overlaps.
// Combinatorics and pixel positions only; tracing and criteria live in mesh_refiner.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "block_vector.h"

namespace starlens {

inline constexpr std::uint32_t kNoVertex = 0xffffffffu;

// A vertex's position in pixels, both coordinates in one 16-byte record: the criteria read
// vertices at random, and one cache line per vertex position is half the misses of two arrays.
struct PixelPoint {
  double x = 0, y = 0;
};

// Vertex v0 is the apex (newest vertex), (v1, v2) the hypotenuse; (v0, v1, v2) is wound so
// that (x1-x0)(y2-y0) - (x2-x0)(y1-y0) > 0 in pixels. neighbour[k] is the triangle across
// the edge opposite v[k] (-1 on the border); midpoint[k] that edge's midpoint vertex once
// made (kNoVertex before), recorded on both sides of the edge so that they share it.
struct MeshTriangle {
  std::array<std::uint32_t, 3> v{};
  std::array<std::int32_t, 3> neighbour{-1, -1, -1};
  std::array<std::uint32_t, 3> midpoint{kNoVertex, kNoVertex, kNoVertex};
  std::uint8_t depth = 0;
  bool fresh = true;  // set when the slot gets a new triangle, cleared by take_fresh
};

class BisectionMesh {
 public:
  // A grid of square cells of `step` pixels covering [0, width] x [0, height] (the last row
  // and column may reach past the image), two triangles per cell.
  BisectionMesh(double width, double height, double step);

  const BlockVector<PixelPoint>& points() const { return points_; }
  std::size_t vertex_count() const { return points_.size(); }
  const BlockVector<MeshTriangle>& triangles() const { return triangles_; }
  // True once for each new triangle in slot t (a slot refilled twice counts once).
  bool take_fresh(std::int32_t t) { return std::exchange(triangles_[t].fresh, false); }
  // Hands the vertex positions over (the mesh is not used afterwards).
  BlockVector<PixelPoint> release_points() { return std::move(points_); }
  const MeshTriangle& triangle(std::int32_t t) const { return triangles_[t]; }

  // The vertex at the midpoint of the edge of leaf t opposite its vertex k, created on first
  // request from either side of the edge. Vertices are only ever appended.
  std::uint32_t midpoint(std::int32_t t, int k);
  // Makes all three edge midpoints of each of the distinct leaves listed, in parallel, with the
  // vertex numbers that midpoint(t, 0..2) for the leaves in list order would give: the mesh is
  // the same for any thread count.
  void create_midpoints(const std::vector<std::int32_t>& leaves);
  // Splits t (and the neighbour across its hypotenuse, and coarser neighbours first as
  // conformity requires). A split triangle's slot is reused for its first child, so every
  // triangle in the mesh is a leaf; a slot given a new triangle is appended to `created` when
  // it becomes fresh (a slot refilled again before take_fresh is not repeated).
  void split(std::int32_t t, std::vector<std::int32_t>& created);
  // Prepares room (memory first touched on all threads) for this many more triangles, ahead
  // of a run of splits.
  void reserve(std::size_t more_triangles);

 private:
  std::uint32_t add_vertex(double x, double y);
  // Places vertex m at the midpoint of t's edge opposite its vertex k and records it on both
  // sides of that edge.
  void set_midpoint(std::int32_t t, int k, std::uint32_t m);
  // The edges (bit k: opposite vertex k) whose midpoint the leaf at `rank` in
  // create_midpoints's list makes: those still without one and not shared with a listed leaf
  // of lower rank.
  unsigned edges_to_split(std::int32_t t, std::int32_t rank) const;
  std::int32_t add_triangle(std::uint32_t v0, std::uint32_t v1, std::uint32_t v2,
                            std::uint8_t depth, std::uint32_t outer_midpoint = kNoVertex);
  void set_triangle(std::int32_t t, const std::array<std::uint32_t, 3>& v, std::uint8_t depth,
                    std::uint32_t outer_midpoint);
  void replace_neighbour(std::int32_t t, std::int32_t old_neighbour, std::int32_t new_neighbour);
  void link_base_neighbours(std::uint32_t columns, std::uint32_t rows);

  BlockVector<PixelPoint> points_;
  BlockVector<MeshTriangle> triangles_;
  std::vector<std::int32_t> rank_;  // create_midpoints's list position by triangle, else -1
};

}  // namespace starlens
