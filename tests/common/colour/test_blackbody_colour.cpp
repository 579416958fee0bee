// The exact colour integration against an independent one (reference_integration.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "colour/blackbody_tristimulus.h"
#include "colour/flux_unit.h"
#include "colour/linear_srgb.h"
#include "colour/observed_colour.h"
#include "reference_integration.h"
#include "relative.h"

using namespace starlens;

namespace {
// Normalised, gamut-mapped colour and Vega-unit flux of a spectrum given per nm (reference).
StarColour reference_colour(const std::function<double(double)>& spectrum_per_nm) {
  const auto xyz = reference::xyz(spectrum_per_nm);
  const double k_vega = 3640e-26 / reference::planck_nu(reference::c / 0.551e-6, 9602.0);
  const double vega_y = k_vega * reference::blackbody_xyz(9602.0)[1];
  const LinearRgb rgb =
      desaturate_into_gamut(xyz_to_linear_srgb(xyz[0] / xyz[1], 1.0, xyz[2] / xyz[1]), 1.0);
  return {rgb.r, rgb.g, rgb.b, xyz[1] / vega_y};
}

void check_same_colour(const StarColour& got, const StarColour& want, double tolerance) {
  CHECK(got.r == doctest::Approx(want.r).epsilon(tolerance).scale(1.0));
  CHECK(got.g == doctest::Approx(want.g).epsilon(tolerance).scale(1.0));
  CHECK(got.b == doctest::Approx(want.b).epsilon(tolerance).scale(1.0));
  CHECK(got.flux == relative(want.flux, tolerance));
}
}  // namespace

TEST_CASE("5778 K, 3000 K and 20000 K black bodies match adaptive integration to 1e-9") {
  for (double temperature : {5778.0, 3000.0, 20000.0}) {
    CAPTURE(temperature);
    const double k = spectrum_scale_k(1000.0, 0.551, temperature);
    const StarColour want = reference_colour(
        [&](double nm) { return k * reference::planck_lambda(nm * 1e-9, temperature) * 1e-9; });
    const StarColour got = observed_colour_exact(temperature, k);
    check_same_colour(got, want, 1e-9);
    // The three are inside the gamut: nothing was desaturated, Y = 1 by construction.
    CHECK(std::min({got.r, got.g, got.b}) > 0);
    CHECK(luminance_of({got.r, got.g, got.b}) == doctest::Approx(1.0).epsilon(1e-14));
  }
  // Known shapes: the Sun is nearly white and slightly red, cool stars red, hot stars blue.
  const StarColour sun = observed_colour_exact(5778.0, 1.0);
  const StarColour cool = observed_colour_exact(3000.0, 1.0);
  const StarColour hot = observed_colour_exact(20000.0, 1.0);
  CHECK(sun.r > sun.g);
  CHECK(sun.g > sun.b);
  CHECK(sun.b > 0.85);
  CHECK(cool.r > 1.5 * cool.g);
  CHECK(hot.b > 1.5 * hot.r);
}

TEST_CASE(
    "the tristimulus integrals and their slopes match adaptive integration over 300 K..1e7 K") {
  for (double temperature : {300.0, 500.0, 1000.0, 2856.0, 9602.0, 1e5, 1e6, 1e7}) {
    CAPTURE(temperature);
    const auto want = reference::blackbody_xyz(temperature);
    const BlackbodyTristimulus got = blackbody_tristimulus(temperature);
    CHECK(std::abs(got.log_y - std::log(want[1])) < 1e-11);  // Y to 1e-11
    CHECK(got.x_over_y == relative(want[0] / want[1], 1e-11));
    CHECK(got.z_over_y == relative(want[2] / want[1], 1e-11));
    // Slopes in ln T against a 4th-order central difference of the reference.
    const double h = 1e-3;
    const auto at = [&](double step) {
      return reference::blackbody_xyz(temperature * std::exp(step));
    };
    const auto a = at(-2 * h), b = at(-h), c = at(h), d = at(2 * h);
    const auto slope = [&](auto f) { return (f(a) - 8 * f(b) + 8 * f(c) - f(d)) / (12 * h); };
    const double dlog_y = slope([](const auto& v) { return std::log(v[1]); });
    const double dx = slope([](const auto& v) { return v[0] / v[1]; });
    const double dz = slope([](const auto& v) { return v[2] / v[1]; });
    CHECK(got.dlog_y_dlog_t == relative(dlog_y, 1e-8));
    CHECK(got.dx_over_y_dlog_t == relative(dx, 1e-7));
    CHECK(got.dz_over_y_dlog_t == relative(dz, 1e-7));
  }
}

TEST_CASE("a 2856 K black body has the chromaticity of CIE illuminant A") {
  // CIE 15: illuminant A, x = 0.44758, y = 0.40745 (1 nm table, 300-830 nm); our 5 nm
  // table, linearly interpolated, agrees to a few 1e-5.
  const BlackbodyTristimulus a = blackbody_tristimulus(2856.0);
  const double sum = a.x_over_y + 1.0 + a.z_over_y;
  CHECK(std::abs(a.x_over_y / sum - 0.44758) < 1e-4);
  CHECK(std::abs(1.0 / sum - 0.40745) < 1e-4);
}

TEST_CASE("a lens with frequency ratio g shows the colour of g T and mu times the flux") {
  // The observed spectrum built the long way: mu K g^3 B_nu(nu / g; T) (the invariance of
  // I_nu / nu^3), per unit wavelength F_lambda = F_nu c / lambda^2.
  const double temperature = 5000.0;
  const double k = spectrum_scale_k(200.0, 1.235, temperature);
  for (double g : {0.6, 1.0, 1.2247, 1.7320}) {
    for (double mu : {0.3, 2.5}) {
      CAPTURE(g);
      CAPTURE(mu);
      const StarColour want = reference_colour([&](double nm) {
        const double lambda = nm * 1e-9;
        const double nu = reference::c / lambda;
        const double f_nu = mu * k * g * g * g * reference::planck_nu(nu / g, temperature);
        return f_nu * reference::c / (lambda * lambda) * 1e-9;
      });
      check_same_colour(observed_colour_exact(g * temperature, mu * k), want, 1e-9);
    }
  }
}
