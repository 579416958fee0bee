#pragma once
// The per-channel error statistics of frame A against the reference frame B (docs/design.md section
// 7), computed by streaming both files in bands of scanlines: a first pass over B finds
// max|B| per channel (the relative-error floor needs it), a second pass compares.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compare/channels.h"
#include "compare/compensated_sum.h"
#include "frame/exr_reader.h"

namespace starlens {
class Progress;
}

namespace starlens::compare {

struct PixelPosition {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
};

// "(x, y)"
std::string describe_pixel(const PixelPosition& at);

struct ChannelStatistics {
  double max_abs_reference = 0.0;  // max |B| over finite values
  double rel_floor = 0.0;          // the budget's rel_floor
  double rel_threshold = 0.0;      // rel_floor * max_abs_reference

  double max_abs_error = 0.0;
  PixelPosition max_abs_at;
  double max_abs_a = 0.0, max_abs_b = 0.0;  // the two values there

  double max_rel_error = 0.0;
  PixelPosition max_rel_at;
  double max_rel_a = 0.0, max_rel_b = 0.0;
  std::uint64_t rel_pixels = 0;  // pixels with |B| > rel_threshold

  CompensatedSum squared_error;
  CompensatedSum total_a;
  CompensatedSum total_b;
  CompensatedSum total_difference;  // sum of (A - B), more accurate than the difference of sums
  std::uint64_t compared = 0;       // pixels where both values are finite

  std::uint64_t non_finite_a = 0, non_finite_b = 0;
  std::uint64_t negative_a = 0, negative_b = 0;

  double rms() const;
  // |sum (A - B)| / |sum B|; 0 when both totals are 0, infinity when only B's is.
  double total_rel() const;
};

struct FrameComparison {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::array<ChannelStatistics, kChannelCount> channels;
};

// Heat map of the per-pixel relative error (see heat_map.h), filled when given.
struct HeatMapTarget {
  std::vector<std::uint8_t>* rgb = nullptr;
};

// A and B must have the same size (checked by the caller). `rel_floors` per channel come from
// the budget. Throws InputError naming the file when a band cannot be read.
FrameComparison compare_frames(ExrFrameReader& a, ExrFrameReader& b,
                               const std::array<double, kChannelCount>& rel_floors,
                               HeatMapTarget heat_map, Progress& progress);

}  // namespace starlens::compare
