// The synthetic generator's variates and colours against closed forms and numerical
// integrals computed here, not against the generator's own formulas.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "synth_colour.h"
#include "synth_random.h"

using namespace starlens::synth;

namespace {

// Fraction of dN/dF ~ F^-slope on [low, high] above `threshold`, by Simpson's rule in ln F
// (a second method to the generator's inverse CDF).
double integrated_fraction_above(double low, double high, double slope, double threshold) {
  auto mass = [slope](double from, double to) {
    constexpr int kIntervals = 20000;  // even
    const double a = std::log(from);
    const double h = (std::log(to) - a) / kIntervals;
    double sum = 0;
    for (int i = 0; i <= kIntervals; ++i) {
      const double weight = (i == 0 || i == kIntervals) ? 1 : (i % 2 ? 4 : 2);
      const double f = std::exp(a + i * h);
      sum += weight * std::pow(f, 1 - slope);  // dN = F^-slope dF = F^(1-slope) d ln F
    }
    return sum * h / 3;
  };
  return mass(threshold, high) / mass(low, high);
}

// |observed - expected| within `sigmas` binomial standard deviations over n trials.
bool within_binomial(double observed, double expected, std::size_t n, double sigmas = 5) {
  const double sd = std::sqrt(expected * (1 - expected) / double(n));
  return std::abs(observed - expected) <= sigmas * sd + 1e-12;
}

}  // namespace

TEST_CASE("uniform variates stay in their intervals and are deterministic per seed") {
  SynthRandom a(42), b(42), c(43);
  double low = 1, high = 0, sum = 0;
  bool same = true, differs = false;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const double u = a.uniform();
    const double v = b.uniform();
    same = same && u == v;
    differs = differs || u != c.uniform();
    low = std::min(low, u);
    high = std::max(high, u);
    sum += u;
  }
  CHECK(same);
  CHECK(differs);
  CHECK(low >= 0);
  CHECK(high < 1);
  CHECK(std::abs(sum / kDraws - 0.5) < 5 * std::sqrt(1.0 / 12 / kDraws));
  SynthRandom d(1);
  bool positive_in_range = true;
  for (int i = 0; i < kDraws; ++i) {
    const double u = d.uniform_positive();
    positive_in_range = positive_in_range && u > 0 && u <= 1;
  }
  CHECK(positive_in_range);
}

TEST_CASE("the generator is mt19937_64: its 10000th output is the standard's value") {
  // C++ [rand.predef]: the 10000th output of a default-seeded mt19937_64 is
  // 9981545732273789042; our uniform() must be built on exactly that engine.
  std::mt19937_64 engine;
  engine.discard(9999);
  CHECK(engine() == 9981545732273789042ull);
  SynthRandom random(std::mt19937_64::default_seed);
  for (int i = 0; i < 9999; ++i) random.uniform();
  CHECK(random.uniform() == double(9981545732273789042ull >> 11) * 0x1.0p-53);
}

TEST_CASE("normal variates: mean, variance and the one-sigma fraction") {
  SynthRandom random(7);
  constexpr int kDraws = 200000;
  double sum = 0, sum2 = 0;
  int inside = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double z = random.normal();
    sum += z;
    sum2 += z * z;
    inside += std::abs(z) < 1;
  }
  CHECK(std::abs(sum / kDraws) < 5 / std::sqrt(double(kDraws)));
  CHECK(std::abs(sum2 / kDraws - 1) < 5 * std::sqrt(2.0 / kDraws));
  CHECK(within_binomial(double(inside) / kDraws, std::erf(1 / std::sqrt(2.0)), kDraws));
}

TEST_CASE("power-law fluxes follow dN/dF ~ F^-a (fractions against a numerical integral)") {
  for (const double slope : {1.8, 1.0, 2.5}) {
    CAPTURE(slope);
    SynthRandom random(11);
    constexpr double kLow = 1e-6, kHigh = 100;
    constexpr int kDraws = 200000;
    std::vector<double> fluxes(kDraws);
    for (auto& flux : fluxes) flux = random.power_law(kLow, kHigh, slope);
    CHECK(*std::min_element(fluxes.begin(), fluxes.end()) >= kLow);
    CHECK(*std::max_element(fluxes.begin(), fluxes.end()) <= kHigh);
    for (const double threshold : {2e-6, 1e-5, 1e-4, 1e-2, 1.0}) {
      CAPTURE(threshold);
      const double observed =
          double(std::count_if(fluxes.begin(), fluxes.end(),
                               [threshold](double f) { return f >= threshold; })) /
          kDraws;
      const double expected = integrated_fraction_above(kLow, kHigh, slope, threshold);
      CHECK(within_binomial(observed, expected, kDraws));
      CHECK(power_law_fraction_above(kLow, kHigh, slope, threshold) ==
            doctest::Approx(expected).epsilon(1e-9));
    }
  }
}

TEST_CASE("black-body ramp colours: Y = 1, positive, and the Rayleigh-Jeans and Wien limits") {
  double previous_blue_over_red = 0;
  for (double kelvin = 1000; kelvin <= 1e6; kelvin *= 1.5) {
    CAPTURE(kelvin);
    const Rgb c = blackbody_ramp_colour(kelvin);
    CHECK(0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b == doctest::Approx(1).epsilon(1e-14));
    CHECK(c.r > 0);
    CHECK(c.g > 0);
    CHECK(c.b > 0);
    CHECK(c.b / c.r > previous_blue_over_red);  // hotter is bluer
    previous_blue_over_red = c.b / c.r;
  }
  // Hot limit: B ~ lambda^-4, so blue/red -> (610/465)^4; the correction is O(hc/(lambda k T)).
  const Rgb hot = blackbody_ramp_colour(1e9);
  CHECK(hot.b / hot.r == doctest::Approx(std::pow(610.0 / 465.0, 4)).epsilon(1e-4));
  // Cool limit (Wien): B ~ lambda^-5 exp(-hc/(lambda k T)).
  const double c2 = 1.438776877e-2, kelvin = 1000;
  const Rgb cool = blackbody_ramp_colour(kelvin);
  const double wien =
      std::pow(610.0 / 465.0, 5) * std::exp(-c2 / kelvin * (1 / 465e-9 - 1 / 610e-9));
  CHECK(cool.b / cool.r == doctest::Approx(wien).epsilon(1e-8));
}
