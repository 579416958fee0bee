#pragma once
// The flux unit of the frames ("Vega units", docs/design.md section 2) and the scale K of a star's
// modelled spectrum F_nu(nu) = K B_nu(nu; T) (docs/design.md section 4).
//
// Flux = 1 is the luminance flux of a 9602 K black body whose flux density at 0.551 um is
// 3640 Jy (a V = 0 Vega-like star), unlensed. The luminance flux of a spectrum F is
//   integral over lambda of F_lambda(lambda) y-bar(lambda) d lambda,
// F_lambda = F_nu c / lambda^2 the flux per unit wavelength, with y-bar and the integration
// rule of blackbody_tristimulus.h. For a black-body spectrum A B_nu(nu; T) that is
// A Y(T), so a star's flux in Vega units is
//   flux = A Y(T) / (K_V Y(9602 K)),  K_V = 3640 Jy / B_nu(c / 0.551 um; 9602 K).
namespace starlens {

constexpr double kVegaTemperatureK = 9602.0;
constexpr double kVegaReferenceWavelengthUm = 0.551;
constexpr double kVegaReferenceFluxJy = 3640.0;

// K (sr: the star's solid angle if it were a uniform black-body disc) of a star of
// temperature T whose flux density at its band's effective wavelength is flux_density_jy:
// K B_nu(c / lambda_eff; T) = F. Throws std::domain_error unless the arguments are finite,
// F >= 0, lambda_eff > 0, T > 0 and K is finite (B_nu does not underflow: for V, T > ~40 K).
double spectrum_scale_k(double flux_density_jy, double effective_wavelength_um,
                        double temperature_k);

// spectrum_scale_k for one band, bit for bit, with what depends only on the band (the
// frequency, h nu and the Planck prefactor) computed once: the producer asks for K of
// millions of stars of one band.
class BandSpectrumScale {
 public:
  // Throws std::domain_error unless effective_wavelength_um is finite and > 0.
  explicit BandSpectrumScale(double effective_wavelength_um);
  // Throws as spectrum_scale_k does.
  double operator()(double flux_density_jy, double temperature_k) const;

 private:
  double wavelength_um_;
  double h_nu_;              // h nu
  double jansky_prefactor_;  // Jy per SI times 2 h nu^3 / c^2
};

// K_V, the scale of the Vega-unit reference star (sr).
double vega_spectrum_scale_k();
// ln Y(9602 K) (blackbody_tristimulus.h), so flux = A / K_V * exp(ln Y(T) - ln Y(9602 K)).
double vega_log_luminance_integral();
// The unit in SI: K_V Y(9602 K) in W m^-2 (times 683 lm/W it is an illuminance in lux).
double vega_luminance_flux_si();

}  // namespace starlens
