#include "galaxy_model.h"

#include <algorithm>
#include <cmath>

#include "catalog/photometry.h"

namespace starlens::catalog::galaxy {
namespace {

// Piecewise-linear interpolation in a table of (x, y) with x increasing; clamped ends.
double interpolate(const std::vector<std::array<double, 2>>& table, double x) {
  if (x <= table.front()[0]) return table.front()[1];
  if (x >= table.back()[0]) return table.back()[1];
  const auto upper = std::upper_bound(
      table.begin(), table.end(), x,
      [](double value, const std::array<double, 2>& row) { return value < row[0]; });
  const auto& [x1, y1] = *upper;
  const auto& [x0, y0] = *(upper - 1);
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// Main-sequence Ks luminosity function, log10(stars pc^-3 mag^-1): a smooth curve through
// the shape of the local K-band function (few hot stars, a broad M-dwarf peak).
const std::vector<std::array<double, 2>> kDwarfLogLf = {
    {-4, -7.2}, {-3, -6.2}, {-1, -5.0}, {0, -4.3}, {1, -3.6}, {2, -3.1},  {3, -2.7}, {4, -2.4},
    {5, -2.1},  {6, -1.8},  {7, -1.6},  {8, -1.6}, {9, -1.7}, {10, -2.0}, {12, -2.7}};

// Main-sequence temperature against absolute Ks.
const std::vector<std::array<double, 2>> kDwarfTemperature = {
    {-4, 30000}, {-2.5, 20000}, {-1, 13000}, {0, 10000},  {1, 8500},  {2, 7000},
    {3, 6000},   {3.3, 5780},   {4, 5100},   {4.5, 4600}, {5, 4100},  {5.5, 3800},
    {6, 3600},   {7, 3400},     {8, 3100},   {9, 2900},   {10, 2700}, {12, 2400}};

// Red-giant branch: cooler as it gets brighter.
const std::vector<std::array<double, 2>> kGiantTemperature = {{-7, 3400}, {-6, 3600}, {-5, 3800},
                                                              {-4, 4000}, {-3, 4200}, {-1.6, 4650},
                                                              {0, 4750},  {1.5, 5000}};

// The discs' central hole, where the bar takes over (Freudenreich 1998: radius 3.3 kpc,
// index 3), normalised to 1 at the Sun.
double disc_hole(double radius) {
  auto hole = [](double r) {
    const double x = r / 3.3;
    return 1.0 - std::exp(-x * x * x);
  };
  static const double at_sun = hole(kSunRadius);
  return hole(radius) / at_sun;
}

double casagrande_temperature(double j_ks) {
  return casagrande2010_j_ks().temperature_k(j_ks);
}

}  // namespace

const std::vector<Population>& populations() {
  // Thick disc 12% of the local thin disc (Juric et al. 2008); halo 0.5%; the bar's central
  // density (8x the local disc) is set so that the density of detected stars within 5 deg of
  // the centre is about 75x that at |b| > 70 deg (the issue asks for 50-100x; tested).
  static const std::vector<Population> list = {
      {"thin disc dwarfs", Shape::thin_disc, Kind::dwarf, 1.0},
      {"thin disc giants", Shape::thin_disc, Kind::giant, 1.0},
      {"thick disc dwarfs", Shape::thick_disc, Kind::dwarf, 0.12},
      {"thick disc giants", Shape::thick_disc, Kind::giant, 0.12},
      {"bulge dwarfs", Shape::bulge, Kind::dwarf, 8.0},
      {"bulge giants", Shape::bulge, Kind::giant, 8.0},
      {"halo", Shape::halo, Kind::giant, 0.005},
      {"halo dwarfs", Shape::halo, Kind::dwarf, 0.005},
  };
  return list;
}

Vec3 galactocentric(const Vec3& direction, double distance_kpc) {
  return {distance_kpc * direction[0] - kSunRadius, distance_kpc * direction[1],
          distance_kpc * direction[2] + kSunHeight};
}

std::array<double, 4> shape_densities(const Vec3& p) {
  const double radius = std::hypot(p[0], p[1]);
  const double height = std::fabs(p[2]);
  const double hole = disc_hole(radius);
  std::array<double, 4> density{};
  // Discs (Juric et al. 2008): thin 2.6 kpc long, 0.3 kpc high; thick 3.6 and 0.9 kpc.
  density[static_cast<int>(Shape::thin_disc)] =
      std::exp(-(radius - kSunRadius) / 2.6 - (height - kSunHeight) / 0.3) * hole;
  density[static_cast<int>(Shape::thick_disc)] =
      std::exp(-(radius - kSunRadius) / 3.6 - (height - kSunHeight) / 0.9) * hole;
  // An exponential bar (1.0 x 0.4 x 0.3 kpc), 27 deg from the Sun-centre line.
  constexpr double kCos = 0.8910065241883679, kSin = 0.45399049973954675;  // of 27 deg
  const double along = (p[0] * kCos + p[1] * kSin) / 1.0;
  const double across = (-p[0] * kSin + p[1] * kCos) / 0.4;
  const double up = p[2] / 0.3;
  density[static_cast<int>(Shape::bulge)] =
      std::exp(-std::sqrt(along * along + across * across + up * up));
  // A halo falling as r^-2.8, flattened 0.7, cored at 2 kpc.
  const double flattened = p[2] / 0.7;
  const double r = std::max(2.0, std::sqrt(radius * radius + flattened * flattened));
  density[static_cast<int>(Shape::halo)] = std::pow(r / kSunRadius, -2.8);
  return density;
}

double shape_density(Shape shape, const Vec3& p) {
  return shape_densities(p)[static_cast<int>(shape)];
}

double dust_density(const Vec3& p) {
  const double radius = std::hypot(p[0], p[1]);
  return std::exp(-(radius - kSunRadius) / 3.2 - (std::fabs(p[2]) - kSunHeight) / 0.12);
}

double luminosity_function(Kind kind, double absolute_ks) {
  if (absolute_ks < kAbsoluteMin || absolute_ks > kAbsoluteMax) return 0;
  if (kind == Kind::dwarf) return std::pow(10.0, interpolate(kDwarfLogLf, absolute_ks));
  // Giants: the red-giant branch (rising toward fainter stars) and the red clump.
  if (absolute_ks > 1.5) return 0;
  const double branch = std::pow(10.0, -4.5 + 0.3 * absolute_ks);
  const double clump = 1.2e-4 * std::exp(-0.5 * std::pow((absolute_ks + 1.6) / 0.25, 2));
  return branch + clump;
}

double detection_probability(double apparent_ks) {
  return 1.0 / (1.0 + std::exp((apparent_ks - kLimitKs) / kLimitWidth));
}

double temperature(Kind kind, double absolute_ks) {
  return interpolate(kind == Kind::dwarf ? kDwarfTemperature : kGiantTemperature, absolute_ks);
}

double intrinsic_j_ks(double teff_k) {
  const auto& relation = casagrande2010_j_ks();
  const double hot_end = casagrande_temperature(relation.colour_min);   // ~7390 K
  const double cool_end = casagrande_temperature(relation.colour_max);  // ~4260 K
  if (teff_k >= hot_end)  // toward J-Ks = -0.1 for the hottest stars
    return relation.colour_min - 0.17 * (1 - hot_end / teff_k) / (1 - hot_end / 30000.0);
  if (teff_k <= cool_end)  // redder for cooler stars, 1.25 at 3000 K
    return relation.colour_max + 0.45 * (cool_end / teff_k - 1) / (cool_end / 3000.0 - 1);
  // Inside the range: bisection on the monotonic relation (T falls as J-Ks rises).
  double low = relation.colour_min, high = relation.colour_max;
  for (int i = 0; i < 50; ++i) {
    const double middle = 0.5 * (low + high);
    (casagrande_temperature(middle) > teff_k ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

double intrinsic_h_ks(double j_ks) {
  return 0.28 * j_ks - 0.02;
}

}  // namespace starlens::catalog::galaxy
