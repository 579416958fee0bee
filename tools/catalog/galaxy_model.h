#pragma once
// The synthetic Milky Way of `synth` (docs/formats/catalog.md, "synthetic catalogue"): star
// populations with a spatial density, a Ks-band luminosity function and a temperature
// relation; dust for extinction and reddening; the 2MASS-like detection limit. Plain
// functions of position and magnitude; synth_sampler.h turns them into stars.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sky/frames.h"

namespace starlens::catalog::galaxy {

// Geometry (kpc): the Sun's distance from the centre and height above the plane.
constexpr double kSunRadius = 8.2;
constexpr double kSunHeight = 0.02;

enum class Shape { thin_disc, thick_disc, bulge, halo };
enum class Kind { dwarf, giant };

struct Population {
  const char* name;
  Shape shape;
  Kind kind;
  double density_scale;  // number density of this population relative to the local thin disc
};

// Thin and thick disc (dwarfs and giants), a barred bulge, a halo.
const std::vector<Population>& populations();

// Density of a shape at a galactocentric position (kpc; x toward the Sun's opposite side,
// the Sun at (-kSunRadius, 0, kSunHeight)), 1 at the Sun for the discs.
double shape_density(Shape shape, const Vec3& galactocentric);
// All four at once (indexed by Shape), sharing the work: what the sampler calls per star.
std::array<double, 4> shape_densities(const Vec3& galactocentric);
// Dust density relative to the local value (exponential disc, scale height 0.12 kpc).
double dust_density(const Vec3& galactocentric);
// Ks extinction per kpc of local dust.
constexpr double kExtinctionKsPerKpc = 0.07;
// Reddening per magnitude of Ks extinction (Indebetouw et al. 2005: A_J/A_Ks = 2.5,
// A_H/A_Ks = 1.55).
constexpr double kReddeningJKs = 1.5;
constexpr double kReddeningHKs = 0.55;

// Galactocentric position of a heliocentric galactic unit vector at distance d (kpc).
Vec3 galactocentric(const Vec3& galactic_direction, double distance_kpc);

// Luminosity function in absolute Ks magnitude (stars per pc^3 per mag, local thin disc).
double luminosity_function(Kind kind, double absolute_ks);
constexpr double kAbsoluteMin = -8.0;
constexpr double kAbsoluteMax = 12.0;

// 2MASS-like detection in Ks: probability 1 / (1 + exp((m - kLimitKs) / kLimitWidth)).
constexpr double kLimitKs = 14.3;
constexpr double kLimitWidth = 0.15;
double detection_probability(double apparent_ks);
// Fainter than this the detection probability is negligible (< 3e-4).
constexpr double kHardLimitKs = kLimitKs + 8 * kLimitWidth;

// Effective temperature (K) of a star of a kind and absolute Ks magnitude (no scatter).
double temperature(Kind kind, double absolute_ks);
// Intrinsic colours of a temperature: J-Ks (the inverse of Casagrande et al. 2010 inside
// its range, a monotonic extension outside) and H-Ks.
double intrinsic_j_ks(double teff_k);
double intrinsic_h_ks(double j_ks);

}  // namespace starlens::catalog::galaxy
