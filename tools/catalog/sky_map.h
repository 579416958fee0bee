#pragma once
// The full-sky star-density map of `info --png`: galactic coordinates in the equal-area
// Hammer projection (l = 0 in the middle, l growing to the left as on the sky, b = +90 at
// the top), grey levels logarithmic in stars per square degree.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "frame/frame.h"

namespace starlens::catalog {

// Hammer projection of galactic (l, b) in radians, l in (-pi, pi]: x in [-2 sqrt 2, 2 sqrt 2],
// y in [-sqrt 2, sqrt 2].
std::array<double, 2> hammer_forward(double l, double b);
// The inverse; nullopt outside the projection's ellipse x^2/8 + y^2/2 <= 1.
std::optional<std::array<double, 2>> hammer_inverse(double x, double y);

struct DensityMapScale {
  double low_per_deg2 = 0;   // shown black (the 1st percentile of the occupied cells)
  double high_per_deg2 = 0;  // shown white (the densest cell)
};

// Renders `counts` (stars per HEALPix NESTED cell of `order`, ICRS) into a width x width/2
// frame; returns the grey scale used.
DensityMapScale render_density_map(const std::vector<std::uint64_t>& counts, int order,
                                   std::uint32_t width, Frame& frame);

}  // namespace starlens::catalog
