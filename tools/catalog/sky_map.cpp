#include "sky_map.h"

#include <algorithm>
#include <cmath>

#include "catalog/sky_cells.h"
#include "sky/frames.h"

namespace starlens::catalog {
namespace {

// A grey level in [0, 1] as the linear value whose sRGB encoding is that level, so that
// write_frame_png (exposure 1) shows the logarithmic scale evenly.
double linear_from_srgb(double level) {
  return level <= 0.04045 ? level / 12.92 : std::pow((level + 0.055) / 1.055, 2.4);
}

}  // namespace

std::array<double, 2> hammer_forward(double l, double b) {
  const double denominator = std::sqrt(1 + std::cos(b) * std::cos(l / 2));
  return {2 * std::sqrt(2.0) * std::cos(b) * std::sin(l / 2) / denominator,
          std::sqrt(2.0) * std::sin(b) / denominator};
}

std::optional<std::array<double, 2>> hammer_inverse(double x, double y) {
  if (x * x / 8 + y * y / 2 > 1) return std::nullopt;
  const double z = std::sqrt(std::max(0.0, 1 - x * x / 16 - y * y / 4));
  return std::array<double, 2>{2 * std::atan2(z * x, 2 * (2 * z * z - 1)),
                               std::asin(std::clamp(z * y, -1.0, 1.0))};
}

DensityMapScale render_density_map(const std::vector<std::uint64_t>& counts, int order,
                                   std::uint32_t width, Frame& frame) {
  const SkyCells cells(order);
  const double cell_deg2 = cells.cell_solid_angle_sr() / (kDegree * kDegree);
  std::vector<double> occupied;
  for (auto count : counts)
    if (count > 0) occupied.push_back(static_cast<double>(count) / cell_deg2);
  DensityMapScale scale;
  if (!occupied.empty()) {
    std::sort(occupied.begin(), occupied.end());
    scale.low_per_deg2 = occupied[occupied.size() / 100];
    scale.high_per_deg2 = occupied.back();
  }
  const double log_low = std::log10(std::max(scale.low_per_deg2, 1e-30));
  const double log_span =
      std::max(1e-9, std::log10(std::max(scale.high_per_deg2, 1e-30)) - log_low);
  const std::uint32_t height = std::max<std::uint32_t>(1, width / 2);
  frame = Frame(width, height);
  const double half_width = 2 * std::sqrt(2.0), half_height = std::sqrt(2.0);
  for (std::uint32_t j = 0; j < height; ++j) {
    for (std::uint32_t i = 0; i < width; ++i) {
      // Pixel centre -> projection plane; x flipped so that l grows to the left.
      const double x = -half_width * (2 * (i + 0.5) / width - 1);
      const double y = half_height * (1 - 2 * (j + 0.5) / height);
      const auto angles = hammer_inverse(x, y);
      if (!angles) continue;
      const Vec3 icrs = galactic_to_icrs(unit_vector_from_angles((*angles)[0], (*angles)[1]));
      const double density = static_cast<double>(counts[cells.cell_of(icrs)]) / cell_deg2;
      if (density <= 0) continue;
      const double level = std::clamp((std::log10(density) - log_low) / log_span, 0.0, 1.0);
      double* pixel = frame.pixel(i, j);
      pixel[0] = pixel[1] = pixel[2] = linear_from_srgb(level);
    }
  }
  return scale;
}

}  // namespace starlens::catalog
