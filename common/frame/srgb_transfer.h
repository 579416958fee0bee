#pragma once
// The sRGB transfer curve (IEC 61966-2-1 opto-electronic transfer function) and the 8-bit
// quantisation of the frame PNGs (the sRGB colour space itself: colour/linear_srgb.h).
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace starlens {

// Linear [0, 1] -> encoded [0, 1]: the piecewise curve, linear segment below 0.0031308.
inline double srgb_encode(double linear) {
  return linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

// value / exposure clamped to [0, 1], encoded, scaled to 255 and rounded to nearest.
inline std::uint8_t srgb_byte(double value, double exposure) {
  const double linear = std::clamp(value / exposure, 0.0, 1.0);
  return static_cast<std::uint8_t>(std::lround(255.0 * srgb_encode(linear)));
}

}  // namespace starlens
