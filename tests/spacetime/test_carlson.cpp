// The inline Carlson R_F against published values (Carlson 1995, DLMF 19.36 examples) and
// against its own complete case, the AGM form used at the half period.
#include <doctest/doctest.h>

#include <cmath>

#include "spacetime/carlson.h"

namespace carlson = starlens::carlson;

TEST_CASE("R_F matches Carlson's test values to rounding") {
  CHECK(carlson::rf(1, 2, 0) == doctest::Approx(1.3110287771461).epsilon(1e-13));
  CHECK(carlson::rf(0.5, 1, 0) == doctest::Approx(1.8540746773014).epsilon(1e-13));
  CHECK(carlson::rf(2, 3, 4) == doctest::Approx(0.58408284167715).epsilon(1e-13));
  CHECK(carlson::rf(1, 1, 1) == 1);
  // Homogeneity of degree -1/2 over many orders of magnitude.
  for (double scale : {1e-12, 1e-4, 1e6, 1e14})
    CHECK(carlson::rf(2 * scale, 3 * scale, 4 * scale) * std::sqrt(scale) ==
          doctest::Approx(0.58408284167715).epsilon(1e-13));
  CHECK(std::isnan(carlson::rf(0, 0, 1)));  // divergent
  CHECK(std::isnan(carlson::rf(NAN, 1, 2)));
}

TEST_CASE("the AGM form of R_F(0, y, z) agrees with the duplication") {
  for (double y : {1e-12, 1e-6, 0.01, 0.3, 1.0, 7.0})
    for (double z : {1e-3, 0.5, 1.0, 40.0}) {
      INFO("y = " << y << ", z = " << z);
      CHECK(carlson::rf_complete(y, z) == doctest::Approx(carlson::rf(0, y, z)).epsilon(1e-14));
    }
}
