// CPU evaluators: one event into a band of frame rows (RGB interleaved doubles). The cached
// evaluator is the hot loop of the CPU splat: everything per event is computed once, and each
// row reduces to a contiguous run of pixels with a branch-free inner loop.
#include <algorithm>
#include <cmath>

#include "optics/psf.h"

namespace starlens {

namespace {

// Rows [first, last] of the frame that a band may write for an event spanning [lo, hi].
struct RowRange {
  std::int64_t first;
  std::int64_t last;
};

RowRange clamp_rows(double lo, double hi, std::uint32_t height, std::uint32_t row_begin,
                    std::uint32_t row_end) {
  const double top = row_begin;
  const double bottom = std::min<double>(row_end, height) - 1.0;
  // Compared as doubles first: an event far off the frame must not reach an integer cast.
  if (!(lo <= bottom && hi >= top)) return {0, -1};
  return {static_cast<std::int64_t>(std::max(lo, top)),
          static_cast<std::int64_t>(std::min(hi, bottom))};
}

bool usable(const StarEvent& event) {
  return std::isfinite(event.x) && std::isfinite(event.y) && std::isfinite(event.flux) &&
         event.flux > 0 && event.support > 0;
}

}  // namespace

std::uint64_t accumulate_cached(const StarEvent& event, const PhaseCache& cache, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end) {
  if (!usable(event)) return 0;
  const int radius = cache.radius();
  const int phases = cache.phases();
  const int side = cache.window();
  const double support = std::min<double>(event.support, radius);
  const double pixel_x = std::floor(event.x);
  const double pixel_y = std::floor(event.y);
  // Rows and columns whose centre can lie within the support (all inside the window).
  const RowRange rows = clamp_rows(std::ceil(event.y - support - 0.5),
                                   std::floor(event.y + support - 0.5), height, row_begin, row_end);
  if (rows.first > rows.last) return 0;
  const double column_lo = std::max({0.0, pixel_x - radius, std::ceil(event.x - support - 0.5)});
  const double column_hi =
      std::min({width - 1.0, pixel_x + radius, std::floor(event.x + support - 0.5)});
  if (column_lo > column_hi) return 0;

  // Bilinear interpolation between the four phases around the sub-pixel offset.
  const double phase_x = (event.x - pixel_x) * phases;
  const double phase_y = (event.y - pixel_y) * phases;
  const int a = std::min(static_cast<int>(phase_x), phases - 1);
  const int b = std::min(static_cast<int>(phase_y), phases - 1);
  const double tx = phase_x - a;
  const double ty = phase_y - b;
  const double c00 = (1 - tx) * (1 - ty), c10 = tx * (1 - ty);
  const double c01 = (1 - tx) * ty, c11 = tx * ty;
  const double* w00 = cache.weights(a, b);
  const double* w10 = cache.weights(a + 1, b);
  const double* w01 = cache.weights(a, b + 1);
  const double* w11 = cache.weights(a + 1, b + 1);
  const double red = event.flux * event.r;
  const double green = event.flux * event.g;
  const double blue = event.flux * event.b;

  const std::int64_t ix = static_cast<std::int64_t>(pixel_x);
  const std::int64_t iy = static_cast<std::int64_t>(pixel_y);
  const std::int64_t first_column = static_cast<std::int64_t>(column_lo);
  const std::int64_t last_column = static_cast<std::int64_t>(column_hi);
  const double support_sq = support * support;
  std::uint64_t contributions = 0;
  for (std::int64_t row = rows.first; row <= rows.last; ++row) {
    const double dy = row + 0.5 - event.y;
    const double reach_sq = support_sq - dy * dy;
    if (reach_sq < 0) continue;
    const double reach = std::sqrt(reach_sq);
    const std::int64_t lo =
        std::max(first_column, static_cast<std::int64_t>(std::ceil(event.x - reach - 0.5)));
    const std::int64_t hi =
        std::min(last_column, static_cast<std::int64_t>(std::floor(event.x + reach - 0.5)));
    if (lo > hi) continue;
    const std::size_t offset =
        std::size_t(row - iy + radius) * side + std::size_t(lo - ix + radius);
    const double* __restrict__ p00 = w00 + offset;
    const double* __restrict__ p10 = w10 + offset;
    const double* __restrict__ p01 = w01 + offset;
    const double* __restrict__ p11 = w11 + offset;
    double* __restrict__ out = rgb + 3 * (std::size_t(row) * width + std::size_t(lo));
    const std::int64_t count = hi - lo + 1;
    for (std::int64_t k = 0; k < count; ++k) {
      const double weight = c00 * p00[k] + c10 * p10[k] + c01 * p01[k] + c11 * p11[k];
      out[3 * k] += red * weight;
      out[3 * k + 1] += green * weight;
      out[3 * k + 2] += blue * weight;
    }
    contributions += std::uint64_t(count);
  }
  return contributions;
}

std::uint64_t accumulate_direct(const StarEvent& event, const Moffat& psf, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end) {
  if (!usable(event)) return 0;
  const double support = event.support;
  // Every pixel whose square meets the support disc.
  const RowRange rows = clamp_rows(std::floor(event.y - support), std::ceil(event.y + support) - 1,
                                   height, row_begin, row_end);
  const double red = event.flux * event.r;
  const double green = event.flux * event.g;
  const double blue = event.flux * event.b;
  std::uint64_t contributions = 0;
  for (std::int64_t row = rows.first; row <= rows.last; ++row) {
    const double y0 = row - event.y;
    const double y1 = row + 1 - event.y;
    const double nearest_dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0.0;
    if (!(nearest_dy < support)) continue;
    const double reach = std::sqrt((support - nearest_dy) * (support + nearest_dy));
    const double lo = std::max(0.0, std::floor(event.x - reach));
    const double hi = std::min(width - 1.0, std::ceil(event.x + reach) - 1);
    if (lo > hi) continue;
    double* out = rgb + 3 * std::size_t(row) * width;
    for (std::int64_t column = std::int64_t(lo); column <= std::int64_t(hi); ++column) {
      const double weight =
          moffat_rectangle_integral(psf, column - event.x, column + 1 - event.x, y0, y1, support);
      out[3 * column] += red * weight;
      out[3 * column + 1] += green * weight;
      out[3 * column + 2] += blue * weight;
    }
    contributions += std::uint64_t(hi - lo + 1);
  }
  return contributions;
}

}  // namespace starlens
