#pragma once
// An independent reference for the colour tests: CIE tristimulus integrals of any spectrum,
// computed with GSL's adaptive QAGP (Gauss-Kronrod with the 5 nm knots as break points) and
// the test's own linear interpolation of the colour-matching table, instead of the library's
// fixed Gauss-Legendre sums.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include <array>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

#include "colour/cie1931.h"

namespace reference {

// SI constants, written out here rather than taken from the library.
constexpr double h = 6.62607015e-34;
constexpr double c = 299792458.0;
constexpr double k = 1.380649e-23;

// B_nu in W m^-2 Hz^-1 sr^-1 and B_lambda in W m^-3 sr^-1 (lambda in m), direct formulas.
inline double planck_nu(double nu, double t) {
  return 2 * h * nu * nu * nu / (c * c) / (std::exp(h * nu / (k * t)) - 1);
}
inline double planck_lambda(double lambda, double t) {
  return 2 * h * c * c / std::pow(lambda, 5) / (std::exp(h * c / (lambda * k * t)) - 1);
}

// Linear interpolation of tabulated function `which` (0 x-bar, 1 y-bar, 2 z-bar) at nm.
inline double cmf(int which, double nm) {
  const auto& table = which == 0   ? starlens::cie1931::kCieXBar
                      : which == 1 ? starlens::cie1931::kCieYBar
                                   : starlens::cie1931::kCieZBar;
  const double first = starlens::cie1931::kCieStartNm;
  const double step = starlens::cie1931::kCieStepNm;
  const int last = starlens::cie1931::kCieCount - 1;
  if (nm < first || nm > first + step * last) return 0;
  int i = static_cast<int>(std::floor((nm - first) / step));
  if (i >= last) i = last - 1;
  const double lower = first + step * i;
  return table[i] * (lower + step - nm) / step + table[i + 1] * (nm - lower) / step;
}

// Integral over the table's range of spectrum(lambda_nm) * cmf(which, lambda_nm) d(lambda_nm).
inline double tristimulus(const std::function<double(double)>& spectrum_per_nm, int which) {
  gsl_set_error_handler_off();
  struct Context {
    const std::function<double(double)>* spectrum;
    int which;
  } context{&spectrum_per_nm, which};
  gsl_function integrand;
  integrand.function = [](double nm, void* data) {
    const auto* ctx = static_cast<Context*>(data);
    return (*ctx->spectrum)(nm)*cmf(ctx->which, nm);
  };
  integrand.params = &context;
  std::vector<double> knots;
  for (int i = 0; i < starlens::cie1931::kCieCount; ++i) {
    knots.push_back(starlens::cie1931::kCieStartNm + starlens::cie1931::kCieStepNm * i);
  }
  gsl_integration_workspace* workspace = gsl_integration_workspace_alloc(4000);
  double result = 0, error = 0;
  const int status = gsl_integration_qagp(&integrand, knots.data(), knots.size(), 0.0, 1e-13, 4000,
                                          workspace, &result, &error);
  gsl_integration_workspace_free(workspace);
  if (status != GSL_SUCCESS && status != GSL_EROUND) throw std::runtime_error("qagp failed");
  if (!(error <= 1e-12 * std::abs(result))) throw std::runtime_error("qagp inaccurate");
  return result;
}

// X, Y, Z of a spectrum given per unit wavelength.
inline std::array<double, 3> xyz(const std::function<double(double)>& spectrum_per_nm) {
  return {tristimulus(spectrum_per_nm, 0), tristimulus(spectrum_per_nm, 1),
          tristimulus(spectrum_per_nm, 2)};
}

// X, Y, Z (per m^2, any solid angle 1 sr) of a black body at temperature t.
inline std::array<double, 3> blackbody_xyz(double t) {
  return xyz([t](double nm) { return planck_lambda(nm * 1e-9, t) * 1e-9; });
}

}  // namespace reference
