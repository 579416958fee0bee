#include "colour/observed_colour.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "colour/blackbody_tristimulus.h"
#include "colour/flux_unit.h"
#include "colour/linear_srgb.h"

namespace starlens {

void check_colour_arguments(double observed_temperature_k, double k_times_mu) {
  if (std::isfinite(observed_temperature_k) && observed_temperature_k > 0.0 &&
      std::isfinite(k_times_mu) && k_times_mu >= 0.0) {
    return;
  }
  throw std::domain_error(
      "star colour: needs a finite temperature > 0 (got " + std::to_string(observed_temperature_k) +
      " K) and a finite spectrum scale >= 0 (got " + std::to_string(k_times_mu) + " sr)");
}

StarColour observed_colour_exact(double observed_temperature_k, double k_times_mu) {
  check_colour_arguments(observed_temperature_k, k_times_mu);
  const BlackbodyTristimulus tristimulus = blackbody_tristimulus(observed_temperature_k);
  const LinearRgb unit_luminance = desaturate_into_gamut(
      xyz_to_linear_srgb(tristimulus.x_over_y, 1.0, tristimulus.z_over_y), 1.0);
  // A / K_V first, so the reference star itself comes out as exactly 1.
  const double flux = (k_times_mu / vega_spectrum_scale_k()) *
                      std::exp(tristimulus.log_y - vega_log_luminance_integral());
  if (!std::isfinite(flux)) {
    throw std::domain_error(
        "star colour: flux overflows for T = " + std::to_string(observed_temperature_k) +
        " K, A = " + std::to_string(k_times_mu) + " sr");
  }
  return {unit_luminance.r, unit_luminance.g, unit_luminance.b, flux};
}

}  // namespace starlens
