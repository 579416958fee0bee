// The triangle index against brute force, and the image-side interpolation against the
// pinhole camera it must reproduce exactly for the identity map.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "catalog/sky_cells.h"
#include "mesh_fixtures.h"
#include "spacetime/minkowski.h"
#include "spacetime/schwarzschild.h"
#include "triangle_index.h"

using namespace starlens;
using namespace starlens::produce;
using namespace starlens::produce::testing;

namespace {

Vec3 random_direction(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  return normalized({normal(random), normal(random), normal(random)});
}

// A direction within `radius` rad of `centre`.
Vec3 random_direction_near(std::mt19937_64& random, const Vec3& centre, double radius) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (;;) {
    const Vec3 offset{uniform(random), uniform(random), uniform(random)};
    const Vec3 p = normalized({centre[0] + radius * offset[0], centre[1] + radius * offset[1],
                               centre[2] + radius * offset[2]});
    if (dot(p, centre) >= std::cos(radius)) return p;
  }
}

std::set<std::uint32_t> brute_force(const LensMesh& mesh, const Vec3& p) {
  std::set<std::uint32_t> hits;
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    const auto& v = mesh.triangles[t];
    const SourceTriangle source({mesh.direction[v[0]], mesh.direction[v[1]], mesh.direction[v[2]]},
                                v);
    Barycentric w;
    if (source.locate(p, w)) hits.insert(t);
  }
  return hits;
}

std::set<std::uint32_t> indexed(const TriangleIndex& index, const catalog::SkyCells& sky,
                                const Vec3& p) {
  std::set<std::uint32_t> hits;
  const std::size_t slot = index.slot_of(sky.cell_of(p));
  if (slot == TriangleIndex::kNoSlot) return hits;
  index.for_each_hit(slot, p, [&](std::uint32_t t, const Barycentric&) {
    CHECK(hits.insert(index.mesh_triangle(t)).second);  // each triangle at most once
  });
  return hits;
}

// for_each_hit_batch against for_each_hit star by star: the same (star, triangle, weights) in
// the same order, for the stars of each cell in batches of `batch`, each star with its own
// min_mu. Returns the number of hits compared.
std::uint64_t check_batch_matches_single(const TriangleIndex& index, const catalog::SkyCells& sky,
                                         const std::vector<Vec3>& points,
                                         const std::vector<double>& min_mu, std::size_t batch) {
  struct Hit {
    std::uint32_t star;
    std::uint32_t triangle;
    std::array<double, 3> lambda;
    bool operator==(const Hit&) const = default;
  };
  std::map<std::size_t, std::vector<std::uint32_t>> by_slot;
  for (std::uint32_t s = 0; s < points.size(); ++s) {
    const std::size_t slot = index.slot_of(sky.cell_of(points[s]));
    if (slot != TriangleIndex::kNoSlot) by_slot[slot].push_back(s);
  }
  TriangleIndex::BatchScratch scratch;
  std::uint64_t compared = 0;
  for (const auto& [slot, stars] : by_slot) {
    std::vector<Hit> single, batched;
    for (const std::uint32_t s : stars)
      index.for_each_hit(
          slot, points[s],
          [&](std::uint32_t t, const Barycentric& w) {
            single.push_back({s, t, w.lambda});
          },
          min_mu[s]);
    for (std::size_t first = 0; first < stars.size(); first += batch) {
      const std::size_t count = std::min(batch, stars.size() - first);
      std::vector<Vec3> p;
      std::vector<double> m;
      for (std::size_t i = first; i < first + count; ++i) {
        p.push_back(points[stars[i]]);
        m.push_back(min_mu[stars[i]]);
      }
      index.for_each_hit_batch(slot, p.data(), m.data(), count, scratch,
                               [&](std::uint32_t b, std::uint32_t t, const Barycentric& w) {
                                 REQUIRE(b < count);
                                 batched.push_back({stars[first + b], t, w.lambda});
                               });
    }
    CHECK(batched == single);
    compared += single.size();
  }
  return compared;
}

void check_against_brute_force(const LensMesh& mesh, int order, const IndexSettings& settings,
                               const Vec3& look, double field_radius, int stars) {
  const TriangleIndex index(mesh, order, settings);
  CHECK(index.statistics().triangles_indexed == mesh.triangle_count());
  const catalog::SkyCells sky(order);
  std::mt19937_64 random(11);
  std::uint64_t total_hits = 0;
  std::vector<Vec3> points;
  for (int s = 0; s < stars; ++s) {
    const Vec3 p =
        s % 4 == 0 ? random_direction(random) : random_direction_near(random, look, field_radius);
    const auto expected = brute_force(mesh, p);
    const auto found = indexed(index, sky, p);
    CHECK(found == expected);
    total_hits += expected.size();
    points.push_back(p);
  }
  CHECK(total_hits > static_cast<std::uint64_t>(stars) / 2);  // the test exercises hits
  const std::vector<double> no_floor(points.size(), 0.0);
  for (const std::size_t batch : {1, 7, 64})
    CHECK(check_batch_matches_single(index, sky, points, no_floor, batch) == total_hits);
}

}  // namespace

TEST_CASE("identity map: the index finds exactly the triangles brute force finds") {
  const Vec3 look = unit_vector_from_angles(1.0, 0.3);
  const PinholeCamera camera(look, 40, 160, 100);
  const MinkowskiSpacetime flat;
  const LensMesh mesh = grid_mesh(camera, flat, 4, 5 * kDegree);
  for (const int order : {3, 6, 9}) {
    CAPTURE(order);
    check_against_brute_force(mesh, order, {}, look, 0.35, 3000);
    // Tiny tiles and caps: many patches, most cells with several.
    check_against_brute_force(mesh, order, {8, 0.004}, look, 0.35, 1000);
  }
}

TEST_CASE(
    "overlapping sheets of very different triangle sizes: fine and coarse grids in one cell") {
  // Two identity meshes over the same sky, one of 32 px triangles over the whole frame and one
  // of 1 px triangles over a corner: every star there is in one triangle of each.
  const Vec3 look = unit_vector_from_angles(0.3, 1.1);
  const MinkowskiSpacetime flat;
  const LensMesh coarse = grid_mesh(PinholeCamera(look, 30, 256, 256), flat, 32, 10 * kDegree);
  const LensMesh fine = grid_mesh(PinholeCamera(look, 30, 256, 256), flat, 1, 10 * kDegree);
  LensMesh both = coarse;
  const auto offset = static_cast<std::uint32_t>(both.xy.size());
  for (std::size_t v = 0; v < fine.xy.size(); ++v) {
    both.xy.push_back(fine.xy[v]);
    both.direction.push_back(fine.direction[v]);
    both.g.push_back(fine.g[v]);
  }
  for (std::size_t t = 0; t < fine.triangle_count(); ++t) {
    const auto& v = fine.triangles[t];
    if (fine.xy[v[0]][0] > 40 || fine.xy[v[0]][1] > 40) continue;  // the corner only
    both.triangles.push_back({v[0] + offset, v[1] + offset, v[2] + offset});
    both.mu.push_back(1);
    both.parity.push_back(1);
  }
  for (const int order : {2, 5}) {
    CAPTURE(order);
    check_against_brute_force(both, order, {}, look, 0.25, 3000);
  }
}

TEST_CASE("Schwarzschild map: images on both sides of the hole and the whole sky behind it") {
  const Vec3 hole = unit_vector_from_angles(4.6, -0.5);
  const PinholeCamera camera(hole, 60, 200, 120);
  const SchwarzschildSpacetime spacetime({30.0, hole});
  const LensMesh mesh = grid_mesh(camera, spacetime, 2, 2.0 * kDegree);
  REQUIRE(mesh.triangle_count() > 1000);
  const TriangleIndex index(mesh, 5);
  const catalog::SkyCells sky(5);
  std::mt19937_64 random(5);
  int multiple = 0;
  std::vector<Vec3> points;
  std::uint64_t total_hits = 0;
  for (int s = 0; s < 3000; ++s) {
    const Vec3 p = s % 2 ? random_direction(random) : random_direction_near(random, hole, 0.4);
    const auto expected = brute_force(mesh, p);
    CHECK(indexed(index, sky, p) == expected);
    multiple += expected.size() > 1;
    total_hits += expected.size();
    points.push_back(p);
  }
  CHECK(multiple > 10);  // stars near the hole have a primary and a secondary image
  // Batched lookups, with and without per-star magnification floors that pass groups over.
  const std::vector<double> no_floor(points.size(), 0.0);
  CHECK(check_batch_matches_single(index, sky, points, no_floor, 64) == total_hits);
  std::vector<double> floors(points.size());
  std::uniform_real_distribution<double> log_mu(std::log(1e-3), std::log(3.0));
  for (double& floor : floors) floor = std::exp(log_mu(random));
  const std::uint64_t kept = check_batch_matches_single(index, sky, points, floors, 64);
  CHECK(kept > 0);
  CHECK(kept < total_hits);  // the floors passed some groups over
}

TEST_CASE("identity pinhole map: every direction lands at its pinhole projection") {
  const Vec3 look = unit_vector_from_angles(2.0, -0.7);
  const PinholeCamera camera(look, 60, 1920, 1080);
  const MinkowskiSpacetime flat;
  // A band of the frame's corner, where the projection is most oblique.
  LensMesh mesh = grid_mesh(camera, flat, 4);
  const TriangleIndex index(mesh, 4);
  const catalog::SkyCells sky(4);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> px(0, 1920), py(0, 1080);
  double worst = 0;
  int found = 0;
  for (int s = 0; s < 20000; ++s) {
    // Half the points in 40 px strips along the edges (never exactly on a vertex: a direction
    // exactly at a shared vertex may be counted in more than one triangle of its fan).
    const double x = s % 2 ? px(random) : std::fmod(px(random), 40.0);
    const double y = s % 3 ? py(random) : std::fmod(py(random), 40.0);
    const Vec3 p = camera.ray(x, y);
    const auto slot = index.slot_of(sky.cell_of(p));
    REQUIRE(slot != TriangleIndex::kNoSlot);
    int hits = 0;
    index.for_each_hit(slot, p, [&](std::uint32_t t, const Barycentric& w) {
      const ImagePoint image = index.map(t, w);
      worst = std::max({worst, std::abs(image.x - x), std::abs(image.y - y)});
      CHECK(image.g == doctest::Approx(1.0).epsilon(1e-15));
      ++hits;
    });
    CHECK(hits == 1);
    found += hits;
  }
  CHECK(found == 20000);
  MESSAGE("worst identity-map position error: " << worst << " px");
  CHECK(worst < 1e-6);
}

TEST_CASE("without the depth weights the identity map would be off by far more than 1e-6 px") {
  // Documents why image_triangle.h weights the vertices: plain linear interpolation of a
  // 4 px triangle in the corner of a 60 degree pinhole frame.
  const PinholeCamera camera(Vec3{1, 0, 0}, 60, 1920, 1080);
  const std::array<std::array<double, 2>, 3> xy{{{4, 4}, {8, 4}, {8, 8}}};
  std::array<Vec3, 3> s;
  for (int i = 0; i < 3; ++i) s[i] = camera.ray(xy[i][0], xy[i][1]);
  const SourceTriangle triangle(s, {0, 1, 2});
  const Vec3 p = camera.ray(7, 5);
  Barycentric w;
  REQUIRE(triangle.locate(p, w));
  double x = 0;
  for (int i = 0; i < 3; ++i) x += w.lambda[i] * xy[i][0];
  CHECK(std::abs(x - 7) > 1e-4);
}
