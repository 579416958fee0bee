#pragma once
// CIE 1931 tristimulus integrals of a black body, integrated exactly (to rounding) over the
// colour-matching table.
//
// For temperature T the luminance integral is
//   Y(T) = integral over lambda in [360 nm, 830 nm] of B_lambda(lambda; T) y-bar(lambda) d lambda,
// with B_lambda = 2 h c^2 / lambda^5 / (exp(h c / (lambda k T)) - 1) the spectral radiance per
// unit wavelength (W m^-3 sr^-1; the CIE weights spectral power per unit wavelength) and
// y-bar the table linearly interpolated between its 5 nm entries (cie1931.h); X and Z alike.
// Y(T) is in W m^-2 sr^-1: times a solid angle (sr) it is a luminance flux per m^2, up to
// the 683 lm/W of photometry.
//
// On each 5 nm interval the colour-matching functions are linear and B_lambda is smooth, so
// each interval is integrated by fixed Gauss-Legendre quadrature (GSL's glfixed tables,
// kGaussLegendreOrder points): the quadrature error is below double rounding (tested
// against adaptive integration). Exponentials are taken relative to the 830 nm one, so no
// term under- or overflows at any positive finite temperature.
namespace starlens {

constexpr int kGaussLegendreOrder = 8;

// Tristimulus values of B_lambda(.; T) and their derivatives with respect to ln T. The
// luminance is returned as a logarithm (it spans hundreds of orders of magnitude); the
// colour as the ratios X/Y and Z/Y, which fix it at Y = 1.
struct BlackbodyTristimulus {
  double log_y;             // ln Y(T), Y(T) in W m^-2 sr^-1
  double x_over_y;          // X(T) / Y(T)
  double z_over_y;          // Z(T) / Y(T)
  double dlog_y_dlog_t;     // d ln Y / d ln T
  double dx_over_y_dlog_t;  // d (X/Y) / d ln T
  double dz_over_y_dlog_t;  // d (Z/Y) / d ln T
};

// Exact integration at temperature_k (finite, > 0; callers check).
BlackbodyTristimulus blackbody_tristimulus(double temperature_k);

}  // namespace starlens
