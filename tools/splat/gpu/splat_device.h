#pragma once
// What every splat kernel shares (host-device code: tests/tools/splat/gpu runs it on the CPU
// against the CPU evaluators): the run's constants, an event prepared once per batch
// (pixel box, phase and bilinear coefficients, flux times colour), and the weight of one
// pixel. The arithmetic follows the CPU evaluators in common/optics (accumulate_cached,
// accumulate_direct) operation for operation, and is compiled without contraction into
// fused multiply-adds (as the CPU's), so each cached contribution is bitwise the CPU's; GPU
// and CPU frames differ only in the order of additions (and, for direct events, in the last
// bits of the device's pow/log1p/expm1).
#include <cmath>
#include <cstdint>
#include <vector>

#include "events/star_event.h"
#include "optics/direct_pixel.h"
#include "optics/moffat.h"
#include "optics/phase_cache.h"
#include "tile_geometry.h"

namespace starlens {

template <typename T>
STARLENS_HOST_DEVICE inline T lesser(T a, T b) {
  return b < a ? b : a;
}
template <typename T>
STARLENS_HOST_DEVICE inline T greater(T a, T b) {
  return a < b ? b : a;
}

// The weights of one window pixel at the four phases an event interpolates between, side by
// side, so that a pixel's weights are two 16-byte loads instead of four scattered ones.
struct alignas(16) PhaseQuad {
  double w00, w10, w01, w11;
};

struct SplatConstants {
  std::uint32_t width;
  std::uint32_t height;
  std::int32_t cache_radius;  // Rc
  std::int32_t phases;        // P
  std::int32_t window;        // 2 Rc + 1
  std::int32_t all_direct;    // --psf-direct
  Moffat psf;
  const PhaseQuad* cache;  // interleave_phase_cache(the PhaseCache), on the device
};

// The phase cache rearranged for the kernels: for each cell (a, b) of the phase grid (a, b < P,
// cell b P + a), window^2 quads of the weights at phases (a, b), (a + 1, b), (a, b + 1) and
// (a + 1, b + 1). The same numbers, so every contribution keeps its bits.
inline std::vector<PhaseQuad> interleave_phase_cache(const PhaseCache& cache) {
  const std::int32_t phases = cache.phases();
  const std::size_t area = cache.phase_stride();
  std::vector<PhaseQuad> quads(std::size_t(phases) * phases * area);
  for (std::int32_t b = 0; b < phases; ++b)
    for (std::int32_t a = 0; a < phases; ++a) {
      const double* w00 = cache.weights(a, b);
      const double* w10 = cache.weights(a + 1, b);
      const double* w01 = cache.weights(a, b + 1);
      const double* w11 = cache.weights(a + 1, b + 1);
      PhaseQuad* cell = quads.data() + (std::size_t(b) * phases + a) * area;
      for (std::size_t k = 0; k < area; ++k) cell[k] = {w00[k], w10[k], w01[k], w11[k]};
    }
  return quads;
}

// What the cached evaluator reads of an event, first in its prepared record: scatter16 copies
// these 128 bytes of each reference into shared memory, 4 references at a time.
struct alignas(16) CachedEvent {
  double centre_x, centre_y;      // the event relative to the centre of pixel (ix, iy)
  double support_sq;              // min(support, Rc)^2, as the CPU
  double inner_sq, outer_sq;      // support^2 -/+ a margin: clearly inside / outside the disc
  double flux_r, flux_g, flux_b;  // flux times colour
  double c00, c10, c01, c11;      // bilinear coefficients of the four nearest phases
  std::int32_t ix, iy;            // the event's pixel: the window's centre
  std::int32_t phase_cell;        // the first quad of its phase cell in SplatConstants::cache
  std::int32_t unused;
  PixelBox box;  // the pixels the CPU evaluator visits (its rows and columns), inside the frame
};
static_assert(sizeof(CachedEvent) == 128);

struct alignas(16) PreparedEvent : CachedEvent {
  double x, y;
  double support;       // cached: min(support, Rc), as the CPU
  std::int32_t direct;  // exact evaluation instead of the cache
};

// The CPU's cached evaluator rounds with floor and ceil by truncation after a bias
// (optics/accumulate.cpp); the same expressions give the same integers.
STARLENS_HOST_DEVICE inline std::int64_t biased_floor(double v, std::int32_t bias) {
  return std::int64_t(v + bias) - bias;
}
STARLENS_HOST_DEVICE inline std::int64_t biased_ceil(double v, std::int32_t bias) {
  return bias - std::int64_t(bias - v);
}

// [lo, hi] clipped to [0, n - 1]; false when empty. Compared as doubles first: an event far
// off the frame must not reach an integer cast.
STARLENS_HOST_DEVICE inline bool clip_range(double lo, double hi, std::uint32_t n,
                                            std::int32_t& first, std::int32_t& last) {
  lo = fmax(lo, 0.0);
  hi = fmin(hi, double(n) - 1.0);
  if (!(lo <= hi)) return false;
  first = std::int32_t(lo);
  last = std::int32_t(hi);
  return true;
}

// Bounds, phase and coefficients exactly as accumulate_cached / accumulate_direct compute
// them (optics/accumulate.cpp). Events that add nothing get an empty box.
STARLENS_HOST_DEVICE inline PreparedEvent prepare_event(const StarEvent& event,
                                                        const SplatConstants& c) {
  PreparedEvent e{};
  e.box = {0, -1, 0, -1};
  e.direct = c.all_direct || event.support > c.cache_radius;
  if (!(event.flux > 0) || !(event.support > 0)) return e;  // the CPU's usable()
  e.x = event.x;
  e.y = event.y;
  e.flux_r = event.flux * event.r;
  e.flux_g = event.flux * event.g;
  e.flux_b = event.flux * event.b;
  const double s = e.direct ? event.support : fmin(event.support, double(c.cache_radius));
  e.support = s;
  e.support_sq = s * s;
  // Far above the rounding of the squared distances and of the CPU's row reach (<= 1e-12
  // px for coordinates below 1e4), far below any distance that matters.
  const double margin = 1e-7 * s;
  e.inner_sq = e.support_sq - margin;
  e.outer_sq = e.support_sq + margin;
  if (e.direct) {
    // Every pixel whose square meets the support disc.
    PixelBox& b = e.box;
    if (!clip_range(floor(e.y - s), ceil(e.y + s) - 1, c.height, b.j0, b.j1) ||
        !clip_range(floor(e.x - s), ceil(e.x + s) - 1, c.width, b.i0, b.i1))
      e.box = {0, -1, 0, -1};
    return e;
  }
  if (!(e.y + s + 0.5 > 0 && e.y - s - 0.5 < c.height)) return e;
  if (!(e.x + s + 0.5 > 0 && e.x - s - 0.5 < c.width)) return e;
  const std::int32_t bias = c.cache_radius + 3, radius = c.cache_radius;
  const std::int64_t ix = biased_floor(e.x, bias), iy = biased_floor(e.y, bias);
  const double offset_x = e.x - ix, offset_y = e.y - iy;
  const std::int32_t a = lesser(std::int32_t(offset_x * c.phases), c.phases - 1);
  const std::int32_t b = lesser(std::int32_t(offset_y * c.phases), c.phases - 1);
  const double tx = offset_x * c.phases - a, ty = offset_y * c.phases - b;
  e.c00 = (1 - tx) * (1 - ty);
  e.c10 = tx * (1 - ty);
  e.c01 = (1 - tx) * ty;
  e.c11 = tx * ty;
  e.centre_x = offset_x - 0.5;
  e.centre_y = offset_y - 0.5;
  // The CPU's rows and columns: its box, which every row's chord lies in (reach <= support).
  const std::int64_t first_row = greater(biased_ceil(e.centre_y - s, bias), -iy);
  const std::int64_t last_row =
      lesser(biased_floor(e.centre_y + s, bias), std::int64_t(c.height) - 1 - iy);
  const std::int64_t first_column =
      greater(greater(std::int64_t(-radius), -ix), biased_ceil(e.centre_x - s, bias));
  const std::int64_t last_column =
      lesser(lesser(std::int64_t(radius), std::int64_t(c.width) - 1 - ix),
             biased_floor(e.centre_x + s, bias));
  if (first_row > last_row || first_column > last_column) return e;
  e.ix = std::int32_t(ix);
  e.iy = std::int32_t(iy);
  e.box = {std::int32_t(ix + first_column), std::int32_t(ix + last_column),
           std::int32_t(iy + first_row), std::int32_t(iy + last_row)};
  e.phase_cell = (b * c.phases + a) * c.window * c.window;
  return e;
}

// The integral over pixel (i, j) of the event's box clipped to the support disc
// (direct_pixel_integral, as the CPU's accumulate_direct), if the CPU's direct evaluator
// visits the pixel (its row's reach; it counts zero weights too).
STARLENS_HOST_DEVICE inline bool direct_pixel_weight(const PreparedEvent& e, std::int32_t i,
                                                     std::int32_t j, const Moffat& psf,
                                                     const DirectPixelRule& rule, double& weight) {
  const double y0 = j - e.y, y1 = j + 1 - e.y;
  const double nearest_dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0.0;
  if (!(nearest_dy < e.support)) return false;
  const double reach = sqrt((e.support - nearest_dy) * (e.support + nearest_dy));
  if (i < floor(e.x - reach) || i > ceil(e.x + reach) - 1) return false;
  weight = direct_pixel_integral(psf, rule, i - e.x, i + 1 - e.x, y0, y1, e.support);
  return true;
}

// Whether the centre of pixel (ix + di, iy + dj) lies in the support disc, decided as the
// CPU does (each row's reach, then the columns within it) wherever rounding could matter.
STARLENS_HOST_DEVICE inline bool centre_in_support(const CachedEvent& e, std::int32_t di,
                                                   std::int32_t dj, std::int32_t bias) {
  const double dx = di - e.centre_x, dy = dj - e.centre_y;
  const double distance_sq = dx * dx + dy * dy;
  if (distance_sq < e.inner_sq) return true;
  if (distance_sq > e.outer_sq) return false;
  const double reach_sq = e.support_sq - dy * dy;
  if (reach_sq < 0) return false;
  const double reach = sqrt(reach_sq);
  return di >= biased_ceil(e.centre_x - reach, bias) &&
         di <= biased_floor(e.centre_x + reach, bias);
}

// Weight of pixel (i, j) of a cached event's box for unit flux; false where the CPU adds
// nothing (a contribution of weight 0 inside the support still counts, as on the CPU).
STARLENS_HOST_DEVICE inline bool cached_pixel_weight(const CachedEvent& e, std::int32_t i,
                                                     std::int32_t j, const SplatConstants& c,
                                                     double& weight) {
  const std::int32_t di = i - e.ix, dj = j - e.iy;
  if (!centre_in_support(e, di, dj, c.cache_radius + 3)) return false;
  const std::int32_t offset = (dj + c.cache_radius) * c.window + (di + c.cache_radius);
  const PhaseQuad w = c.cache[e.phase_cell + offset];
  weight = e.c00 * w.w00 + e.c10 * w.w10 + e.c01 * w.w01 + e.c11 * w.w11;
  return true;
}

}  // namespace starlens
