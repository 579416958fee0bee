#include <doctest/doctest.h>

#include <cmath>

#include "sky/frames.h"

using namespace starlens;

TEST_CASE("the galactic centre and north pole have their IAU ICRS coordinates") {
  // IAU 1958 definition in J2000/ICRS (Hipparcos realisation): galactic centre at
  // RA 266.40499 deg, Dec -28.93617 deg; north galactic pole at RA 192.85948, Dec 27.12825.
  const auto centre = angles_from_vector(galactic_to_icrs({1, 0, 0}));
  CHECK(centre[0] / kDegree == doctest::Approx(266.40499).epsilon(1e-7));
  CHECK(centre[1] / kDegree == doctest::Approx(-28.93617).epsilon(1e-6));
  const auto pole = angles_from_vector(galactic_to_icrs({0, 0, 1}));
  CHECK(pole[0] / kDegree == doctest::Approx(192.85948).epsilon(1e-7));
  CHECK(pole[1] / kDegree == doctest::Approx(27.12825).epsilon(1e-6));
}

TEST_CASE("the rotation is orthonormal and round-trips") {
  const Vec3 v = normalized({0.3, -0.7, 0.2});
  const Vec3 back = galactic_to_icrs(icrs_to_galactic(v));
  for (int i = 0; i < 3; ++i) CHECK(back[i] == doctest::Approx(v[i]).epsilon(1e-15));
  CHECK(norm(icrs_to_galactic(v)) == doctest::Approx(1.0).epsilon(1e-15));
}
