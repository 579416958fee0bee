#include <doctest/doctest.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "colour/flux_unit.h"
#include "colour/planck.h"
#include "reference_integration.h"
#include "relative.h"

using namespace starlens;

TEST_CASE("pi times the frequency integral of B_nu is sigma T^4 (Stefan-Boltzmann)") {
  constexpr double kStefanBoltzmann = 5.670374419e-8;  // CODATA 2018, W m^-2 K^-4
  gsl_set_error_handler_off();
  for (double temperature : {300.0, 3000.0, 5778.0, 40000.0}) {
    // Integrate over x = h nu / k T, so the quadrature sees unit scales; the part beyond
    // x = 200 is below e^-190 of the whole.
    const double nu_per_x = kBoltzmannConstant * temperature / kPlanckConstant;
    struct Context {
      double temperature, nu_per_x;
    } context{temperature, nu_per_x};
    gsl_function integrand;
    integrand.function = [](double x, void* data) {
      const auto* ctx = static_cast<Context*>(data);
      return planck_nu_jy_per_sr(x * ctx->nu_per_x, ctx->temperature) / kJanskyPerSi *
             ctx->nu_per_x;
    };
    integrand.params = &context;
    gsl_integration_workspace* workspace = gsl_integration_workspace_alloc(2000);
    double head = 0, tail = 0, error = 0;
    gsl_integration_qag(&integrand, 1e-300, 10.0, 0, 1e-13, 2000, GSL_INTEG_GAUSS61, workspace,
                        &head, &error);
    gsl_integration_qag(&integrand, 10.0, 200.0, 0, 1e-13, 2000, GSL_INTEG_GAUSS61, workspace,
                        &tail, &error);
    gsl_integration_workspace_free(workspace);
    CHECK(std::numbers::pi * (head + tail) / (kStefanBoltzmann * std::pow(temperature, 4)) ==
          relative(1.0, 1e-9));
  }
}

TEST_CASE("B_nu has the Rayleigh-Jeans and Wien limits and agrees with the direct formula") {
  const double temperature = 5000.0;
  const double kt_over_h = kBoltzmannConstant * temperature / kPlanckConstant;
  // Rayleigh-Jeans, x = h nu / k T = 1e-6: B = 2 nu^2 k T / c^2 (1 - x/2 + ...).
  const double nu_rj = 1e-6 * kt_over_h;
  const double rayleigh_jeans = 2 * nu_rj * nu_rj * kBoltzmannConstant * temperature /
                                (kSpeedOfLight * kSpeedOfLight) * (1 - 0.5e-6);
  CHECK(planck_nu_jy_per_sr(nu_rj, temperature) / kJanskyPerSi == relative(rayleigh_jeans, 1e-12));
  // Wien, x = 60: B = 2 h nu^3 / c^2 e^-x to e^-60 relative.
  const double nu_wien = 60 * kt_over_h;
  const double wien = 2 * kPlanckConstant * std::pow(nu_wien, 3) / (kSpeedOfLight * kSpeedOfLight) *
                      std::exp(-60.0);
  CHECK(planck_nu_jy_per_sr(nu_wien, temperature) / kJanskyPerSi == relative(wien, 1e-13));
  for (double nu : {1e12, 1e14, 5.44e14, 3e15}) {
    CHECK(planck_nu_jy_per_sr(nu, temperature) ==
          relative(reference::planck_nu(nu, temperature) * 1e26, 1e-13));
  }
  // Far Wien tail underflows to 0, never to NaN.
  CHECK(planck_nu_jy_per_sr(1e16, 10.0) == 0.0);
}

TEST_CASE("K reproduces the band flux density it was made from") {
  struct Band {
    double flux_jy, wavelength_um, temperature_k;
  };
  for (const Band band : {Band{3640, 0.551, 9602}, Band{1594, 1.235, 3500},
                          Band{666.7, 2.159, 30000}, Band{1e-3, 1.662, 5778}}) {
    const double k = spectrum_scale_k(band.flux_jy, band.wavelength_um, band.temperature_k);
    const double nu = reference::c / (band.wavelength_um * 1e-6);
    CHECK(k * reference::planck_nu(nu, band.temperature_k) * 1e26 == relative(band.flux_jy, 1e-13));
  }
  CHECK(spectrum_scale_k(0.0, 0.551, 5000) == 0.0);
}

TEST_CASE("K refuses arguments that have no spectrum") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(spectrum_scale_k(-1, 0.551, 5000), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(nan, 0.551, 5000), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(inf, 0.551, 5000), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.0, 5000), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, -0.5, 5000), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.551, 0.0), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.551, -300), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.551, nan), std::domain_error);
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.551, inf), std::domain_error);
  // B_nu underflows at 0.551 um below ~40 K: K would be infinite.
  CHECK_THROWS_AS(spectrum_scale_k(1, 0.551, 20.0), std::domain_error);
}
