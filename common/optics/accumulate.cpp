// CPU evaluators: one event into a band of frame rows (RGB interleaved doubles). The cached
// evaluator is the hot loop of the CPU splat: everything per event is computed once, and each
// row reduces to a contiguous run of pixels with a branch-free inner loop.
#include "optics/accumulate.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "optics/cached_row.h"
#include "optics/direct_pixel.h"

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

#if defined(__x86_64__)
// The chords of the eight rows dj0 .. dj0 + 7 at once, as bits over the run's columns (bit i:
// column run_first + i; 0 for a row the support misses): the row loop's arithmetic below, the
// same operations lane by lane (explicitly rounded, never fused), so the same pixels. The run
// must be at most 62 columns.
[[gnu::target("avx512f,avx512dq")]] inline void chord_bits(
    std::int64_t dj0, double centre_x, double centre_y, double support_sq, int bias,
    std::int64_t box_first, std::int64_t box_last, std::int64_t run_first, std::uint64_t* bits) {
  constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  const __m512d dj =
      _mm512_add_pd(_mm512_set1_pd(double(dj0)), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
  const __m512d dy = _mm512_maskz_sub_round_pd(0xFF, dj, _mm512_set1_pd(centre_y), kRound);
  const __m512d reach_sq = _mm512_maskz_sub_round_pd(
      0xFF, _mm512_set1_pd(support_sq), _mm512_maskz_mul_round_pd(0xFF, dy, dy, kRound), kRound);
  const __mmask8 crossed = _mm512_cmp_pd_mask(reach_sq, _mm512_setzero_pd(), _CMP_GE_OQ);
  const __m512d reach = _mm512_maskz_sqrt_round_pd(crossed, reach_sq, kRound);
  const __m512d centre = _mm512_set1_pd(centre_x);
  const __m512d biased = _mm512_set1_pd(double(bias));
  const __m512i bias64 = _mm512_set1_epi64(bias);
  // ceil_of(centre_x - reach) and floor_of(centre_x + reach), truncated as the scalar casts.
  const __m512d left = _mm512_maskz_sub_round_pd(0xFF, centre, reach, kRound);
  const __m512d right = _mm512_maskz_add_round_pd(0xFF, centre, reach, kRound);
  const __m512i ceil_left = _mm512_sub_epi64(
      bias64, _mm512_maskz_cvtt_roundpd_epi64(
                  0xFF, _mm512_maskz_sub_round_pd(0xFF, biased, left, kRound), _MM_FROUND_NO_EXC));
  const __m512i floor_right = _mm512_sub_epi64(
      _mm512_maskz_cvtt_roundpd_epi64(0xFF, _mm512_maskz_add_round_pd(0xFF, right, biased, kRound),
                                      _MM_FROUND_NO_EXC),
      bias64);
  const __m512i lo = _mm512_maskz_max_epi64(0xFF, _mm512_set1_epi64(box_first), ceil_left);
  const __m512i hi = _mm512_maskz_min_epi64(0xFF, _mm512_set1_epi64(box_last), floor_right);
  const __mmask8 rows = crossed & _mm512_cmp_epi64_mask(lo, hi, _MM_CMPINT_LE);
  const __m512i first = _mm512_set1_epi64(run_first), one = _mm512_set1_epi64(1);
  const __m512i to_hi = _mm512_sub_epi64(
      _mm512_maskz_sllv_epi64(0xFF, _mm512_set1_epi64(2), _mm512_sub_epi64(hi, first)), one);
  const __m512i below_lo =
      _mm512_sub_epi64(_mm512_maskz_sllv_epi64(0xFF, one, _mm512_sub_epi64(lo, first)), one);
  _mm512_storeu_si512(bits, _mm512_maskz_andnot_epi64(rows, below_lo, to_hi));
}
#endif

// The cached evaluator's body, instantiated once per row kernel (always inlined, so that each
// instance is compiled for its kernel's instruction set); kStep: the kernel's pixels a step.
// This file is compiled with -ffp-contract=off: the AVX-512 instance's target has FMA, which
// must not fuse the per-event arithmetic below (the GPU reproduces these bits).
template <class RowAdder, int kStep>
[[gnu::always_inline]] inline std::uint64_t cached_with(const StarEvent& event,
                                                        const PhaseCache& cache, double* rgb,
                                                        std::uint32_t width, std::uint32_t height,
                                                        std::uint32_t row_begin,
                                                        std::uint32_t row_end) {
  if (!usable(event)) return 0;
  const int radius = cache.radius();
  const int phases = cache.phases();
  const int side = cache.window();
  const double support = std::min<double>(event.support, radius);
  const double band_end = std::min(row_end, height);
  // Events whose support misses the band or the columns, compared as doubles: nothing far
  // off the frame reaches an integer conversion.
  if (!(event.y + support + 0.5 > row_begin && event.y - support - 0.5 < band_end)) return 0;
  if (!(event.x + support + 0.5 > 0 && event.x - support - 0.5 < width)) return 0;

  // floor(v) for v > -bias by truncation: no libm call per event or row (a call made up a
  // third of the time of a typical 50-pixel event).
  const int bias = radius + 3;
  auto floor_of = [bias](double v) { return static_cast<std::int64_t>(v + bias) - bias; };
  auto ceil_of = [bias](double v) { return bias - static_cast<std::int64_t>(bias - v); };
  const std::int64_t ix = floor_of(event.x);
  const std::int64_t iy = floor_of(event.y);
  const double offset_x = event.x - ix;  // in [0, 1) up to one rounding of x + bias
  const double offset_y = event.y - iy;

  // Bilinear interpolation between the four phases around the sub-pixel offset.
  const int a = std::min(static_cast<int>(offset_x * phases), phases - 1);
  const int b = std::min(static_cast<int>(offset_y * phases), phases - 1);
  const double tx = offset_x * phases - a;
  const double ty = offset_y * phases - b;
  const double c00 = (1 - tx) * (1 - ty), c10 = tx * (1 - ty);
  const double c01 = (1 - tx) * ty, c11 = tx * ty;
  const double red = event.flux * event.r;
  const double green = event.flux * event.g;
  const double blue = event.flux * event.b;

  // Rows and columns relative to the event's pixel (ix, iy): pixel centres within the
  // support's bounding box, inside the band and the frame (all inside the window).
  const double centre_x = offset_x - 0.5;  // event position relative to the centre of (ix, iy)
  const double centre_y = offset_y - 0.5;
  const std::int64_t first_row =
      std::max<std::int64_t>(ceil_of(centre_y - support), std::int64_t(row_begin) - iy);
  const std::int64_t last_row =
      std::min<std::int64_t>(floor_of(centre_y + support), std::int64_t(band_end) - 1 - iy);
  const std::int64_t first_column = std::max<std::int64_t>(-radius, -ix);
  const std::int64_t last_column = std::min<std::int64_t>(radius, std::int64_t(width) - 1 - ix);
  const double support_sq = support * support;
  // The bounding box's columns: every row's chord lies inside them (reach <= support).
  const std::int64_t box_first = std::max(first_column, ceil_of(centre_x - support));
  const std::int64_t box_last = std::min(last_column, floor_of(centre_x + support));
  if (box_first > box_last) return 0;
  // The run of columns each row adds: the box, widened to a whole number of the adder's steps
  // (kStep pixels) where that stays inside the frame's row and the cache window, so that no
  // row ends with a partial step; the added pixels get weight +0.0 like the rest of the box
  // off the chord. The row belongs to the caller's band, so no other thread writes it.
  std::int64_t run_first = box_first;
  std::int64_t run_count = box_last - box_first + 1;
  if constexpr (kStep > 1) {
    const std::int64_t padded = (run_count + kStep - 1) / kStep * kStep;
    const std::int64_t first = std::min(box_first, last_column - padded + 1);
    if (first >= first_column) {
      run_first = first;
      run_count = padded;
    }
  }
  const std::ptrdiff_t window_centre = std::ptrdiff_t(radius) * side + radius;
  const cached_row::Blend blend{c00, c10, c01, c11};
  const cached_row::Colour colour{red, green, blue};
  const RowAdder adder(blend, colour);
  // A flux * colour that overflowed would turn the zero weights off the chord into NaN: such
  // an event goes pixel by pixel, on the chord only.
  const bool finite_colour = std::isfinite(red) && std::isfinite(green) && std::isfinite(blue);
  // Read once: the frame's vector stores may alias the cache object as far as the compiler knows.
  const std::ptrdiff_t phase_stride = cache.phase_stride();
  const std::ptrdiff_t phase_row = std::ptrdiff_t(phases + 1) * phase_stride;
  const double* phase00 = cache.weights(a, b) + window_centre + run_first;
  double* run = rgb + 3 * std::size_t(ix + run_first);
  std::uint64_t contributions = 0;
#if defined(__x86_64__)
  if constexpr (requires { RowAdder::kChordBits; }) {
    // Eight rows' chords at a time as bits (the scalar arithmetic per row cost as much as the
    // row's pixels).
    if (run_count <= 62) {
      for (std::int64_t dj0 = first_row; dj0 <= last_row; dj0 += 8) {
        alignas(64) std::uint64_t chords[8];
        chord_bits(dj0, centre_x, centre_y, support_sq, bias, box_first, box_last, run_first,
                   chords);
        const std::int64_t count = std::min<std::int64_t>(8, last_row - dj0 + 1);
        for (std::int64_t r = 0; r < count; ++r) {
          const std::uint64_t chord = chords[r];
          if (chord == 0) continue;
          const std::int64_t dj = dj0 + r;
          const double* p00 = phase00 + std::ptrdiff_t(dj) * side;
          const cached_row::PhaseRows rows{p00, p00 + phase_stride, p00 + phase_row,
                                           p00 + phase_row + phase_stride};
          double* out = run + 3 * std::size_t(iy + dj) * width;
          if (finite_colour) {
            adder.add_masked(rows, out, run_count, chord);
          } else {
            cached_row::add_tail(rows, blend, colour, out, 0, run_count, std::countr_zero(chord),
                                 63 - std::countl_zero(chord));
          }
          contributions += std::uint64_t(std::popcount(chord));
        }
      }
      return contributions;
    }
  }
#endif
  for (std::int64_t dj = first_row; dj <= last_row; ++dj) {
    const double dy = dj - centre_y;
    const double reach_sq = support_sq - dy * dy;
    if (reach_sq < 0) continue;
    const double reach = std::sqrt(reach_sq);
    // Pixel centres (ix + di + 0.5) within [x - reach, x + reach].
    const std::int64_t lo = std::max(box_first, ceil_of(centre_x - reach));
    const std::int64_t hi = std::min(box_last, floor_of(centre_x + reach));
    if (lo > hi) continue;
    const double* p00 = phase00 + std::ptrdiff_t(dj) * side;
    const cached_row::PhaseRows rows{p00, p00 + phase_stride, p00 + phase_row,
                                     p00 + phase_row + phase_stride};
    double* out = run + 3 * std::size_t(iy + dj) * width;
    if (finite_colour) {
      adder.add(rows, out, run_count, lo - run_first, hi - run_first);
    } else {
      cached_row::add_tail(rows, blend, colour, out, 0, run_count, lo - run_first, hi - run_first);
    }
    contributions += std::uint64_t(hi - lo + 1);
  }
  return contributions;
}

#if defined(__x86_64__)
// The evaluator compiled for AVX2 (rows padded to 4 pixels) and for AVX-512F (rows padded to 8),
// chosen at run time where the processor has them. On the H200 host's Xeon, against AVX2
// without padding: 1.18-1.24x from the AVX-512 kernel with padded rows (1.05-1.10x from padding
// the AVX2 rows alone), measured on the whole cached pass.
[[gnu::target("avx2")]] std::uint64_t cached_avx2(const StarEvent& event, const PhaseCache& cache,
                                                  double* rgb, std::uint32_t width,
                                                  std::uint32_t height, std::uint32_t row_begin,
                                                  std::uint32_t row_end) {
  return cached_with<cached_row::Avx2RowAdder, 4>(event, cache, rgb, width, height, row_begin,
                                                  row_end);
}
[[gnu::target("avx512f,avx512dq")]] std::uint64_t cached_avx512(
    const StarEvent& event, const PhaseCache& cache, double* rgb, std::uint32_t width,
    std::uint32_t height, std::uint32_t row_begin, std::uint32_t row_end) {
  return cached_with<cached_row::Avx512RowAdder, 8>(event, cache, rgb, width, height, row_begin,
                                                    row_end);
}
#endif

std::uint64_t accumulate_cached(const StarEvent& event, const PhaseCache& cache, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end) {
#if defined(__x86_64__)
  static const bool avx512 =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx512) return cached_avx512(event, cache, rgb, width, height, row_begin, row_end);
  if (avx2) return cached_avx2(event, cache, rgb, width, height, row_begin, row_end);
#endif
  return cached_with<cached_row::RowAdder, 1>(event, cache, rgb, width, height, row_begin, row_end);
}

// The direct evaluator's body, instantiated for the baseline and for AVX2 (always inlined, so
// that direct_pixel_integral's loops over a row of nodes are compiled for the instance's
// vector width). Lane-wise the same operations (no fused multiply-adds: -ffp-contract=off,
// and the AVX2 target has none), so the same bits as the GPU's.
[[gnu::always_inline]] inline std::uint64_t direct_with(const StarEvent& event, const Moffat& psf,
                                                        const DirectPixelRule& rule, double* rgb,
                                                        std::uint32_t width, std::uint32_t height,
                                                        std::uint32_t row_begin,
                                                        std::uint32_t row_end) {
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
          direct_pixel_integral(psf, rule, column - event.x, column + 1 - event.x, y0, y1, support);
      out[3 * column] += red * weight;
      out[3 * column + 1] += green * weight;
      out[3 * column + 2] += blue * weight;
    }
    contributions += std::uint64_t(hi - lo + 1);
  }
  return contributions;
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] std::uint64_t direct_avx2(const StarEvent& event, const Moffat& psf,
                                                  const DirectPixelRule& rule, double* rgb,
                                                  std::uint32_t width, std::uint32_t height,
                                                  std::uint32_t row_begin, std::uint32_t row_end) {
  return direct_with(event, psf, rule, rgb, width, height, row_begin, row_end);
}
#endif

std::uint64_t accumulate_direct(const StarEvent& event, const Moffat& psf, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end) {
  if (!usable(event)) return 0;
  // The rule of the last PSF per thread: a splat calls this per event and band with one PSF.
  thread_local Moffat last_psf{0.0, 0.0};
  thread_local DirectPixelRule rule{};
  if (psf.alpha != last_psf.alpha || psf.beta != last_psf.beta) {
    rule = direct_pixel_rule(psf);
    last_psf = psf;
  }
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return direct_avx2(event, psf, rule, rgb, width, height, row_begin, row_end);
#endif
  return direct_with(event, psf, rule, rgb, width, height, row_begin, row_end);
}

}  // namespace starlens
