// The fast table in ln T against exact integration.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "colour/colour_table.h"
#include "colour/linear_srgb.h"
#include "colour/observed_colour.h"

using namespace starlens;

namespace {
// Budget for the shared table's worst relative error (measured 4.8e-9 with 64 nodes per
// e-fold, worst at the cool end; docs/accuracy/colour.md).
constexpr double kTableErrorBudget = 1e-8;

double relative_error(const StarColour& fast, const StarColour& exact) {
  const double brightest = std::max({exact.r, exact.g, exact.b});
  const double colour = std::max({std::abs(fast.r - exact.r), std::abs(fast.g - exact.g),
                                  std::abs(fast.b - exact.b)}) /
                        brightest;
  const double flux =
      exact.flux == 0 ? std::abs(fast.flux) : std::abs(fast.flux - exact.flux) / exact.flux;
  return std::max(colour, flux);
}
}  // namespace

TEST_CASE("the table's measured worst error is within budget and covers every interval") {
  const ColourTableAccuracy& accuracy = colour_table_accuracy();
  MESSAGE("colour table worst relative error " << accuracy.max_relative_error << " at "
                                               << accuracy.worst_temperature_k << " K");
  CHECK(accuracy.max_relative_error <= kTableErrorBudget);
  CHECK(accuracy.max_relative_error > 0);  // a measurement, not a constant
  CHECK(accuracy.max_relative_error ==
        std::max(accuracy.max_colour_error, accuracy.max_flux_error));
  CHECK(accuracy.samples == 7L * ColourTable::shared().intervals());
  CHECK(colour_table_max_relative_error() == accuracy.max_relative_error);
  CHECK(ColourTable::shared().first_temperature_k() == ColourTable::kFirstTemperatureK);
  CHECK(ColourTable::shared().last_temperature_k() >= ColourTable::kLastTemperatureK);
}

TEST_CASE("random temperatures stay within the recorded bound") {
  const ColourTable& table = ColourTable::shared();
  const double bound = colour_table_max_relative_error();
  std::mt19937_64 random(20261129);
  std::uniform_real_distribution<double> log_temperature(std::log(table.first_temperature_k()),
                                                         std::log(table.last_temperature_k()));
  std::uniform_real_distribution<double> log_scale(-40.0, 5.0);
  double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    const double temperature = std::exp(log_temperature(random));
    const double scale = std::exp(log_scale(random));
    worst = std::max(worst, relative_error(table.lookup(temperature, scale),
                                           observed_colour_exact(temperature, scale)));
  }
  MESSAGE("worst over 3000 random lookups " << worst);
  CHECK(worst <= 1.05 * bound + 1e-15);
  // Sun, cool and hot star, and Vega through the table.
  for (double temperature : {5778.0, 3000.0, 20000.0, 9602.0}) {
    CHECK(relative_error(observed_colour(temperature, 1.0),
                         observed_colour_exact(temperature, 1.0)) <= bound);
  }
}

TEST_CASE("the error falls as h^4: it is interpolation error, not noise") {
  const double coarse = ColourTable(16).measure_accuracy().max_relative_error;
  const double fine = ColourTable(32).measure_accuracy().max_relative_error;
  CHECK(coarse / fine > 12);
  CHECK(coarse / fine < 20);
}

TEST_CASE("outside the table's range lookups are exact") {
  const ColourTable& table = ColourTable::shared();
  for (double temperature : {1.0, 100.0, 499.0, 1.01e6 * std::exp(1.0 / 64), 1e8, 1e12}) {
    const StarColour fast = table.lookup(temperature, 2.0);
    const StarColour exact = observed_colour_exact(temperature, 2.0);
    CHECK(fast.r == exact.r);
    CHECK(fast.g == exact.g);
    CHECK(fast.b == exact.b);
    CHECK(fast.flux == exact.flux);
  }
}

TEST_CASE("lookup_flux is lookup's flux bit for bit, in and outside the table's range") {
  const ColourTable& table = ColourTable::shared();
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> log10_t(0.0, 12.0), log10_k(-30.0, 10.0);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const double temperature = std::pow(10.0, log10_t(random));
    const double k = i % 100 == 0 ? 0.0 : std::pow(10.0, log10_k(random));
    const double flux = table.lookup(temperature, k).flux;
    CHECK(table.lookup_flux(temperature, k) == flux);
    CHECK(observed_flux(temperature, k) == observed_colour(temperature, k).flux);
    ++compared;
  }
  CHECK(compared == 20000);
  CHECK_THROWS_AS(table.lookup_flux(-1.0, 1.0), std::domain_error);
  CHECK_THROWS_AS(table.lookup_flux(5000.0, -1.0), std::domain_error);
}

TEST_CASE("every output is finite and non-negative, with Y = 1, from 1 K to 1e12 K") {
  const ColourTable& table = ColourTable::shared();
  for (double log10_t = 0.0; log10_t <= 12.0; log10_t += 0.01) {
    const double temperature = std::pow(10.0, log10_t);
    for (double scale : {0.0, 1e-30, 1.0, 1e10}) {
      for (const StarColour c :
           {table.lookup(temperature, scale), observed_colour_exact(temperature, scale)}) {
        CAPTURE(temperature);
        CAPTURE(scale);
        REQUIRE(std::isfinite(c.r));
        REQUIRE(std::isfinite(c.g));
        REQUIRE(std::isfinite(c.b));
        REQUIRE(std::isfinite(c.flux));
        REQUIRE(c.r >= 0);
        REQUIRE(c.g >= 0);
        REQUIRE(c.b >= 0);
        REQUIRE(c.flux >= 0);
        REQUIRE(luminance_of({c.r, c.g, c.b}) == doctest::Approx(1.0).epsilon(1e-12));
        if (scale == 0) REQUIRE(c.flux == 0);
      }
    }
  }
}

TEST_CASE("invalid temperatures and scales are refused, not turned into colours") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const ColourTable& table = ColourTable::shared();
  for (double temperature : {0.0, -5000.0, nan, inf, -inf}) {
    CHECK_THROWS_AS(observed_colour_exact(temperature, 1.0), std::domain_error);
    CHECK_THROWS_AS(table.lookup(temperature, 1.0), std::domain_error);
  }
  for (double scale : {-1.0, -1e-300, nan, inf}) {
    CHECK_THROWS_AS(observed_colour_exact(5000.0, scale), std::domain_error);
    CHECK_THROWS_AS(table.lookup(5000.0, scale), std::domain_error);
  }
  // A flux that overflows double is refused too.
  CHECK_THROWS_AS(observed_colour_exact(1e300, 1.0), std::domain_error);
  CHECK_THROWS_AS(table.lookup(5000.0, 1e308), std::domain_error);
  CHECK_THROWS_AS(ColourTable(0), std::invalid_argument);
}
