#include "compare/heat_map.h"

#include <algorithm>
#include <cmath>

namespace starlens::compare {
namespace {

struct Stop {
  double position;
  double r, g, b;
};
constexpr Stop kRamp[] = {{0.0, 0, 0, 0},       {0.25, 20, 40, 200}, {0.5, 190, 30, 170},
                          {0.75, 255, 120, 20}, {0.9, 255, 230, 40}, {1.0, 255, 255, 255}};

}  // namespace

std::array<std::uint8_t, 3> heat_map_colour(double relative_error) {
  if (!(relative_error > 0.0)) return {0, 0, 0};
  const double decade = std::log10(relative_error);
  const double t = std::clamp(
      (decade - kHeatMapLowestDecade) / (kHeatMapHighestDecade - kHeatMapLowestDecade), 0.0, 1.0);
  std::size_t upper = 1;
  while (upper + 1 < std::size(kRamp) && kRamp[upper].position < t) ++upper;
  const Stop& low = kRamp[upper - 1];
  const Stop& high = kRamp[upper];
  const double w = (t - low.position) / (high.position - low.position);
  auto mix = [w](double from, double to) {
    return static_cast<std::uint8_t>(std::lround(from + w * (to - from)));
  };
  return {mix(low.r, high.r), mix(low.g, high.g), mix(low.b, high.b)};
}

std::array<std::uint8_t, 3> heat_map_non_finite_colour() {
  return {0, 255, 0};
}

}  // namespace starlens::compare
