#include "catalog/photometry.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace starlens::catalog {

const std::vector<Band>& known_bands() {
  static const std::vector<Band> bands = {
      {"V", 0.551, 3640.0,
       "Bessell 1979, PASP 91, 589 (docs/design.md section 2: V = 0 is 3640 Jy)"},
      {"J", 1.235, 1594.0, "Cohen, Wheaton & Megeath 2003, AJ 126, 1090"},
      {"H", 1.662, 1024.0, "Cohen, Wheaton & Megeath 2003, AJ 126, 1090"},
      {"Ks", 2.159, 666.7, "Cohen, Wheaton & Megeath 2003, AJ 126, 1090"},
      {"G", 0.551, 3640.0,
       "Gaia G converted to V by the G-V relation in BP-RP of Riello et al. 2021, A&A 649, A3 "
       "(table C.2); V's zero point, Bessell 1979"},
  };
  return bands;
}

const Band& band_by_name(const std::string& name, const std::string& option) {
  std::string names;
  for (const Band& band : known_bands()) {
    if (band.name == name) return band;
    if (!names.empty()) names.append(", ");
    names.append(band.name);
  }
  throw_input_error(option, "", "unknown band '" + name + "' (known: " + names + ")");
}

double flux_density_jy(const Band& band, double magnitude) {
  return band.zero_point_jy * std::pow(10.0, -0.4 * magnitude);
}

double magnitude_from_flux(const Band& band, double flux_jy) {
  return -2.5 * std::log10(flux_jy / band.zero_point_jy);
}

namespace {

double ballesteros_temperature(double b_v) {
  return 4600.0 * (1.0 / (0.92 * b_v + 1.7) + 1.0 / (0.92 * b_v + 0.62));
}

double casagrande_temperature(double j_ks) {
  constexpr double a[6] = {0.6393, 0.6104, 0.0920, -0.0330, 0.0291, 0.0020};
  const double theta =
      a[0] + j_ks * (a[1] + j_ks * (a[2] + j_ks * (a[3] + j_ks * (a[4] + j_ks * a[5]))));
  return 5040.0 / theta;
}

double mucciarelli_temperature(double bp_rp) {
  return 5040.0 / (0.4929 + bp_rp * (0.5092 - 0.0353 * bp_rp));
}

}  // namespace

const ColourTemperatureRelation& mucciarelli2021_bp_rp() {
  static const ColourTemperatureRelation relation{"mucciarelli2021-dwarfs-bp-rp", "BP-RP", 0.39,
                                                  1.50, mucciarelli_temperature};
  return relation;
}

double gaia_g_minus_v(double c) {
  return -0.02704 + c * (0.01424 + c * (-0.2156 + c * 0.01426));
}

void GaiaGvCounts::add(const GaiaGvCounts& other) {
  converted += other.converted;
  clamped_blue += other.clamped_blue;
  clamped_red += other.clamped_red;
}

double v_from_gaia_g(double g_mag, double bp_rp, GaiaGvCounts& counts) {
  double colour = bp_rp;
  if (colour < kGaiaGvColourMin) {
    colour = kGaiaGvColourMin;
    ++counts.clamped_blue;
  } else if (colour > kGaiaGvColourMax) {
    colour = kGaiaGvColourMax;
    ++counts.clamped_red;
  } else {
    ++counts.converted;
  }
  return g_mag - gaia_g_minus_v(colour);
}

const ColourTemperatureRelation& ballesteros2012_b_v() {
  static const ColourTemperatureRelation relation{"ballesteros2012-b-v", "B-V", -0.4, 2.0,
                                                  ballesteros_temperature};
  return relation;
}

const ColourTemperatureRelation& casagrande2010_j_ks() {
  static const ColourTemperatureRelation relation{"casagrande2010-dwarfs-j-ks", "J-Ks", 0.07, 0.80,
                                                  casagrande_temperature};
  return relation;
}

void TemperatureCounts::add(const TemperatureCounts& other) {
  from_colour += other.from_colour;
  clamped_blue += other.clamped_blue;
  clamped_red += other.clamped_red;
  without_colour += other.without_colour;
  given += other.given;
}

double temperature_from_colour(const ColourTemperatureRelation& relation, double colour,
                               TemperatureCounts& counts) {
  if (!std::isfinite(colour)) {
    ++counts.without_colour;
    return kDefaultTemperatureK;
  }
  if (colour < relation.colour_min) {
    ++counts.clamped_blue;
    return relation.temperature_k(relation.colour_min);
  }
  if (colour > relation.colour_max) {
    ++counts.clamped_red;
    return relation.temperature_k(relation.colour_max);
  }
  ++counts.from_colour;
  return relation.temperature_k(colour);
}

}  // namespace starlens::catalog
