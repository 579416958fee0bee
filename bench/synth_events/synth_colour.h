#pragma once
// A plausible star colour for synthetic events: a black body of temperature T sampled at
// three wavelengths standing for sRGB's red, green and blue, normalised to luminance
// Y = 0.2126 r + 0.7152 g + 0.0722 b = 1. Not a colorimetric conversion (the producer's
// colour module does that); it only has to look like stars and keep every channel >= 0.
namespace starlens::synth {

struct Rgb {
  double r;
  double g;
  double b;
};

// Wavelengths (m) that stand for the three channels.
constexpr double kRedWavelength = 610e-9;
constexpr double kGreenWavelength = 550e-9;
constexpr double kBlueWavelength = 465e-9;

// Colour of a black body at `kelvin` (> 0), Y = 1, all channels > 0.
Rgb blackbody_ramp_colour(double kelvin);

}  // namespace starlens::synth
