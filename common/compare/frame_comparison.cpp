#include "compare/frame_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "compare/heat_map.h"
#include "core/progress.h"
#include "frame/exr_chunking.h"

namespace starlens::compare {

std::string describe_pixel(const PixelPosition& at) {
  char text[32];
  std::snprintf(text, sizeof text, "(%u, %u)", at.x, at.y);
  return text;
}

double ChannelStatistics::rms() const {
  return compared == 0 ? 0.0 : std::sqrt(squared_error.value() / double(compared));
}

double ChannelStatistics::total_rel() const {
  const double difference = std::fabs(total_difference.value());
  const double reference = std::fabs(total_b.value());
  if (reference == 0.0) return difference == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return difference / reference;
}

namespace {

// The four channel values of one pixel (R, G, B and luminance Y).
std::array<double, kChannelCount> channel_values(const double* rgb) {
  return {rgb[0], rgb[1], rgb[2], luminance(rgb)};
}

// A - B per channel. Y's difference is the luminance of the channel differences: for close
// frames those are exact (Sterbenz), while Y(A) - Y(B) would cancel the rounding of each Y
// into a relative error of about 1e-16 Y / |Y(A) - Y(B)|.
std::array<double, kChannelCount> channel_differences(const double* a, const double* b) {
  const double rgb[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return {rgb[0], rgb[1], rgb[2], luminance(rgb)};
}

// `difference` is a - b, passed in because Y's is computed from the channel differences.
void add_pixel(ChannelStatistics& stats, double a, double b, double difference, PixelPosition at) {
  const bool finite_a = std::isfinite(a), finite_b = std::isfinite(b);
  stats.non_finite_a += !finite_a;
  stats.non_finite_b += !finite_b;
  stats.negative_a += a < 0.0;
  stats.negative_b += b < 0.0;
  if (!finite_a || !finite_b) return;
  ++stats.compared;
  const double error = std::fabs(difference);
  stats.squared_error.add(difference * difference);
  stats.total_a.add(a);
  stats.total_b.add(b);
  stats.total_difference.add(difference);
  if (error > stats.max_abs_error) {
    stats.max_abs_error = error;
    stats.max_abs_at = at;
    stats.max_abs_a = a;
    stats.max_abs_b = b;
  }
  if (std::fabs(b) > stats.rel_threshold) {
    ++stats.rel_pixels;
    const double relative = error / std::fabs(b);
    if (relative > stats.max_rel_error) {
      stats.max_rel_error = relative;
      stats.max_rel_at = at;
      stats.max_rel_a = a;
      stats.max_rel_b = b;
    }
  }
}

std::array<std::uint8_t, 3> heat_colour(const double* a, const double* b,
                                        const FrameComparison& result) {
  double worst = 0.0;
  for (std::size_t c = 0; c < 3; ++c) {
    if (!std::isfinite(a[c]) || !std::isfinite(b[c])) return heat_map_non_finite_colour();
    const double error = std::fabs(a[c] - b[c]);
    const double scale = std::max(std::fabs(b[c]), result.channels[c].rel_threshold);
    const double relative = scale > 0.0
                                ? error / scale
                                : (error == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
    worst = std::max(worst, relative);
  }
  return heat_map_colour(worst);
}

// Pass 1: the largest finite |B| per channel, which sets the relative-error floor.
void find_reference_maxima(ExrFrameReader& b, FrameComparison& result, Progress& progress) {
  const std::uint32_t band = exr_layout::band_rows(b.width());
  std::vector<double> rows(std::size_t(band) * b.width() * 3);
  for (std::uint32_t first = 0; first < b.height(); first += band) {
    const std::uint32_t count = std::min(band, b.height() - first);
    b.read_rows(first, count, rows.data());
    for (std::size_t p = 0; p < std::size_t(count) * b.width(); ++p) {
      const auto values = channel_values(&rows[3 * p]);
      for (std::size_t c = 0; c < kChannelCount; ++c)
        if (std::isfinite(values[c]))
          result.channels[c].max_abs_reference =
              std::max(result.channels[c].max_abs_reference, std::fabs(values[c]));
    }
    progress.advance(count);
  }
}

}  // namespace

FrameComparison compare_frames(ExrFrameReader& a, ExrFrameReader& b,
                               const std::array<double, kChannelCount>& rel_floors,
                               HeatMapTarget heat_map, Progress& progress) {
  FrameComparison result;
  result.width = b.width();
  result.height = b.height();
  find_reference_maxima(b, result, progress);
  for (std::size_t c = 0; c < kChannelCount; ++c) {
    result.channels[c].rel_floor = rel_floors[c];
    result.channels[c].rel_threshold = rel_floors[c] * result.channels[c].max_abs_reference;
  }
  if (heat_map.rgb) heat_map.rgb->assign(std::size_t(result.width) * result.height * 3, 0);

  // Pass 2: both frames band by band.
  const std::uint32_t band = exr_layout::band_rows(result.width);
  std::vector<double> rows_a(std::size_t(band) * result.width * 3), rows_b(rows_a.size());
  for (std::uint32_t first = 0; first < result.height; first += band) {
    const std::uint32_t count = std::min(band, result.height - first);
    a.read_rows(first, count, rows_a.data());
    b.read_rows(first, count, rows_b.data());
    for (std::uint32_t row = 0; row < count; ++row) {
      for (std::uint32_t x = 0; x < result.width; ++x) {
        const std::size_t offset = 3 * (std::size_t(row) * result.width + x);
        const PixelPosition at{x, first + row};
        const auto values_a = channel_values(&rows_a[offset]);
        const auto values_b = channel_values(&rows_b[offset]);
        const auto differences = channel_differences(&rows_a[offset], &rows_b[offset]);
        for (std::size_t c = 0; c < kChannelCount; ++c)
          add_pixel(result.channels[c], values_a[c], values_b[c], differences[c], at);
        if (heat_map.rgb) {
          const auto colour = heat_colour(&rows_a[offset], &rows_b[offset], result);
          std::copy(
              colour.begin(), colour.end(),
              heat_map.rgb->begin() + std::ptrdiff_t(3 * (std::size_t(at.y) * result.width + x)));
        }
      }
    }
    progress.advance(count);
  }
  return result;
}

}  // namespace starlens::compare
