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

// V (Bessell 1979) and 2MASS J, H, Ks (Cohen, Wheaton & Megeath 2003).
const std::vector<Band>& known_bands();
// The band named `name` (case-sensitive: "V", "J", "H", "Ks"); throws InputError naming
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
