#pragma once
// Colour and flux of a star image (docs/design.md section 5), by exact integration.
//
// A star of temperature T and modelled spectrum F_nu(nu) = K B_nu(nu; T) (flux_unit.h),
// seen through a lens-map triangle of magnification mu and frequency ratio g = nu_obs/nu_emit,
// is observed with the spectrum
//   F_obs(nu) = mu K B_nu(nu; g T).
// Why this holds, g^3 and g^4 included: I_nu / nu^3 is invariant along a ray, so the observed
// specific intensity is I_obs(nu) = g^3 B_nu(nu / g; T); since B_nu(nu; T) = 2 h nu^3 / c^2 /
// (exp(h nu / k T) - 1), g^3 B_nu(nu / g; T) = B_nu(nu; g T) exactly. Lensing conserves
// surface brightness, so the image's solid angle is mu times the unlensed one (K), giving
// the flux density above. Integrated over frequency, B_nu(.; g T) carries (g T)^4: the g^4 of
// the bolometric intensity (g^3 from the invariant, one more g from d nu) is already in it,
// as is the g^3 of the specific intensity. The colour is therefore that of a black body at the
// observed temperature T' = g T, and the flux scales with A = mu K.
namespace starlens {

// The colour of an event: linear sRGB normalised to luminance Y = 1 (out-of-gamut colours
// desaturated toward their own Y, linear_srgb.h), and the flux: Y in Vega units (flux_unit.h).
// Every member is finite and >= 0.
struct StarColour {
  double r;
  double g;
  double b;
  double flux;
};

// Colour of a black body at observed_temperature_k (T' = g T) with spectrum scale
// k_times_mu (A = mu K, sr), by exact integration (blackbody_tristimulus.h): ~30 us a call.
// Throws std::domain_error unless T' is finite and > 0 and A finite and >= 0, or if the flux
// overflows (absurd A or T'). Callers inside OpenMP regions must catch.
StarColour observed_colour_exact(double observed_temperature_k, double k_times_mu);

// Throws std::domain_error naming the values unless they are valid arguments above.
void check_colour_arguments(double observed_temperature_k, double k_times_mu);

}  // namespace starlens
