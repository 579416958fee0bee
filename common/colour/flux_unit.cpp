#include "colour/flux_unit.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "colour/blackbody_tristimulus.h"
#include "colour/planck.h"

namespace starlens {

double spectrum_scale_k(double flux_density_jy, double effective_wavelength_um,
                        double temperature_k) {
  if (!(std::isfinite(flux_density_jy) && flux_density_jy >= 0.0 &&
        std::isfinite(effective_wavelength_um) && effective_wavelength_um > 0.0 &&
        std::isfinite(temperature_k) && temperature_k > 0.0)) {
    throw std::domain_error(
        "spectrum scale: needs finite flux density >= 0 (got " + std::to_string(flux_density_jy) +
        " Jy), wavelength > 0 (got " + std::to_string(effective_wavelength_um) +
        " um) and temperature > 0 (got " + std::to_string(temperature_k) + " K)");
  }
  const double frequency_hz = kSpeedOfLight / (effective_wavelength_um * 1e-6);
  const double k = flux_density_jy / planck_nu_jy_per_sr(frequency_hz, temperature_k);
  if (!std::isfinite(k)) {
    throw std::domain_error("spectrum scale: B_nu underflows at " +
                            std::to_string(effective_wavelength_um) +
                            " um for T = " + std::to_string(temperature_k) + " K");
  }
  return k;
}

BandSpectrumScale::BandSpectrumScale(double effective_wavelength_um)
    : wavelength_um_(effective_wavelength_um) {
  if (!(std::isfinite(effective_wavelength_um) && effective_wavelength_um > 0.0))
    spectrum_scale_k(1.0, effective_wavelength_um, 1.0);  // throws its message
  // The same expressions, in the same order, as spectrum_scale_k and planck_nu_jy_per_sr.
  const double frequency_hz = kSpeedOfLight / (effective_wavelength_um * 1e-6);
  h_nu_ = kPlanckConstant * frequency_hz;
  const double prefactor = 2.0 * kPlanckConstant * frequency_hz * frequency_hz * frequency_hz /
                           (kSpeedOfLight * kSpeedOfLight);
  jansky_prefactor_ = kJanskyPerSi * prefactor;
}

double BandSpectrumScale::operator()(double flux_density_jy, double temperature_k) const {
  if (!(std::isfinite(flux_density_jy) && flux_density_jy >= 0.0 && std::isfinite(temperature_k) &&
        temperature_k > 0.0)) {
    return spectrum_scale_k(flux_density_jy, wavelength_um_, temperature_k);  // throws
  }
  const double x = h_nu_ / (kBoltzmannConstant * temperature_k);
  const double k = flux_density_jy / (jansky_prefactor_ / std::expm1(x));
  if (!std::isfinite(k)) return spectrum_scale_k(flux_density_jy, wavelength_um_, temperature_k);
  return k;
}

double vega_spectrum_scale_k() {
  static const double k =
      spectrum_scale_k(kVegaReferenceFluxJy, kVegaReferenceWavelengthUm, kVegaTemperatureK);
  return k;
}

double vega_log_luminance_integral() {
  static const double log_y = blackbody_tristimulus(kVegaTemperatureK).log_y;
  return log_y;
}

double vega_luminance_flux_si() {
  return vega_spectrum_scale_k() * std::exp(vega_log_luminance_integral());
}

}  // namespace starlens
