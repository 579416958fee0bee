#pragma once
// The inner loop of the cached evaluator: one row of an event's bounding box. Every row of an
// event runs over the same columns, so the loop's trip count changes once per event, not once
// per row (a mispredicted loop exit per row cost more than the row's arithmetic); the pixels
// outside the row's chord of the support circle get weight +0.0, which leaves their bits as
// they are (frame values are never -0.0). Weights are formed exactly as
// c00 * p00 + c10 * p10 + c01 * p01 + c11 * p11, left to right, without contraction, so
// vector and scalar paths give the same bits.
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace starlens::cached_row {

struct PhaseRows {  // the row of the four phases around the event's sub-pixel offset
  const double* p00;
  const double* p10;
  const double* p01;
  const double* p11;
};
struct Blend {  // bilinear coefficients of the four phases
  double c00, c10, c01, c11;
};
struct Colour {  // flux * colour
  double red, green, blue;
};

inline double weight_at(const PhaseRows& rows, const Blend& blend, std::int64_t k) {
  return blend.c00 * rows.p00[k] + blend.c10 * rows.p10[k] + blend.c01 * rows.p01[k] +
         blend.c11 * rows.p11[k];
}

// Adds colour * weight to the `count` RGB pixels at `out`, the weight zero outside the
// pixels [lo, hi] of the row.
inline void add(const PhaseRows& rows, const Blend& blend, const Colour& colour, double* out,
                std::int64_t count, std::int64_t lo, std::int64_t hi) {
  std::int64_t k = 0;
#if defined(__SSE2__)
  // Two pixels (six doubles) a step: [r g][b r][g b] times [w0 w0][w0 w1][w1 w1].
  const __m128d c00 = _mm_set1_pd(blend.c00), c10 = _mm_set1_pd(blend.c10);
  const __m128d c01 = _mm_set1_pd(blend.c01), c11 = _mm_set1_pd(blend.c11);
  const __m128d red_green = _mm_set_pd(colour.green, colour.red);
  const __m128d blue_red = _mm_set_pd(colour.red, colour.blue);
  const __m128d green_blue = _mm_set_pd(colour.blue, colour.green);
  const __m128d first = _mm_set1_pd(double(lo)), last = _mm_set1_pd(double(hi));
  const __m128d step = _mm_set1_pd(2.0);
  __m128d column = _mm_set_pd(1.0, 0.0);
  for (; k + 2 <= count; k += 2) {
    __m128d weight = _mm_mul_pd(c00, _mm_loadu_pd(rows.p00 + k));
    weight = _mm_add_pd(weight, _mm_mul_pd(c10, _mm_loadu_pd(rows.p10 + k)));
    weight = _mm_add_pd(weight, _mm_mul_pd(c01, _mm_loadu_pd(rows.p01 + k)));
    weight = _mm_add_pd(weight, _mm_mul_pd(c11, _mm_loadu_pd(rows.p11 + k)));
    const __m128d inside = _mm_and_pd(_mm_cmpge_pd(column, first), _mm_cmple_pd(column, last));
    weight = _mm_and_pd(weight, inside);
    column = _mm_add_pd(column, step);
    double* pixel = out + 3 * k;
    _mm_storeu_pd(pixel, _mm_add_pd(_mm_loadu_pd(pixel),
                                    _mm_mul_pd(red_green, _mm_unpacklo_pd(weight, weight))));
    _mm_storeu_pd(pixel + 2, _mm_add_pd(_mm_loadu_pd(pixel + 2), _mm_mul_pd(blue_red, weight)));
    _mm_storeu_pd(pixel + 4, _mm_add_pd(_mm_loadu_pd(pixel + 4),
                                        _mm_mul_pd(green_blue, _mm_unpackhi_pd(weight, weight))));
  }
#endif
  for (; k < count; ++k) {
    if (k < lo || k > hi) continue;
    const double weight = weight_at(rows, blend, k);
    out[3 * k] += colour.red * weight;
    out[3 * k + 1] += colour.green * weight;
    out[3 * k + 2] += colour.blue * weight;
  }
}

}  // namespace starlens::cached_row
