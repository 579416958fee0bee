#pragma once
// Linear sRGB (IEC 61966-2-1: Rec.709 primaries, D65 white) and CIE XYZ, and the gamut
// mapping used for colours no sRGB triple can show (the transfer curve of the PNGs:
// frame/srgb_transfer.h).
#include <algorithm>
#include <array>

namespace starlens {

using Matrix3 = std::array<std::array<double, 3>, 3>;

struct LinearRgb {
  double r;
  double g;
  double b;
};

// linear sRGB -> XYZ, derived from the standard's chromaticities (R 0.64,0.33; G 0.30,0.60;
// B 0.15,0.06; white D65 0.3127,0.3290) so that R = G = B = 1 is the D65 white with Y = 1
// exactly. The 4-digit matrices printed in IEC 61966-2-1 are roundings of these.
const Matrix3& linear_srgb_to_xyz_matrix();
// Its inverse, XYZ -> linear sRGB.
const Matrix3& xyz_to_linear_srgb_matrix();

LinearRgb xyz_to_linear_srgb(double x, double y, double z);
// CIE luminance Y of a linear sRGB triple (the middle row of linear_srgb_to_xyz_matrix()).
double luminance_of(const LinearRgb& rgb);

// Brings a colour with a negative channel into the gamut while keeping its luminance Y:
// mixes it with the grey of the same luminance, c' = (1 - s) c + s (Y, Y, Y), with the
// smallest s in [0, 1] that makes every channel >= 0 (so the most negative channel becomes
// exactly 0, the hue is kept, and the saturation is reduced as little as possible).
// In-gamut colours are returned unchanged; a colour with Y <= 0 becomes black.
LinearRgb desaturate_into_gamut(const LinearRgb& rgb);
// The same for a colour whose luminance is already known (the colour tables' hot path).
inline LinearRgb desaturate_into_gamut(const LinearRgb& rgb, double luminance) {
  const double lowest = std::min({rgb.r, rgb.g, rgb.b});
  if (lowest >= 0.0) return rgb;
  if (!(luminance > 0.0)) return {0.0, 0.0, 0.0};
  // (1 - s) lowest + s Y = 0; Y > 0 > lowest, so 0 < s < 1.
  const double s = -lowest / (luminance - lowest);
  const auto mix = [&](double channel) {
    return std::max(0.0, channel + s * (luminance - channel));  // max: rounding only
  };
  return {mix(rgb.r), mix(rgb.g), mix(rgb.b)};
}

}  // namespace starlens
