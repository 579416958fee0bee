// The Vega flux unit (docs/design.md section 2).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "colour/colour_table.h"
#include "colour/flux_unit.h"
#include "colour/observed_colour.h"
#include "reference_integration.h"
#include "relative.h"

using namespace starlens;

TEST_CASE("a 9602 K black body of 3640 Jy at 0.551 um has flux 1 exactly") {
  const double k = spectrum_scale_k(3640.0, 0.551, 9602.0);
  CHECK(observed_colour_exact(9602.0, k).flux == 1.0);
  const double bound = colour_table_max_relative_error();
  CHECK(std::abs(observed_colour(9602.0, k).flux - 1.0) <= bound);
}

TEST_CASE("flux follows magnitudes: V = 5 is 1/100 of V = 0") {
  for (double temperature : {3500.0, 9602.0, 25000.0}) {
    const double k0 = spectrum_scale_k(3640.0, 0.551, temperature);
    const double k5 = spectrum_scale_k(3640.0 * std::pow(10.0, -0.4 * 5), 0.551, temperature);
    CHECK(observed_colour_exact(temperature, k5).flux /
              observed_colour_exact(temperature, k0).flux ==
          relative(0.01, 1e-14));
  }
}

TEST_CASE("a star's flux is its luminance integral over Vega's, computed independently") {
  struct Star {
    double flux_jy, wavelength_um, temperature_k;
  };
  const double vega_k = 3640e-26 / reference::planck_nu(reference::c / 0.551e-6, 9602.0);
  const double vega_y = vega_k * reference::blackbody_xyz(9602.0)[1];
  for (const Star star : {Star{100.0, 1.235, 5778.0}, Star{3.2, 2.159, 3100.0},
                          Star{0.02, 0.551, 15000.0}, Star{1594.0, 1.235, 9602.0}}) {
    CAPTURE(star.temperature_k);
    const double k_si =
        star.flux_jy * 1e-26 /
        reference::planck_nu(reference::c / (star.wavelength_um * 1e-6), star.temperature_k);
    const double want = k_si * reference::blackbody_xyz(star.temperature_k)[1] / vega_y;
    const double k = spectrum_scale_k(star.flux_jy, star.wavelength_um, star.temperature_k);
    CHECK(observed_colour_exact(star.temperature_k, k).flux == relative(want, 1e-10));
  }
}

TEST_CASE("the Vega unit is Vega's luminance flux in SI") {
  // K_V Y(9602 K) computed here by adaptive integration.
  const double vega_k = 3640e-26 / reference::planck_nu(reference::c / 0.551e-6, 9602.0);
  const double want = vega_k * reference::blackbody_xyz(9602.0)[1];
  CHECK(vega_luminance_flux_si() == relative(want, 1e-11));
  CHECK(vega_spectrum_scale_k() == relative(vega_k, 1e-13));
}

TEST_CASE("BandSpectrumScale is spectrum_scale_k bit for bit, errors included") {
  std::mt19937_64 random(23);
  std::uniform_real_distribution<double> log10_t(1.0, 7.0), log10_f(-12.0, 4.0);
  for (const double wavelength : {0.44, 0.551, 1.235, 2.159}) {
    const BandSpectrumScale scale(wavelength);
    for (int i = 0; i < 5000; ++i) {
      const double temperature = std::pow(10.0, log10_t(random));
      const double flux = i % 50 == 0 ? 0.0 : std::pow(10.0, log10_f(random));
      bool threw = false;
      double expected = 0;
      try {
        expected = spectrum_scale_k(flux, wavelength, temperature);
      } catch (const std::domain_error&) {
        threw = true;
      }
      if (threw) {
        CHECK_THROWS_AS(scale(flux, temperature), std::domain_error);
      } else {
        CHECK(scale(flux, temperature) == expected);
      }
    }
    // B_nu underflows for very cool stars: both refuse them.
    CHECK_THROWS_AS(scale(1.0, 1.0), std::domain_error);
    CHECK_THROWS_AS(scale(-1.0, 5000.0), std::domain_error);
    CHECK_THROWS_AS(scale(1.0, std::nan("")), std::domain_error);
  }
  CHECK_THROWS_AS(BandSpectrumScale(0.0), std::domain_error);
  CHECK_THROWS_AS(BandSpectrumScale(-1.0), std::domain_error);
}
