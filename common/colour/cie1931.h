#pragma once
// The CIE 1931 2-degree colour-matching functions x-bar, y-bar, z-bar, embedded as data
// (tabulated at 5 nm from 360 to 830 nm; see cie1931_2deg.inc for the source and its hash).
// Between the tabulated wavelengths the functions are taken as linear, and zero outside the
// table: that piecewise-linear function is what the colour integrals integrate exactly.
#include <array>

namespace starlens {

namespace cie1931 {
#include "colour/cie1931_2deg.inc"
}  // namespace cie1931

struct ColourMatch {
  double x_bar;
  double y_bar;
  double z_bar;
};

// Tabulated wavelength of entry i (nm).
constexpr double cie_wavelength_nm(int i) {
  return cie1931::kCieStartNm + cie1931::kCieStepNm * i;
}
constexpr double cie_first_nm() {
  return cie1931::kCieStartNm;
}
constexpr double cie_last_nm() {
  return cie_wavelength_nm(cie1931::kCieCount - 1);
}

// The piecewise-linear colour-matching functions at wavelength (nm); zero outside the table.
ColourMatch colour_match_at(double wavelength_nm);

}  // namespace starlens
