#pragma once
// Colours of the --diff-png heat map. A pixel's error is the largest over R, G, B of
// |A - B| / max(|B|, rel_floor max|B|), so dark reference pixels are judged against the
// floor rather than against their own tiny value. Its log10 from -16 to 0 runs along a
// black -> blue -> magenta -> orange -> yellow -> white ramp; 0 is black, >= 1 is white,
// a non-finite value in either frame is bright green.
#include <array>
#include <cstdint>

namespace starlens::compare {

constexpr double kHeatMapLowestDecade = -16.0;
constexpr double kHeatMapHighestDecade = 0.0;

std::array<std::uint8_t, 3> heat_map_colour(double relative_error);
std::array<std::uint8_t, 3> heat_map_non_finite_colour();

}  // namespace starlens::compare
