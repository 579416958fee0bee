#pragma once
// Star photometry for the catalogue store (docs/design.md section 4): the reference band's flux
// density from a magnitude and the band's zero point, and an effective temperature from a
// colour through a published colour-temperature relation, clamped to its validity range.
#include <cstdint>
#include <string>
#include <vector>

namespace starlens::catalog {

// A photometric band: its name, effective wavelength and the flux density of magnitude 0.
struct Band {
  std::string name;
  double wavelength_um = 0;
  double zero_point_jy = 0;
  std::string reference;  // where the zero point comes from
};

// V (Bessell 1979), 2MASS J, H, Ks (Cohen, Wheaton & Megeath 2003) and Gaia G. G is not
// fixed at a wavelength of its own: a G magnitude is converted to V through the Gaia DR3 G-V
// relation in BP-RP (v_from_gaia_g), so band G carries V's wavelength and zero point and a
// store of band G holds V flux densities (docs/formats/catalog.md, "Photometry").
const std::vector<Band>& known_bands();
// The band named `name` (case-sensitive: "V", "J", "H", "Ks", "G"); throws InputError naming
// `option` and listing the known bands otherwise.
const Band& band_by_name(const std::string& name, const std::string& option);

// F = F0 * 10^(-0.4 m), in Jy.
double flux_density_jy(const Band& band, double magnitude);
// The inverse: m = -2.5 log10(F / F0).
double magnitude_from_flux(const Band& band, double flux_jy);

// A colour-temperature relation T(colour), valid for colour in [colour_min, colour_max].
// Replaceable: ingest picks one by name (the colour differs per catalogue).
struct ColourTemperatureRelation {
  std::string name;    // e.g. "casagrande2010-dwarfs-j-ks"
  std::string colour;  // e.g. "J-Ks"
  double colour_min = 0;
  double colour_max = 0;
  double (*temperature_k)(double colour) = nullptr;  // valid inside [colour_min, colour_max]
};

// Ballesteros (2012, EPL 97, 34008): T = 4600 K (1/(0.92 c + 1.7) + 1/(0.92 c + 0.62)),
// c = B-V, used for -0.4 <= B-V <= 2.0 (about 21,700 K to 3,170 K; a choice documented in
// docs/formats/catalog.md: the fit describes main-sequence blackbody-like stars).
const ColourTemperatureRelation& ballesteros2012_b_v();
// Casagrande et al. (2010, A&A 512, A54), dwarfs: 5040 K / T = sum a_i X^i, X = J-Ks,
// valid for 0.07 <= J-Ks <= 0.80 (about 7,390 K to 4,260 K).
const ColourTemperatureRelation& casagrande2010_j_ks();

// Mucciarelli, Bellazzini & Massari (2021, A&A 653, A90), dwarfs, at [Fe/H] = 0:
// 5040 K / T = 0.4929 + 0.5092 C - 0.0353 C^2, C = (BP-RP)_0, calibrated for
// 0.39 <= BP-RP <= 1.50 (about 7,350 K to 4,280 K; 1 sigma 61 K).
const ColourTemperatureRelation& mucciarelli2021_bp_rp();

// Gaia DR3 G - V as a function of BP-RP (Riello et al. 2021, A&A 649, A3, table C.2:
// G - V = -0.02704 + 0.01424 C - 0.2156 C^2 + 0.01426 C^3, scatter 0.03017 mag), valid for
// -0.5 < BP-RP < 5.0 (table C.1).
constexpr double kGaiaGvColourMin = -0.5;
constexpr double kGaiaGvColourMax = 5.0;
double gaia_g_minus_v(double bp_rp);

// Counts of the G -> V conversion: colours outside the G-V relation's range use its end.
struct GaiaGvCounts {
  std::uint64_t converted = 0;
  std::uint64_t clamped_blue = 0;  // BP-RP < -0.5: G - V of -0.5
  std::uint64_t clamped_red = 0;   // BP-RP > 5.0: G - V of 5.0
  void add(const GaiaGvCounts& other);
};
// V = G - (G-V)(BP-RP), BP-RP clamped to the relation's range and the clamp counted.
double v_from_gaia_g(double g_mag, double bp_rp, GaiaGvCounts& counts);

// Counts kept for the manifest: how many temperatures needed the relation's clamp.
struct TemperatureCounts {
  std::uint64_t from_colour = 0;     // colour inside the validity range
  std::uint64_t clamped_blue = 0;    // colour below colour_min: T of colour_min
  std::uint64_t clamped_red = 0;     // colour above colour_max: T of colour_max
  std::uint64_t without_colour = 0;  // no usable colour: the default temperature
  std::uint64_t given = 0;           // temperature given by the input (CSV teff)
  void add(const TemperatureCounts& other);
};

// T(colour) with the colour clamped to the relation's range; the clamp is counted. A
// non-finite colour gives kDefaultTemperatureK, counted as without_colour.
double temperature_from_colour(const ColourTemperatureRelation& relation, double colour,
                               TemperatureCounts& counts);

// Used when a star has no usable colour (a documented choice: the Sun's 5772 K).
constexpr double kDefaultTemperatureK = 5772.0;

}  // namespace starlens::catalog
