// R_F and R_J from one duplication sequence (spacetime/carlson_fused.h) against values computed
// with mpmath's elliprf / elliprj at 40 digits (Carlson's tabulated R_J(-1 + i, -1 - i, 1, 2)
// among them), against GSL's independent implementation at random arguments over twelve decades,
// p far below x, y, z included (where 1 + e of R_J's terms is formed next to 0), and the domain.
#include <doctest/doctest.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>

#include "spacetime/carlson_fused.h"

namespace carlson = starlens::carlson;
using Complex = std::complex<double>;

namespace {

double relative(double got, double want) {
  return std::abs(got - want) / std::abs(want);
}
double relative(Complex got, Complex want) {
  return std::abs(got - want) / std::abs(want);
}

}  // namespace

TEST_CASE("carlson fused: mpmath's values, p far below x, y, z included") {
  struct Value {
    double x, y, z, p, rf, rj;
  };
  const Value values[] = {
      {13816.7, 1016.88, 9181.76, 7.65759e-06, 0.012467361408060777983, 0.000080554076697692926962},
      {17273.8, 16710.4, 520.057, 8.65734e-06, 0.010869328574228697857, 0.000072790099454849698609},
      {1e-06, 2.0, 3.0, 1e-09, 1.0006693385005298845, 5080.0441782637909263},
      {0, 1, 2, 3, 1.3110287771460599052, 0.77688623778582332014},
      {2, 3, 4, 5, 0.58408284167715170669, 0.14297579667156753833},
      {0.5, 1000.0, 7, 0.001, 0.11497340195998076664, 0.18073864524460425098},
      {1e-08, 0.3, 100000.0, 250.0, 0.024490468039421103838, 0.00015383188652749763365},
  };
  for (const Value& v : values) {
    CAPTURE(v.x);
    CAPTURE(v.p);
    const double p[2] = {v.p, 2 * v.p};
    const carlson::FusedIntegrals<double> two = carlson::rf_rj(v.x, v.y, v.z, p, 2);
    const carlson::FusedIntegrals<double> one = carlson::rf_rj(v.x, v.y, v.z, p, 1);
    CHECK(relative(two.rf, v.rf) < 2e-15);
    CHECK(relative(two.rj[0], v.rj) < 4e-15);
    CHECK(relative(one.rf, v.rf) < 2e-15);
    CHECK(relative(one.rj[0], v.rj) < 4e-15);
    CHECK(relative(carlson::rf_rj(v.x, v.y, v.z, nullptr, 0).rf, v.rf) < 2e-15);
  }
  struct ComplexValue {
    Complex x, y, z, p, rf, rj;
  };
  const ComplexValue complex_values[] = {
      {{1, 2}, {1, -2}, 3.0, 0.7, 0.69069884223149032683, 0.55901145981630577043},
      {{-1, 1}, {-1, -1}, 1.0, 2.0, 1.4053967649105420672, 0.94148358841220238083},
      {{0.2, 5},
       {0.2, -5},
       0.01,
       {0.3, 0.4},
       0.80183786412429405605,
       {0.89759961163921674002, -0.50207493977401158892}},
  };
  for (const ComplexValue& v : complex_values) {
    CAPTURE(v.x);
    const Complex p[2] = {v.p, v.p};
    const carlson::FusedIntegrals<Complex> found = carlson::rf_rj(v.x, v.y, v.z, p, 2);
    CHECK(relative(found.rf, v.rf) < 4e-15);
    CHECK(relative(found.rj[0], v.rj) < 1e-14);
    CHECK(relative(found.rj[1], v.rj) < 1e-14);
  }
}

TEST_CASE("carlson fused: agrees with GSL over twelve decades") {
  gsl_set_error_handler_off();
  std::mt19937_64 random(20261204);
  std::uniform_real_distribution<double> decade(-6, 6);
  auto draw = [&] { return std::pow(10.0, decade(random)); };
  double worst_f = 0, worst_j = 0;
  for (int i = 0; i < 20000; ++i) {
    const double x = i % 10 == 0 ? 0.0 : draw(), y = draw(), z = draw();
    // Every fourth p far below the others: R_J's first terms then have e next to -1.
    const double p[2] = {i % 4 == 0 ? 1e-7 * std::min({y, z}) : draw(), draw()};
    const carlson::FusedIntegrals<double> found = carlson::rf_rj(x, y, z, p, 2);
    gsl_sf_result f, j0, j1;
    REQUIRE(gsl_sf_ellint_RF_e(x, y, z, GSL_PREC_DOUBLE, &f) == GSL_SUCCESS);
    REQUIRE(gsl_sf_ellint_RJ_e(x, y, z, p[0], GSL_PREC_DOUBLE, &j0) == GSL_SUCCESS);
    REQUIRE(gsl_sf_ellint_RJ_e(x, y, z, p[1], GSL_PREC_DOUBLE, &j1) == GSL_SUCCESS);
    worst_f = std::max(worst_f, relative(found.rf, f.val));
    worst_j = std::max({worst_j, relative(found.rj[0], j0.val), relative(found.rj[1], j1.val)});
  }
  MESSAGE("worst relative difference from GSL: RF ", worst_f, ", RJ ", worst_j);
  CHECK(worst_f < 2e-15);
  CHECK(worst_j < 4e-15);
}

TEST_CASE("carlson fused: R_C(1, 1 + e) against its closed forms") {
  for (const double e : {1e-9, -1e-9, 3e-4, -3e-4, 5e-3, -5e-3, 0.3, 7.0, -0.3, -0.9}) {
    const double want =
        e > 0 ? std::atan(std::sqrt(e)) / std::sqrt(e) : std::atanh(std::sqrt(-e)) / std::sqrt(-e);
    CHECK(relative(carlson::rc_one(e), want) < 2e-16 * (1 + 1 / (1 - std::abs(e))));
    CHECK(relative(carlson::rc_one(Complex(e, 0)), want) < 1e-15 * (1 + 1 / (1 - std::abs(e))));
  }
}

TEST_CASE("carlson fused: NaN outside the proper real domain") {
  const double p[2] = {1, -1};
  const carlson::FusedIntegrals<double> mixed = carlson::rf_rj(1, 2, 3, p, 2);
  CHECK(std::isfinite(mixed.rf));
  CHECK(std::isfinite(mixed.rj[0]));
  CHECK(std::isnan(mixed.rj[1]));  // a principal value: complex arithmetic's case
  const double zero[1] = {0};
  CHECK(std::isnan(carlson::rf_rj(1, 2, 3, zero, 1).rj[0]));
  CHECK(std::isnan(carlson::rf_rj(0, 0, 3, p, 1).rf));
  CHECK(std::isnan(carlson::rf_rj(0, 0, 3, p, 1).rj[0]));
  CHECK(std::isnan(carlson::rf_rj(-1, 2, 3, p, 1).rf));
  CHECK(std::isnan(carlson::rf_rj(1, INFINITY, 3, p, 1).rf));
  CHECK(std::isnan(carlson::rc_one(-1.0)));
}
