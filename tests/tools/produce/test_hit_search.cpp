// The producer's search of a unit's stars (hit_search.h) and the lookup over flat arrays that
// the GPU backend runs (index_lookup.h): the CPU search's hits per query against brute force
// over every triangle (the same set) and against TriangleIndex::for_each_hit star by star (the
// same order and weights), across cells, batch boundaries and magnification floors; and the
// lookup on a copy of the index's arrays in fresh memory (the device's layout: the groups'
// entries in one array, the frames pointing into it) bit for bit the index's own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "catalog/sky_cells.h"
#include "hit_search.h"
#include "index_lookup.h"
#include "mesh_fixtures.h"
#include "spacetime/schwarzschild.h"
#include "triangle_index.h"

using namespace starlens;
using namespace starlens::produce;
using namespace starlens::produce::testing;

namespace {

struct Found {
  std::uint32_t triangle;
  std::array<double, 3> lambda;
  bool operator==(const Found&) const = default;
};

Vec3 random_near(std::mt19937_64& random, const Vec3& centre, double radius) {
  std::normal_distribution<double> normal;
  const Vec3 p =
      normalized({centre[0] + radius * normal(random), centre[1] + radius * normal(random),
                  centre[2] + radius * normal(random)});
  return p;
}

struct Scene {
  Vec3 hole = unit_vector_from_angles(4.6, -0.5);
  PinholeCamera camera{hole, 60, 200, 120};
  SchwarzschildSpacetime spacetime{{30.0, hole}};
  LensMesh mesh = grid_mesh(camera, spacetime, 2, 2.0 * kDegree);
  TriangleIndex index{mesh, 5};
  catalog::SkyCells sky{5};
};

// Queries in cell order (as a unit gives them), with min_mu floors on every other star.
std::vector<StarQuery> make_queries(const Scene& scene, int stars, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> log_mu(std::log(1e-3), std::log(3.0));
  std::vector<StarQuery> queries;
  for (int s = 0; s < stars; ++s) {
    const Vec3 p = random_near(random, scene.hole, s % 3 == 0 ? 1.0 : 0.3);
    const std::size_t slot = scene.index.slot_of(scene.sky.cell_of(p));
    if (slot == TriangleIndex::kNoSlot) continue;
    const double floor = s % 2 ? std::exp(log_mu(random)) : 0.0;
    queries.push_back({p, floor, static_cast<std::uint32_t>(slot)});
  }
  std::stable_sort(queries.begin(), queries.end(),
                   [](const StarQuery& a, const StarQuery& b) { return a.slot < b.slot; });
  return queries;
}

std::vector<Found> single(const TriangleIndex& index, const StarQuery& q) {
  std::vector<Found> hits;
  index.for_each_hit(
      q.slot, q.point,
      [&](std::uint32_t t, const Barycentric& w) {
        hits.push_back({t, w.lambda});
      },
      q.min_mu);
  return hits;
}

}  // namespace

TEST_CASE(
    "the CPU search gives each query the triangles brute force finds, in for_each_hit order") {
  const Scene scene;
  const std::vector<StarQuery> queries = make_queries(scene, 4000, 7);
  REQUIRE(queries.size() > 1000);
  const auto backend = make_cpu_search(scene.index);
  const auto search = backend->for_worker();
  QueryHits found;
  search->find(queries, found);
  REQUIRE(found.first.size() == queries.size() + 1);
  REQUIRE(found.first.back() == found.hits.size());
  std::size_t multiple = 0, floored = 0;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    std::vector<Found> hits;
    for (std::uint32_t h = found.first[q]; h < found.first[q + 1]; ++h)
      hits.push_back({found.hits[h].triangle, found.hits[h].weights.lambda});
    CHECK(hits == single(scene.index, queries[q]));
    // Without a floor, exactly the triangles whose source triangle holds the star.
    if (queries[q].min_mu == 0) {
      std::set<std::uint32_t> expected, got;
      for (std::uint32_t t = 0; t < scene.mesh.triangle_count(); ++t) {
        const auto& v = scene.mesh.triangles[t];
        const SourceTriangle source(
            {scene.mesh.direction[v[0]], scene.mesh.direction[v[1]], scene.mesh.direction[v[2]]},
            v);
        Barycentric w;
        if (source.locate(queries[q].point, w)) expected.insert(t);
      }
      for (const Found& hit : hits) got.insert(scene.index.mesh_triangle(hit.triangle));
      CHECK(got == expected);
      multiple += expected.size() > 1;
    } else {
      floored += hits.size() < single(scene.index, {queries[q].point, 0, queries[q].slot}).size();
    }
  }
  CHECK(multiple > 10);  // primary and secondary images
  CHECK(floored > 0);    // floors passed groups over
  // An empty unit, and a second search by the same worker (its buffers reused).
  search->find({}, found);
  CHECK(found.first == std::vector<std::uint32_t>{0});
  CHECK(found.hits.empty());
}

TEST_CASE("the lookup reads only the index's arrays: a copy in fresh memory finds the same bits") {
  const Scene scene;
  const IndexArrays host = scene.index.arrays();
  const TriangleIndex::ArraySizes sizes = scene.index.array_sizes();
  const auto copy = [](const auto* data, std::size_t count) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
    return std::vector<T>(data, data + count);
  };
  const auto grids = copy(host.grids, sizes.grids);
  const auto levels = copy(host.levels, sizes.levels);
  const auto bin_offsets = copy(host.bin_offsets, sizes.bin_offsets);
  const auto buckets = copy(host.buckets, sizes.buckets);
  const auto entries = copy(host.entries, sizes.entries);
  const auto group_max_mu = copy(host.group_max_mu, sizes.groups);
  const auto group_bin_offsets = copy(host.group_bin_offsets, sizes.group_bin_offsets);
  const auto sources = copy(host.sources, sizes.sources);
  // The groups' entries in one array and frames pointing into it, as the device holds them.
  const GroupGrids& groups = scene.index.groups();
  std::vector<GroupGridEntry> group_entries;
  std::vector<std::size_t> at;
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    at.push_back(group_entries.size());
    const auto& own = groups.group_entries(g);
    group_entries.insert(group_entries.end(), own.begin(), own.end());
  }
  std::vector<GroupGrids::Frame> frames = groups.frames();
  for (std::uint32_t g = 0; g < frames.size(); ++g)
    frames[g].entries = group_entries.data() + at[g];
  const IndexArrays copied{
      grids.data(),        levels.data(), bin_offsets.data(),       buckets.data(), entries.data(),
      group_max_mu.data(), frames.data(), group_bin_offsets.data(), sources.data()};
  std::uint64_t hits = 0;
  for (const StarQuery& q : make_queries(scene, 3000, 9)) {
    std::vector<Found> found;
    for_each_star_hit(copied, q.slot, q.point, q.min_mu,
                      [&](std::uint32_t t, const Barycentric& w) {
                        found.push_back({t, w.lambda});
                      });
    CHECK(found == single(scene.index, q));
    hits += found.size();
  }
  CHECK(hits > 300);
}
