#include "synth_colour.h"

#include <cmath>

namespace starlens::synth {
namespace {

// Second radiation constant h c / k (m K), CODATA 2018.
constexpr double kSecondRadiationConstant = 1.438776877e-2;

// Planck's spectral radiance per wavelength, up to a constant factor.
double planck(double wavelength, double kelvin) {
  return 1.0 /
         (std::pow(wavelength, 5) * std::expm1(kSecondRadiationConstant / (wavelength * kelvin)));
}

}  // namespace

Rgb blackbody_ramp_colour(double kelvin) {
  // Ratios to green keep the numbers near 1 at every temperature.
  const double green = planck(kGreenWavelength, kelvin);
  const double r = planck(kRedWavelength, kelvin) / green;
  const double b = planck(kBlueWavelength, kelvin) / green;
  const double luminance = 0.2126 * r + 0.7152 + 0.0722 * b;
  return {r / luminance, 1.0 / luminance, b / luminance};
}

}  // namespace starlens::synth
