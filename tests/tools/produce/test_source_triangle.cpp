// The point-in-spherical-triangle test and the gnomonic barycentric weights.
#include <doctest/doctest.h>

#include <random>

#include "source_triangle.h"

using namespace starlens;
using namespace starlens::produce;

namespace {

Vec3 combine(const std::array<Vec3, 3>& s, const std::array<double, 3>& w) {
  Vec3 p{0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 3; ++c) p[c] += w[i] * s[i][c];
  return p;
}

std::array<Vec3, 3> random_small_triangle(std::mt19937_64& random, double size) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  const Vec3 centre = normalized({uniform(random), uniform(random), uniform(random)});
  std::array<Vec3, 3> s;
  for (auto& v : s)
    v = normalized({centre[0] + size * uniform(random), centre[1] + size * uniform(random),
                    centre[2] + size * uniform(random)});
  return s;
}

}  // namespace

TEST_CASE("a direction built from known gnomonic weights is found inside with those weights") {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    const auto s = random_small_triangle(random, trial % 2 ? 0.01 : 0.3);
    const SourceTriangle triangle(s, {0, 1, 2});
    REQUIRE(triangle.valid());
    std::array<double, 3> lambda{unit(random), unit(random), unit(random)};
    const double sum = lambda[0] + lambda[1] + lambda[2];
    for (double& l : lambda) l /= sum;
    // The plane point sum lambda_i s_i, moved to the sphere: its central projection back onto
    // the plane is that point, so its gnomonic weights are lambda.
    const Vec3 p = normalized(combine(s, lambda));
    Barycentric found;
    REQUIRE(triangle.locate(p, found));
    for (int i = 0; i < 3; ++i) CHECK(found.lambda[i] == doctest::Approx(lambda[i]).epsilon(1e-9));
    // Weights with one negative entry lie outside; the antipode is outside.
    std::array<double, 3> outside = lambda;
    outside[trial % 3] = -0.05 - lambda[trial % 3];
    CHECK_FALSE(triangle.locate(normalized(combine(s, outside)), found));
    CHECK_FALSE(triangle.locate({-p[0], -p[1], -p[2]}, found));
  }
}

TEST_CASE("either winding: the orientation does not change what is inside") {
  const std::array<Vec3, 3> s{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
  const std::array<Vec3, 3> mirrored{s[0], s[2], s[1]};
  const SourceTriangle a(s, {0, 1, 2});
  const SourceTriangle b(mirrored, {0, 2, 1});
  CHECK(a.orientation() == 1);
  CHECK(b.orientation() == -1);
  Barycentric wa, wb;
  const Vec3 p = normalized({0.2, 0.3, 0.5});
  REQUIRE(a.locate(p, wa));
  REQUIRE(b.locate(p, wb));
  CHECK(wa.lambda[0] == doctest::Approx(0.2));
  CHECK(wa.lambda[1] == doctest::Approx(0.3));
  CHECK(wb.lambda[1] == doctest::Approx(0.5));
}

TEST_CASE("a direction exactly on a shared edge belongs to exactly one of the two triangles") {
  // Integer vectors: every product and sum is exact, so p is exactly on the edge a-b.
  const Vec3 a{1, 0, 1}, b{0, 1, 1}, c{1, 1, 3}, d{2, 2, 1};
  // Both wound the same way around the sphere's outside normal; the edge a-b is shared.
  const SourceTriangle first({a, b, c}, {10, 11, 12});
  const SourceTriangle second({b, a, d}, {11, 10, 13});
  REQUIRE(first.orientation() == second.orientation());
  const Vec3 on_edge{1, 1, 2};  // a + b
  Barycentric w;
  const int found = int(first.locate(on_edge, w)) + int(second.locate(on_edge, w));
  CHECK(found == 1);
  // Swapping the vertex numbers hands the edge to the other triangle.
  const SourceTriangle first_swapped({a, b, c}, {11, 10, 12});
  const SourceTriangle second_swapped({b, a, d}, {10, 11, 13});
  CHECK(first.locate(on_edge, w) != first_swapped.locate(on_edge, w));
  CHECK(int(first_swapped.locate(on_edge, w)) + int(second_swapped.locate(on_edge, w)) == 1);
}

TEST_CASE("directions next to a shared edge are never in both neighbours nor in neither") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  int both = 0, neither = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const auto s = random_small_triangle(random, 0.02);
    // The neighbour across edge s0-s1: its third vertex reflected through the edge's middle.
    const Vec3 middle = normalized({s[0][0] + s[1][0], s[0][1] + s[1][1], s[0][2] + s[1][2]});
    const Vec3 opposite =
        normalized({2 * middle[0] - s[2][0], 2 * middle[1] - s[2][1], 2 * middle[2] - s[2][2]});
    const SourceTriangle first(s, {0, 1, 2});
    const SourceTriangle second({s[1], s[0], opposite}, {1, 0, 3});
    if (first.orientation() != second.orientation()) continue;
    // Points within ~1e-15 of the edge, on either side.
    const double t = 0.5 + 0.4 * uniform(random);
    const double offset = 1e-15 * uniform(random);
    Vec3 p;
    for (int c = 0; c < 3; ++c)
      p[c] = t * s[0][c] + (1 - t) * s[1][c] + offset * (s[2][c] - middle[c]);
    Barycentric w;
    const int found = int(first.locate(p, w)) + int(second.locate(p, w));
    both += found == 2;
    neither += found == 0;
  }
  CHECK(both == 0);
  CHECK(neither == 0);
}

TEST_CASE("three directions on one great circle make an invalid triangle that holds nothing") {
  const SourceTriangle flat({Vec3{1, 0, 0}, Vec3{0, 1, 0}, normalized({1, 1, 0})}, {0, 1, 2});
  CHECK_FALSE(flat.valid());
  Barycentric w;
  CHECK_FALSE(flat.locate(normalized({1, 1, 0.1}), w));
}
