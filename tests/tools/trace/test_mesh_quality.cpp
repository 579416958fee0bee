// docs/design.md section 10: a star's image position from the mesh's linear inverse mapping
// (gnomonic barycentric weights in its source triangle, the producer's method) against the exact
// map, at 10^5 random image points outside dropped triangles: at least 99.9% within --mesh-tol.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "mesh_fixture.h"
#include "triangle_lookup.h"

using namespace starlens;

namespace {

double determinant(const Vec3& a, const Vec3& b, const Vec3& c) {
  return dot(a, cross(b, c));
}

// Where the producer puts the star of source direction s seen inside triangle t: weights of
// the central projection of s onto the plane of the source vertices, here by Cramer's rule
// on s = m0 s0 + m1 s1 + m2 s2 (m proportional to the weights), applied to pixel positions.
std::array<double, 2> linear_inverse(const test::TracedMap& map, long t, const Vec3& s) {
  const auto& v = map.triangles[t].v;
  const Vec3 &s0 = map.vertices[v[0]].direction, &s1 = map.vertices[v[1]].direction,
             &s2 = map.vertices[v[2]].direction;
  const double m0 = determinant(s, s1, s2), m1 = determinant(s0, s, s2),
               m2 = determinant(s0, s1, s);
  const double sum = m0 + m1 + m2;
  const double x =
      (m0 * map.vertices[v[0]].x + m1 * map.vertices[v[1]].x + m2 * map.vertices[v[2]].x) / sum;
  const double y =
      (m0 * map.vertices[v[0]].y + m1 * map.vertices[v[1]].y + m2 * map.vertices[v[2]].y) / sum;
  return {x, y};
}

void check_mesh_quality(const test::MapSetup& setup, const char* label) {
  const auto map = test::trace_map(setup);
  const test::TriangleLookup index(map, setup.width, setup.height, 8);
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> along_x(0, setup.width), along_y(0, setup.height);
  std::vector<double> errors;
  int uncovered = 0, captured_inside = 0;
  constexpr int kPoints = 100000;
  for (int i = 0; i < kPoints; ++i) {
    const double x = along_x(random), y = along_y(random);
    const long t = index.find(x, y);
    if (t < 0) {
      ++uncovered;
      continue;
    }
    const TracedRay exact = map.spacetime->trace(map.camera->direction(x, y));
    if (exact.status != RayStatus::escaped) {
      ++captured_inside;
      continue;
    }
    const auto [mx, my] = linear_inverse(map, t, exact.source_direction);
    errors.push_back(std::hypot(mx - x, my - y));
  }
  std::sort(errors.begin(), errors.end());
  const auto quantile = [&](double q) {
    return errors[std::min(errors.size() - 1, std::size_t(q * errors.size()))];
  };
  const double within =
      double(std::upper_bound(errors.begin(), errors.end(), setup.mesh.tolerance) -
             errors.begin()) /
      errors.size();
  MESSAGE(std::string(label) << ": " << map.triangles.size() << " triangles; " << errors.size()
                             << " points checked, " << uncovered << " outside kept triangles, "
                             << captured_inside << " captured inside one; error px p50 "
                             << quantile(0.5) << " p90 " << quantile(0.9) << " p99 "
                             << quantile(0.99) << " p99.9 " << quantile(0.999) << " max "
                             << errors.back() << "; within tol " << 100 * within << "%");
  CHECK(errors.size() > kPoints / 2);
  CHECK(captured_inside <= kPoints / 10000);
  CHECK(within >= 0.999);
}

}  // namespace

TEST_CASE("Schwarzschild pinhole map: linear inverse mapping within mesh-tol at 99.9% of points") {
  check_mesh_quality(test::MapSetup{}, "schwarzschild r_obs 30, pinhole 60 deg");
}

TEST_CASE("strong field, fisheye off-centre: linear inverse mapping within mesh-tol") {
  test::MapSetup setup;
  setup.r_obs = 6;
  setup.projection = Projection::fisheye;
  setup.fov_degrees = 200;
  setup.look = normalized({1, 0.3, 0.1});
  setup.width = 320;
  setup.height = 320;
  check_mesh_quality(setup, "schwarzschild r_obs 6, fisheye 200 deg");
}
