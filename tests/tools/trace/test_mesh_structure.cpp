// The mesh's structure and what it carries: a conforming triangulation (refined at random),
// Minkowski's identity map, magnification and parity against the closed form of an
// axisymmetric lens, and axisymmetry under a camera roll.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "bisection_mesh.h"
#include "mesh_fixture.h"
#include "spacetime/schwarzschild_orbit.h"

using namespace starlens;

namespace {

double angle(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

double signed_area(const BisectionMesh& mesh, const MeshTriangle& t) {
  const auto& p = mesh.points();
  return ((p[t.v[1]].x - p[t.v[0]].x) * (p[t.v[2]].y - p[t.v[0]].y) -
          (p[t.v[2]].x - p[t.v[0]].x) * (p[t.v[1]].y - p[t.v[0]].y)) /
         2;
}

}  // namespace

TEST_CASE("bisection keeps a conforming triangulation of the image") {
  BisectionMesh mesh(37, 21, 4);  // 10 x 6 cells reaching past the image edge
  std::mt19937_64 random(9);
  std::vector<std::int32_t> created;
  for (int i = 0; i < 3000; ++i) {
    std::uniform_int_distribution<std::size_t> pick(0, mesh.triangles().size() - 1);
    const auto t = static_cast<std::int32_t>(pick(random));
    if (mesh.triangle(t).depth < 14) mesh.split(t, created);
  }
  // Every edge is matched by the reverse edge of the neighbour recorded across it, or lies on
  // the border; positive windings summing to the whole area then mean no gap, no overlap, no
  // hanging vertex.
  double area = 0;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed_edges;
  const auto& p = mesh.points();
  for (std::size_t t = 0; t < mesh.triangles().size(); ++t) {
    const MeshTriangle& triangle = mesh.triangles()[t];
    const double a = signed_area(mesh, triangle);
    REQUIRE(a > 0);
    area += a;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t from = triangle.v[(k + 1) % 3], to = triangle.v[(k + 2) % 3];
      REQUIRE(++directed_edges[{from, to}] == 1);
      const std::int32_t n = triangle.neighbour[k];
      if (n < 0) {
        const bool vertical = p[from].x == p[to].x && (p[from].x == 0 || p[from].x == 40);
        const bool horizontal = p[from].y == p[to].y && (p[from].y == 0 || p[from].y == 24);
        CHECK((vertical || horizontal));
        continue;
      }
      const MeshTriangle& other = mesh.triangles()[n];
      bool found = false;
      for (int j = 0; j < 3; ++j)
        found |= other.neighbour[j] == static_cast<std::int32_t>(t) && other.v[(j + 1) % 3] == to &&
                 other.v[(j + 2) % 3] == from;
      REQUIRE(found);
    }
  }
  CHECK(std::abs(area - 40.0 * 24.0) < 1e-9);
  MESSAGE(mesh.triangles().size() << " triangles after random refinement");
}

TEST_CASE("Minkowski: source direction = camera direction, magnification 1, parity +1") {
  for (const Projection projection : {Projection::pinhole, Projection::fisheye}) {
    test::MapSetup setup;
    setup.spacetime = "minkowski";
    setup.projection = projection;
    setup.fov_degrees = projection == Projection::pinhole ? 90 : 270;
    setup.look = normalized({0.2, 0.9, -0.3});
    const auto map = test::trace_map(setup);
    double worst_direction = 0, worst_mu = 0;
    for (const auto& v : map.vertices) {
      REQUIRE(v.status == 0);
      worst_direction =
          std::max(worst_direction, angle(v.direction, map.camera->direction(v.x, v.y)));
    }
    for (const auto& t : map.triangles) {
      CHECK(t.parity == 1);
      worst_mu = std::max(worst_mu, std::abs(t.mu - 1));
    }
    MESSAGE(projection_name(projection) << ": " << map.vertices.size() << " vertices, "
                                        << map.triangles.size() << " triangles, worst direction "
                                        << worst_direction << " rad, worst |mu - 1| " << worst_mu);
    CHECK(worst_direction <= 1e-14);
    CHECK(worst_mu <= 1e-12);
    CHECK(map.refined.shadow_triangles == 0);
  }
}

TEST_CASE("magnification and parity match the axisymmetric lens in closed form") {
  // mu = sin(psi) / (sin(beta) |d beta / d psi|), beta the source's angle from the hole:
  // cos(beta) = -cos(Phi) with Phi the total azimuth, so |d beta / d psi| = |d Phi / d psi|.
  test::MapSetup setup;  // hole straight ahead, r_obs 30, pinhole 60 degrees
  const auto map = test::trace_map(setup);
  const double r_obs = setup.r_obs;
  const auto azimuth = [&](double psi) { return schwarzschild::escape_azimuth(r_obs, psi); };
  const auto analytic_mu = [&](double psi) {
    const double step = 1e-6;
    const double slope = (azimuth(psi + step) - azimuth(psi - step)) / (2 * step);
    return std::sin(psi) / (std::abs(std::sin(azimuth(psi))) * std::abs(slope));
  };
  std::vector<double> errors, scaled;
  for (const auto& t : map.triangles) {
    double cx = 0, cy = 0, size = 0;
    for (int k = 0; k < 3; ++k) {
      const auto& a = map.vertices[t.v[k]];
      const auto& b = map.vertices[t.v[(k + 1) % 3]];
      cx += a.x / 3, cy += a.y / 3;
      size =
          std::max(size, angle(map.camera->direction(a.x, a.y), map.camera->direction(b.x, b.y)));
    }
    const double psi = angle(map.camera->direction(cx, cy), setup.hole);
    const double phi = azimuth(psi);
    // Away from the critical curves (Phi = pi, 2 pi) and from the shadow's edge (and its
    // stretched band, where triangles' source edges may reach 15 degrees and a solid-angle
    // ratio is further from the point value: produce uses the point value, point_lens.h).
    if (std::abs(std::remainder(phi, std::numbers::pi)) < 0.2 || phi > 1.7 * std::numbers::pi)
      continue;
    const double mu = analytic_mu(psi);
    CHECK(t.parity == (phi < std::numbers::pi ? 1 : -1));
    // A triangle's mu is its solid-angle ratio, which matches the value at its centroid only
    // to first order in its size times the logarithmic gradient of mu.
    const double gradient =
        std::abs(std::log(analytic_mu(psi + 1e-4) / analytic_mu(psi - 1e-4))) / 2e-4;
    const double error = std::abs(t.mu / mu - 1);
    errors.push_back(error);
    scaled.push_back(error / (size * gradient + 1e-9));
  }
  std::sort(errors.begin(), errors.end());
  std::sort(scaled.begin(), scaled.end());
  const auto quantile = [](const std::vector<double>& v, double q) {
    return v[std::size_t(q * (v.size() - 1))];
  };
  MESSAGE(errors.size() << " triangles compared; relative magnification error p50 "
                        << quantile(errors, 0.5) << " p99 " << quantile(errors, 0.99) << " max "
                        << errors.back() << "; in units of size x |d ln mu / d psi|: p50 "
                        << quantile(scaled, 0.5) << " max " << scaled.back());
  CHECK(errors.size() > 10000);
  CHECK(scaled.back() < 1);
}

TEST_CASE("kept, shadow and dropped areas tile the image") {
  // The manifest's shadow_area_px2 and dropped_area_px2 come from triangle depths; with the
  // kept triangles' areas from their pixel corners they must add up to the whole frame (its
  // size a multiple of the step, so the mesh covers exactly the image).
  test::MapSetup setup;
  setup.width = 240, setup.height = 136;
  setup.mesh.max_depth = 8;
  const auto map = test::trace_map(setup);
  double kept = 0;
  for (const auto& t : map.triangles) {
    const auto& a = map.vertices[t.v[0]];
    const auto& b = map.vertices[t.v[1]];
    const auto& c = map.vertices[t.v[2]];
    kept += ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2;
  }
  double dropped = 0;
  for (double area : map.refined.dropped_area) dropped += area;
  MESSAGE("kept " << kept << " px2, shadow " << map.refined.shadow_area << " px2, dropped "
                  << dropped << " px2");
  CHECK(map.refined.shadow_area > 0);
  CHECK(dropped > 0);
  CHECK(std::abs(kept + map.refined.shadow_area + dropped - 240.0 * 136.0) < 1e-6);
  // Each reason's area is its count's worth of triangles no larger than a base triangle.
  for (int r = 0; r < kDropReasonCount; ++r) {
    CHECK(map.refined.dropped_area[r] <= map.refined.dropped[r] * 8.0);
    CHECK(map.refined.dropped_area[r] >= map.refined.dropped[r] * 8.0 / 256);
  }
}

TEST_CASE("a camera roll rotates the map about the hole") {
  test::MapSetup setup;
  setup.width = setup.height = 256;
  setup.mesh.max_depth = 6;
  const auto upright = test::trace_map(setup);
  setup.roll_degrees = 90;
  const auto rolled = test::trace_map(setup);
  std::map<std::pair<double, double>, const LensmapVertex*> by_position;
  for (const auto& v : upright.vertices) by_position[{v.x, v.y}] = &v;
  const Vec3& hole = setup.hole;
  int compared = 0;
  double worst = 0;
  for (const auto& v : rolled.vertices) {
    const auto found = by_position.find({v.x, v.y});
    if (found == by_position.end() || v.status != 0) continue;
    REQUIRE(found->second->status == 0);
    // The rotation about the hole taking this pixel's upright camera ray to its rolled one
    // must take the upright source direction to the rolled one.
    const Vec3 from = upright.camera->direction(v.x, v.y), to = rolled.camera->direction(v.x, v.y);
    const double turn =
        std::atan2(dot(hole, cross(from, to)), dot(from, to) - dot(from, hole) * dot(to, hole));
    const Vec3& s = found->second->direction;
    const Vec3 across = cross(hole, s);
    Vec3 expected{};
    for (int k = 0; k < 3; ++k)
      expected[k] = s[k] * std::cos(turn) + across[k] * std::sin(turn) +
                    hole[k] * dot(hole, s) * (1 - std::cos(turn));
    worst = std::max(worst, angle(expected, v.direction));
    ++compared;
  }
  MESSAGE(compared << " vertices compared; worst " << worst << " rad");
  CHECK(compared > 10000);
  CHECK(worst < 1e-10);
  // Square image, 90 degrees: the refined meshes are the same up to the rotation.
  CHECK(rolled.triangles.size() == upright.triangles.size());
}
