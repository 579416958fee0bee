#pragma once
// What every splat kernel shares: the run's constants, an event prepared once per batch
// (pixel box, phase and bilinear coefficients, flux times colour), and the weight of one
// pixel. The arithmetic follows the CPU evaluators in common/optics (accumulate_cached,
// accumulate_direct) operation for operation, so GPU and CPU differ only in the order in
// which contributions are summed.
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
  double x, y, support;
  double flux_r, flux_g, flux_b;  // flux times colour
  double w00, w10, w01, w11;      // bilinear coefficients of the four nearest phases
  std::int32_t ix, iy;            // floor(x), floor(y): the window's centre pixel
  std::int32_t phase00, phase10, phase01, phase11;  // offsets of the four phases' weights
  PixelBox box;                                     // pixels the event can touch, inside the frame
  std::int32_t direct;                              // exact evaluation instead of the cache
  std::int32_t unused;
};

// The CPU evaluators' phase choice (optics/psf.cpp): phase a = (x - floor x) P, split into
// the lower phase index and the fraction towards the next.
__device__ inline void split_phase(double fraction, std::int32_t phases, std::int32_t& lower,
                                   double& t) {
  const double scaled = fraction * phases;
  lower = std::int32_t(floor(scaled));
  if (lower >= phases) lower = phases - 1;
  if (lower < 0) lower = 0;
  t = scaled - lower;
}

__device__ inline PreparedEvent prepare_event(const StarEvent& event, const SplatConstants& c) {
  PreparedEvent e{};
  e.x = event.x;
  e.y = event.y;
  e.support = event.support;
  e.flux_r = event.flux * event.r;
  e.flux_g = event.flux * event.g;
  e.flux_b = event.flux * event.b;
  e.box = support_pixel_box(event.x, event.y, event.support, c.width, c.height);
  e.direct = c.all_direct || event.support > c.cache_radius;
  if (e.box.empty() || e.direct) return e;
  // Only events that reach the frame get here, so floor(x), floor(y) fit in 32 bits.
  const double fx = floor(event.x), fy = floor(event.y);
  e.ix = std::int32_t(fx);
  e.iy = std::int32_t(fy);
  std::int32_t a = 0, b = 0;
  double ta = 0, tb = 0;
  split_phase(event.x - fx, c.phases, a, ta);
  split_phase(event.y - fy, c.phases, b, tb);
  e.w00 = (1 - ta) * (1 - tb);
  e.w10 = ta * (1 - tb);
  e.w01 = (1 - ta) * tb;
  e.w11 = ta * tb;
  const std::int32_t row = c.phases + 1;
  e.phase00 = (b * row + a) * std::int32_t(c.phase_stride);
  e.phase10 = (b * row + a + 1) * std::int32_t(c.phase_stride);
  e.phase01 = ((b + 1) * row + a) * std::int32_t(c.phase_stride);
  e.phase11 = ((b + 1) * row + a + 1) * std::int32_t(c.phase_stride);
  return e;
}

// The exact integral over pixel (i, j) clipped to the support disc. Kept out of line: the
// quadrature needs many registers, which would otherwise lower the occupancy of the cached
// path that most events take.
__device__ __noinline__ inline double direct_pixel_weight(const PreparedEvent& e, std::int32_t i,
                                                          std::int32_t j, const Moffat& psf) {
  return moffat_rectangle_integral(psf, i - e.x, i + 1 - e.x, j - e.y, j + 1 - e.y, e.support);
}

// Weight of pixel (i, j) for a unit-flux event; false when the event adds nothing there
// (outside the window, or the pixel centre outside the support circle for cached events).
// Kernels are instantiated without the direct path for batches that have no direct event
// (the host knows): the cached path then keeps its few registers.
template <bool kWithDirect>
__device__ inline bool pixel_weight(const PreparedEvent& e, std::int32_t i, std::int32_t j,
                                    const SplatConstants& c, double& weight) {
  if constexpr (kWithDirect) {
    if (e.direct) {
      weight = direct_pixel_weight(e, i, j, c.psf);
      return weight > 0;
    }
  }
  const std::int32_t di = i - e.ix, dj = j - e.iy;
  if (di < -c.cache_radius || di > c.cache_radius || dj < -c.cache_radius || dj > c.cache_radius)
    return false;
  const double dx = (i + 0.5) - e.x, dy = (j + 0.5) - e.y;
  if (dx * dx + dy * dy > e.support * e.support) return false;
  const std::int32_t offset = (dj + c.cache_radius) * c.window + (di + c.cache_radius);
  weight = e.w00 * c.cache[e.phase00 + offset] + e.w10 * c.cache[e.phase10 + offset] +
           e.w01 * c.cache[e.phase01 + offset] + e.w11 * c.cache[e.phase11 + offset];
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
