// Carlson's real integrals (spacetime/carlson.h) against Carlson's tabulated values (B. C.
// Carlson, Numer. Algorithms 10, 13 (1995), section 3, 14 digits), closed forms, and GSL's
// independent implementation at random arguments; and the domain the functions refuse.
#include <doctest/doctest.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>

#include <cmath>
#include <numbers>
#include <random>

#include "spacetime/carlson.h"

namespace carlson = starlens::carlson;

namespace {

double relative(double got, double want) {
  return std::abs(got - want) / std::abs(want);
}

}  // namespace

TEST_CASE("carlson: Carlson's tabulated values") {
  CHECK(relative(carlson::rf(1, 2, 0), 1.3110287771461) < 1e-13);
  CHECK(relative(carlson::rf(2, 3, 4), 0.58408284167715) < 1e-13);
  CHECK(relative(carlson::rc(0, 0.25), 3.1415926535898) < 1e-13);
  CHECK(relative(carlson::rc(2.25, 2), 0.69314718055995) < 1e-13);
  CHECK(relative(carlson::rj(0, 1, 2, 3), 0.77688623778582) < 1e-13);
  CHECK(relative(carlson::rj(2, 3, 4, 5), 0.14297579667157) < 1e-13);
}

TEST_CASE("carlson: closed forms") {
  for (const double x : {1e-3, 0.5, 1.0, 7.0, 1e4}) {
    CHECK(relative(carlson::rf(x, x, x), 1 / std::sqrt(x)) < 4e-16);
    CHECK(relative(carlson::rj(x, x, x, x), std::pow(x, -1.5)) < 4e-16);
    CHECK(relative(carlson::rf_complete(x, x), std::numbers::pi / (2 * std::sqrt(x))) < 4e-16);
    const double below = x / 3, above = 3 * x;
    CHECK(relative(carlson::rc(below, x), std::acos(std::sqrt(below / x)) / std::sqrt(x - below)) <
          1e-15);
    CHECK(relative(carlson::rc(above, x), std::acosh(std::sqrt(above / x)) / std::sqrt(above - x)) <
          1e-15);
  }
}

TEST_CASE("carlson: agrees with GSL over twelve decades") {
  gsl_set_error_handler_off();
  std::mt19937_64 random(20261203);
  std::uniform_real_distribution<double> decade(-6, 6);
  auto draw = [&] { return std::pow(10.0, decade(random)); };
  double worst_f = 0, worst_j = 0, worst_c = 0;
  for (int i = 0; i < 20000; ++i) {
    const double x = i % 10 == 0 ? 0.0 : draw(), y = draw(), z = draw(), p = draw();
    gsl_sf_result f, j, c;
    REQUIRE(gsl_sf_ellint_RF_e(x, y, z, GSL_PREC_DOUBLE, &f) == GSL_SUCCESS);
    REQUIRE(gsl_sf_ellint_RJ_e(x, y, z, p, GSL_PREC_DOUBLE, &j) == GSL_SUCCESS);
    REQUIRE(gsl_sf_ellint_RC_e(x, y, GSL_PREC_DOUBLE, &c) == GSL_SUCCESS);
    worst_f = std::max(worst_f, relative(carlson::rf(x, y, z), f.val));
    worst_j = std::max(worst_j, relative(carlson::rj(x, y, z, p), j.val));
    worst_c = std::max(worst_c, relative(carlson::rc(x, y), c.val));
  }
  MESSAGE("worst relative difference from GSL: RF ", worst_f, ", RJ ", worst_j, ", RC ", worst_c);
  CHECK(worst_f < 2e-15);
  CHECK(worst_j < 4e-15);
  CHECK(worst_c < 2e-15);
}

TEST_CASE("carlson: NaN outside the proper real domain") {
  CHECK(std::isnan(carlson::rf(-1, 2, 3)));
  CHECK(std::isnan(carlson::rf(0, 0, 3)));
  CHECK(std::isnan(carlson::rf(1, NAN, 3)));
  CHECK(std::isnan(carlson::rf(1, INFINITY, 3)));
  CHECK(std::isnan(carlson::rj(1, 2, 3, -1)));  // a principal value: complex arithmetic's case
  CHECK(std::isnan(carlson::rj(1, 2, 3, 0)));
  CHECK(std::isnan(carlson::rj(0, 0, 3, 1)));
  CHECK(std::isnan(carlson::rc(1, -2)));
  CHECK(std::isnan(carlson::rc(1, 0)));
  CHECK(std::isnan(carlson::rc(-1, 2)));
}
