#pragma once
// What every splat kernel shares: the run's constants, an event prepared once per batch
// (pixel box, phase and bilinear coefficients, flux times colour), and the weight of one
// pixel. The arithmetic follows the CPU evaluators in common/optics (accumulate_cached,
// accumulate_direct) operation for operation, and is compiled without contraction into
// fused multiply-adds (as the CPU's), so each cached contribution is bitwise the CPU's; GPU
// and CPU frames differ only in the order of additions (and, for direct events, in the last
// bits of the device's cos/sin/log1p/expm1).
#include <cstdint>

#include "events/star_event.h"
#include "gpu/hip_compat.h"
#include "optics/moffat.h"
#include "tile_geometry.h"

namespace starlens {

struct SplatConstants {
  std::uint32_t width;
  std::uint32_t height;
  std::int32_t cache_radius;   // Rc
  std::int32_t phases;         // P
  std::int32_t window;         // 2 Rc + 1
  std::int32_t all_direct;     // --psf-direct
  std::uint64_t phase_stride;  // window^2 weights per phase
  Moffat psf;
  const double* cache;  // device copy of PhaseCache::all_weights()
};

struct PreparedEvent {
  double x, y;
  double support;                 // cached: min(support, Rc), as the CPU
  double support_sq;              // support^2
  double inner_sq, outer_sq;      // support^2 -/+ a margin: clearly inside / outside the disc
  double flux_r, flux_g, flux_b;  // flux times colour
  double c00, c10, c01, c11;      // bilinear coefficients of the four nearest phases
  std::int32_t ix, iy;            // floor(x), floor(y): the window's centre pixel
  std::int32_t phase00, phase10, phase01, phase11;  // offsets of the four phases' weights
  PixelBox box;         // the CPU evaluator's row and column bounds, inside the frame
  std::int32_t direct;  // exact evaluation instead of the cache
  std::int32_t unused;
};

// [ceil-or-floor bounds lo, hi] of a pixel range clipped to [0, n - 1]; false when empty.
// Compared as doubles first: an event far off the frame must not reach an integer cast.
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
__device__ inline PreparedEvent prepare_event(const StarEvent& event, const SplatConstants& c) {
  PreparedEvent e{};
  e.box = {0, -1, 0, -1};
  e.direct = c.all_direct || event.support > c.cache_radius;
  if (!(event.flux > 0) || !(event.support > 0)) return e;  // the CPU's usable()
  e.x = event.x;
  e.y = event.y;
  e.flux_r = event.flux * event.r;
  e.flux_g = event.flux * event.g;
  e.flux_b = event.flux * event.b;
  e.support = e.direct ? event.support : fmin(event.support, double(c.cache_radius));
  e.support_sq = e.support * e.support;
  // Far above the rounding of the squared distances and of the CPU's row reach (<= 1e-12
  // px for coordinates below 1e4), far below any distance that matters.
  const double margin = 1e-7 * e.support;
  e.inner_sq = e.support_sq - margin;
  e.outer_sq = e.support_sq + margin;
  const double s = e.support;
  if (e.direct) {
    // Every pixel whose square meets the support disc.
    PixelBox& b = e.box;
    if (!clip_range(floor(e.y - s), ceil(e.y + s) - 1, c.height, b.j0, b.j1) ||
        !clip_range(floor(e.x - s), ceil(e.x + s) - 1, c.width, b.i0, b.i1))
      e.box = {0, -1, 0, -1};
    return e;
  }
  const double pixel_x = floor(e.x), pixel_y = floor(e.y);
  // Rows and columns whose centre can lie within the support (all inside the window).
  PixelBox box{};
  if (!clip_range(ceil(e.y - s - 0.5), floor(e.y + s - 0.5), c.height, box.j0, box.j1) ||
      !clip_range(fmax(pixel_x - c.cache_radius, ceil(e.x - s - 0.5)),
                  fmin(pixel_x + c.cache_radius, floor(e.x + s - 0.5)), c.width, box.i0, box.i1))
    return e;
  e.box = box;
  e.ix = std::int32_t(pixel_x);  // the box is not empty: the event is near the frame
  e.iy = std::int32_t(pixel_y);
  const double phase_x = (e.x - pixel_x) * c.phases;
  const double phase_y = (e.y - pixel_y) * c.phases;
  const std::int32_t a = min(std::int32_t(phase_x), c.phases - 1);
  const std::int32_t b = min(std::int32_t(phase_y), c.phases - 1);
  const double tx = phase_x - a, ty = phase_y - b;
  e.c00 = (1 - tx) * (1 - ty);
  e.c10 = tx * (1 - ty);
  e.c01 = (1 - tx) * ty;
  e.c11 = tx * ty;
  const std::int32_t stride = std::int32_t(c.phase_stride), row = c.phases + 1;
  e.phase00 = (b * row + a) * stride;
  e.phase10 = (b * row + a + 1) * stride;
  e.phase01 = ((b + 1) * row + a) * stride;
  e.phase11 = ((b + 1) * row + a + 1) * stride;
  return e;
}

// The exact integral over pixel (i, j) clipped to the support disc, if the CPU's direct
// evaluator visits the pixel (its row's reach). Kept out of line: the quadrature needs many
// registers, which would otherwise lower the occupancy of the cached path most events take.
__device__ __noinline__ inline bool direct_pixel_weight(const PreparedEvent& e, std::int32_t i,
                                                        std::int32_t j, const Moffat& psf,
                                                        double& weight) {
  const double y0 = j - e.y, y1 = j + 1 - e.y;
  const double nearest_dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0.0;
  if (!(nearest_dy < e.support)) return false;
  const double reach = sqrt((e.support - nearest_dy) * (e.support + nearest_dy));
  if (i < floor(e.x - reach) || i > ceil(e.x + reach) - 1) return false;
  weight = moffat_rectangle_integral(psf, i - e.x, i + 1 - e.x, y0, y1, e.support);
  return true;
}

// Whether the centre of pixel (i, j) lies in the support disc, decided as the CPU does
// (each row's reach, then the columns within it) wherever rounding could matter.
__device__ inline bool centre_in_support(const PreparedEvent& e, std::int32_t i, std::int32_t j) {
  const double dx = (i + 0.5) - e.x, dy = (j + 0.5) - e.y;
  const double distance_sq = dx * dx + dy * dy;
  if (distance_sq < e.inner_sq) return true;
  if (distance_sq > e.outer_sq) return false;
  const double reach_sq = e.support_sq - dy * dy;
  if (reach_sq < 0) return false;
  const double reach = sqrt(reach_sq);
  return i >= ceil(e.x - reach - 0.5) && i <= floor(e.x + reach - 0.5);
}

// Weight of pixel (i, j) of the event's box for a unit-flux event; false where the CPU adds
// nothing (a contribution of weight 0 inside the support still counts, as on the CPU).
// Kernels are instantiated without the direct path for batches that have no direct event
// (the host knows): the cached path then keeps its few registers.
template <bool kWithDirect>
__device__ inline bool pixel_weight(const PreparedEvent& e, std::int32_t i, std::int32_t j,
                                    const SplatConstants& c, double& weight) {
  if constexpr (kWithDirect) {
    if (e.direct) return direct_pixel_weight(e, i, j, c.psf, weight);
  }
  if (!centre_in_support(e, i, j)) return false;
  const std::int32_t offset = (j - e.iy + c.cache_radius) * c.window + (i - e.ix + c.cache_radius);
  weight = e.c00 * c.cache[e.phase00 + offset] + e.c10 * c.cache[e.phase10 + offset] +
           e.c01 * c.cache[e.phase01 + offset] + e.c11 * c.cache[e.phase11 + offset];
  return true;
}

// Adds a thread's count of contributions to the run's total: one global atomic per block.
__device__ inline void add_block_count(unsigned long long count, unsigned long long* total) {
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  if (count) atomicAdd(&block_count, count);
  __syncthreads();
  if (threadIdx.x == 0 && block_count) atomicAdd(total, block_count);
}

}  // namespace starlens
