#include "geodesic_grid.h"

#include <cmath>

namespace starlens::catalog {
namespace {

using Triangle = std::array<Vec3, 3>;

std::vector<Triangle> icosahedron() {
  const double golden = (1.0 + std::sqrt(5.0)) / 2.0;
  const double b = 1.0 / std::sqrt(1.0 + golden * golden);
  const double a = b * golden;
  const Vec3 corner[12] = {{a, -b, 0}, {a, b, 0}, {-a, b, 0}, {-a, -b, 0},
                           {0, a, -b}, {0, a, b}, {0, -a, b}, {0, -a, -b},
                           {-b, 0, a}, {b, 0, a}, {b, 0, -a}, {-b, 0, -a}};
  constexpr int kTriangles[20][3] = {{1, 0, 10}, {0, 1, 9},  {0, 9, 6},   {9, 8, 6},   {0, 7, 10},
                                     {6, 7, 0},  {7, 6, 3},  {6, 8, 3},   {11, 10, 7}, {7, 3, 11},
                                     {3, 2, 11}, {2, 3, 8},  {10, 11, 4}, {2, 4, 11},  {5, 4, 2},
                                     {2, 8, 5},  {4, 1, 10}, {4, 5, 1},   {5, 9, 1},   {8, 9, 5}};
  std::vector<Triangle> triangles;
  for (const auto& t : kTriangles) triangles.push_back({corner[t[0]], corner[t[1]], corner[t[2]]});
  return triangles;
}

Vec3 normalized_sum(const Vec3& a, const Vec3& b) {
  return normalized({a[0] + b[0], a[1] + b[1], a[2] + b[2]});
}

std::vector<Triangle> subdivide(const std::vector<Triangle>& parents) {
  std::vector<Triangle> children;
  children.reserve(4 * parents.size());
  for (const auto& [c0, c1, c2] : parents) {
    const Vec3 e0 = normalized_sum(c1, c2);
    const Vec3 e1 = normalized_sum(c2, c0);
    const Vec3 e2 = normalized_sum(c0, c1);
    children.push_back({c0, e2, e1});
    children.push_back({e2, c1, e0});
    children.push_back({e1, e0, c2});
    children.push_back({e0, e1, e2});
  }
  return children;
}

}  // namespace

std::vector<GeodesicZone> geodesic_zones(int level) {
  std::vector<Triangle> triangles = icosahedron();
  for (int l = 0; l < level; ++l) triangles = subdivide(triangles);
  std::vector<GeodesicZone> zones;
  zones.reserve(triangles.size());
  constexpr Vec3 kNorth = {0, 0, 1};
  for (const auto& [c0, c1, c2] : triangles) {
    GeodesicZone zone;
    zone.corners[0] = c0;
    zone.corners[1] = c1;
    zone.corners[2] = c2;
    zone.centre = normalized({c0[0] + c1[0] + c2[0], c0[1] + c1[1] + c2[1], c0[2] + c1[2] + c2[2]});
    zone.axis0 = normalized(cross(kNorth, zone.centre));
    zone.axis1 = cross(zone.centre, zone.axis0);
    zones.push_back(zone);
  }
  return zones;
}

}  // namespace starlens::catalog
