#include "colour/colour_table.h"

#include <algorithm>
#include <stdexcept>

#include "colour/blackbody_tristimulus.h"
#include "colour/flux_unit.h"

namespace starlens {

ColourTable::ColourTable(int nodes_per_log_unit)
    : log_first_(std::log(kFirstTemperatureK)), nodes_per_log_unit_(nodes_per_log_unit) {
  if (nodes_per_log_unit < 1) throw std::invalid_argument("colour table: nodes_per_log_unit < 1");
  // Enough intervals to reach kLastTemperatureK (the last node may lie a little beyond it).
  intervals_ = static_cast<int>(
      std::ceil((std::log(kLastTemperatureK) - log_first_) * nodes_per_log_unit_ - 1e-9));
  const double step = 1.0 / nodes_per_log_unit_;
  const double log_flux_offset = -std::log(vega_spectrum_scale_k()) - vega_log_luminance_integral();
  const Matrix3& m = xyz_to_linear_srgb_matrix();
  nodes_.resize(static_cast<std::size_t>(intervals_) + 1);
  for (int i = 0; i <= intervals_; ++i) {
    const BlackbodyTristimulus bb = blackbody_tristimulus(std::exp(log_first_ + i * step));
    Node& node = nodes_[static_cast<std::size_t>(i)];
    for (int channel = 0; channel < 3; ++channel) {
      node.value[channel] =
          m[channel][0] * bb.x_over_y + m[channel][1] + m[channel][2] * bb.z_over_y;
      node.scaled_slope[channel] =
          step * (m[channel][0] * bb.dx_over_y_dlog_t + m[channel][2] * bb.dz_over_y_dlog_t);
    }
    node.value[3] = bb.log_y + log_flux_offset;
    node.scaled_slope[3] = step * bb.dlog_y_dlog_t;
  }
}

const ColourTable& ColourTable::shared() {
  static const ColourTable table;
  return table;
}

ColourTableAccuracy ColourTable::measure_accuracy() const {
  constexpr int kPointsPerInterval = 8;  // samples at t = 1/8 .. 7/8
  ColourTableAccuracy accuracy{0, 0, 0, 0, 0};
  for (int i = 0; i < intervals_; ++i) {
    for (int k = 1; k < kPointsPerInterval; ++k) {
      const double temperature = std::exp(
          log_first_ + (i + static_cast<double>(k) / kPointsPerInterval) / nodes_per_log_unit_);
      const StarColour fast = lookup(temperature, 1.0);
      const StarColour exact = observed_colour_exact(temperature, 1.0);
      const double brightest = std::max({exact.r, exact.g, exact.b});
      const double colour_error = std::max({std::abs(fast.r - exact.r), std::abs(fast.g - exact.g),
                                            std::abs(fast.b - exact.b)}) /
                                  brightest;
      const double flux_error = std::abs(fast.flux - exact.flux) / exact.flux;
      accuracy.max_colour_error = std::max(accuracy.max_colour_error, colour_error);
      accuracy.max_flux_error = std::max(accuracy.max_flux_error, flux_error);
      const double error = std::max(colour_error, flux_error);
      if (error > accuracy.max_relative_error) {
        accuracy.max_relative_error = error;
        accuracy.worst_temperature_k = temperature;
      }
      ++accuracy.samples;
    }
  }
  return accuracy;
}

const ColourTableAccuracy& colour_table_accuracy() {
  static const ColourTableAccuracy accuracy = ColourTable::shared().measure_accuracy();
  return accuracy;
}

}  // namespace starlens
