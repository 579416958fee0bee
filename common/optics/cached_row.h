#pragma once
// The inner loop of the cached evaluator: one row of an event's bounding box. Every row of an
// event runs over the same columns, so the loop's trip count changes once per event, not once
// per row (a mispredicted loop exit per row cost more than the row's arithmetic); the pixels
// outside the row's chord of the support circle get weight +0.0, which leaves their bits as
// they are (frame values are never -0.0). Weights are formed exactly as
// c00 * p00 + c10 * p10 + c01 * p01 + c11 * p11, left to right, without contraction, so
// the AVX-512, AVX2, SSE2 and scalar paths give the same bits (the AVX2 one is compiled for
// AVX2 alone, no FMA, the AVX-512 one uses explicitly rounded operations; both are chosen at
// run time: the build stays portable).
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
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

// One pixel at a time from pixel k to the end.
inline void add_tail(const PhaseRows& rows, const Blend& blend, const Colour& colour, double* out,
                     std::int64_t k, std::int64_t count, std::int64_t lo, std::int64_t hi) {
  for (; k < count; ++k) {
    if (k < lo || k > hi) continue;
    const double weight = weight_at(rows, blend, k);
    out[3 * k] += colour.red * weight;
    out[3 * k + 1] += colour.green * weight;
    out[3 * k + 2] += colour.blue * weight;
  }
}

// The row adders below are made once per event and then add its rows: their vector constants
// stay in registers across rows (set up per row, they were reloaded and spilled on every row,
// since the frame's vector stores may alias anything in memory).

#if defined(__SSE2__)
// Two-pixel steps, six doubles a step: [r g][b r][g b] times [w0 w0][w0 w1][w1 w1].
class PairSteps {
 public:
  PairSteps(const Blend& blend, const Colour& colour)
      : c00_(_mm_set1_pd(blend.c00)),
        c10_(_mm_set1_pd(blend.c10)),
        c01_(_mm_set1_pd(blend.c01)),
        c11_(_mm_set1_pd(blend.c11)),
        red_green_(_mm_set_pd(colour.green, colour.red)),
        blue_red_(_mm_set_pd(colour.red, colour.blue)),
        green_blue_(_mm_set_pd(colour.blue, colour.green)) {}

  // From pixel k while two remain; returns the first pixel not done.
  std::int64_t add(const PhaseRows& rows, double* out, std::int64_t k, std::int64_t count,
                   std::int64_t lo, std::int64_t hi) const {
    const __m128d first = _mm_set1_pd(double(lo)), last = _mm_set1_pd(double(hi));
    const __m128d step = _mm_set1_pd(2.0);
    __m128d column = _mm_set_pd(double(k + 1), double(k));
    for (; k + 2 <= count; k += 2) {
      __m128d weight = _mm_mul_pd(c00_, _mm_loadu_pd(rows.p00 + k));
      weight = _mm_add_pd(weight, _mm_mul_pd(c10_, _mm_loadu_pd(rows.p10 + k)));
      weight = _mm_add_pd(weight, _mm_mul_pd(c01_, _mm_loadu_pd(rows.p01 + k)));
      weight = _mm_add_pd(weight, _mm_mul_pd(c11_, _mm_loadu_pd(rows.p11 + k)));
      const __m128d inside = _mm_and_pd(_mm_cmpge_pd(column, first), _mm_cmple_pd(column, last));
      weight = _mm_and_pd(weight, inside);
      column = _mm_add_pd(column, step);
      double* pixel = out + 3 * k;
      _mm_storeu_pd(pixel, _mm_add_pd(_mm_loadu_pd(pixel),
                                      _mm_mul_pd(red_green_, _mm_unpacklo_pd(weight, weight))));
      _mm_storeu_pd(pixel + 2, _mm_add_pd(_mm_loadu_pd(pixel + 2), _mm_mul_pd(blue_red_, weight)));
      _mm_storeu_pd(pixel + 4,
                    _mm_add_pd(_mm_loadu_pd(pixel + 4),
                               _mm_mul_pd(green_blue_, _mm_unpackhi_pd(weight, weight))));
    }
    return k;
  }

 private:
  __m128d c00_, c10_, c01_, c11_, red_green_, blue_red_, green_blue_;
};
#endif

// The portable adder: SSE2 pairs where the target has them (x86-64 always does), then single
// pixels.
class RowAdder {
 public:
  RowAdder(const Blend& blend, const Colour& colour)
      : blend_(blend),
        colour_(colour)
#if defined(__SSE2__)
        ,
        pairs_(blend, colour)
#endif
  {
  }

  // Adds colour * weight to the `count` RGB pixels at `out`, the weight zero outside the
  // pixels [lo, hi] of the row.
  void add(const PhaseRows& rows, double* out, std::int64_t count, std::int64_t lo,
           std::int64_t hi) const {
    std::int64_t k = 0;
#if defined(__SSE2__)
    k = pairs_.add(rows, out, k, count, lo, hi);
#endif
    add_tail(rows, blend_, colour_, out, k, count, lo, hi);
  }

 private:
  Blend blend_;
  Colour colour_;
#if defined(__SSE2__)
  PairSteps pairs_;
#endif
};

#if defined(__x86_64__)
// The same with four-pixel AVX2 steps first, for callers compiled for AVX2 (FMA stays off:
// the same bits as RowAdder). Twelve doubles a step: [r g b r][g b r g][b r g b] times
// [w0 w0 w0 w1][w1 w1 w2 w2][w2 w3 w3 w3].
class Avx2RowAdder {
 public:
  [[gnu::target("avx2")]] Avx2RowAdder(const Blend& blend, const Colour& colour)
      : c00_(_mm256_set1_pd(blend.c00)),
        c10_(_mm256_set1_pd(blend.c10)),
        c01_(_mm256_set1_pd(blend.c01)),
        c11_(_mm256_set1_pd(blend.c11)),
        rgbr_(_mm256_set_pd(colour.red, colour.blue, colour.green, colour.red)),
        gbrg_(_mm256_set_pd(colour.green, colour.red, colour.blue, colour.green)),
        brgb_(_mm256_set_pd(colour.blue, colour.green, colour.red, colour.blue)),
        blend_(blend),
        colour_(colour),
        pairs_(blend, colour) {}

  [[gnu::target("avx2")]] void add(const PhaseRows& rows, double* out, std::int64_t count,
                                   std::int64_t lo, std::int64_t hi) const {
    const __m256d first = _mm256_set1_pd(double(lo)), last = _mm256_set1_pd(double(hi));
    const __m256d step = _mm256_set1_pd(4.0);
    __m256d column = _mm256_set_pd(3.0, 2.0, 1.0, 0.0);
    std::int64_t k = 0;
    for (; k + 4 <= count; k += 4) {
      __m256d weight = _mm256_mul_pd(c00_, _mm256_loadu_pd(rows.p00 + k));
      weight = _mm256_add_pd(weight, _mm256_mul_pd(c10_, _mm256_loadu_pd(rows.p10 + k)));
      weight = _mm256_add_pd(weight, _mm256_mul_pd(c01_, _mm256_loadu_pd(rows.p01 + k)));
      weight = _mm256_add_pd(weight, _mm256_mul_pd(c11_, _mm256_loadu_pd(rows.p11 + k)));
      const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(column, first, _CMP_GE_OQ),
                                           _mm256_cmp_pd(column, last, _CMP_LE_OQ));
      weight = _mm256_and_pd(weight, inside);
      column = _mm256_add_pd(column, step);
      double* pixel = out + 3 * k;
      const __m256d w0 = _mm256_permute4x64_pd(weight, _MM_SHUFFLE(1, 0, 0, 0));
      const __m256d w1 = _mm256_permute4x64_pd(weight, _MM_SHUFFLE(2, 2, 1, 1));
      const __m256d w2 = _mm256_permute4x64_pd(weight, _MM_SHUFFLE(3, 3, 3, 2));
      _mm256_storeu_pd(pixel, _mm256_add_pd(_mm256_loadu_pd(pixel), _mm256_mul_pd(rgbr_, w0)));
      _mm256_storeu_pd(pixel + 4,
                       _mm256_add_pd(_mm256_loadu_pd(pixel + 4), _mm256_mul_pd(gbrg_, w1)));
      _mm256_storeu_pd(pixel + 8,
                       _mm256_add_pd(_mm256_loadu_pd(pixel + 8), _mm256_mul_pd(brgb_, w2)));
    }
    k = pairs_.add(rows, out, k, count, lo, hi);
    add_tail(rows, blend_, colour_, out, k, count, lo, hi);
  }

 private:
  __m256d c00_, c10_, c01_, c11_, rgbr_, gbrg_, brgb_;
  Blend blend_;
  Colour colour_;
  PairSteps pairs_;
};

// Eight-pixel AVX-512 steps, for callers compiled for AVX-512F; a row whose pixel count is not
// a multiple of eight ends with one masked step (masked loads and stores touch only the
// selected doubles). Twenty-four doubles a step: [r g b r g b r g][b r g b r g b r][g b r g b r
// g b] times [w0 w0 w0 w1 w1 w1 w2 w2][w2 w3 w3 w3 w4 w4 w4 w5][w5 w5 w6 w6 w6 w7 w7 w7]. The
// products and sums are the explicitly rounded (round to nearest) forms, which the compiler
// never fuses into an FMA although the target has it: the same bits as the other paths. (The
// maskz forms with a full mask: GCC 12 warns of the plain forms' undefined source operand.)
class Avx512RowAdder {
  static constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

 public:
  static constexpr bool kChordBits = true;  // has add_masked

  [[gnu::target("avx512f")]] Avx512RowAdder(const Blend& blend, const Colour& colour)
      : c00_(_mm512_set1_pd(blend.c00)),
        c10_(_mm512_set1_pd(blend.c10)),
        c01_(_mm512_set1_pd(blend.c01)),
        c11_(_mm512_set1_pd(blend.c11)),
        colour0_(_mm512_setr_pd(colour.red, colour.green, colour.blue, colour.red, colour.green,
                                colour.blue, colour.red, colour.green)),
        colour1_(_mm512_setr_pd(colour.blue, colour.red, colour.green, colour.blue, colour.red,
                                colour.green, colour.blue, colour.red)),
        colour2_(_mm512_setr_pd(colour.green, colour.blue, colour.red, colour.green, colour.blue,
                                colour.red, colour.green, colour.blue)) {}

  [[gnu::target("avx512f")]] void add(const PhaseRows& rows, double* out, std::int64_t count,
                                      std::int64_t lo, std::int64_t hi) const {
    add_steps<false>(rows, out, count, 0, _mm512_set1_pd(double(lo)), _mm512_set1_pd(double(hi)));
  }

  // The same with the chord given as bits (bit i: pixel i is on it; none at or past `count`).
  [[gnu::target("avx512f")]] void add_masked(const PhaseRows& rows, double* out, std::int64_t count,
                                             std::uint64_t chord) const {
    add_steps<true>(rows, out, count, chord, _mm512_setzero_pd(), _mm512_setzero_pd());
  }

 private:
  // The chord: the bits `chord` (kBits) or the pixels [first, last] (as doubles).
  template <bool kBits>
  [[gnu::target("avx512f"), gnu::always_inline]] inline void add_steps(
      const PhaseRows& rows, double* out, std::int64_t count, std::uint64_t chord, __m512d first,
      __m512d last) const {
    std::int64_t k = 0;
    for (; k + 8 <= count; k += 8) {
      const __m512d weight = _mm512_maskz_mov_pd(
          inside<kBits>(k, chord, first, last),
          weight_of(_mm512_loadu_pd(rows.p00 + k), _mm512_loadu_pd(rows.p10 + k),
                    _mm512_loadu_pd(rows.p01 + k), _mm512_loadu_pd(rows.p11 + k)));
      double* pixel = out + 3 * k;
      _mm512_storeu_pd(pixel, add_to(_mm512_loadu_pd(pixel), colour0_, spread(0, weight)));
      _mm512_storeu_pd(pixel + 8, add_to(_mm512_loadu_pd(pixel + 8), colour1_, spread(1, weight)));
      _mm512_storeu_pd(pixel + 16,
                       add_to(_mm512_loadu_pd(pixel + 16), colour2_, spread(2, weight)));
    }
    if (k == count) return;
    const int left = int(count - k);  // 1 to 7 pixels: 3 to 21 doubles
    const __mmask8 pixels = __mmask8((1u << left) - 1);
    const std::uint32_t doubles = (1u << (3 * left)) - 1;
    const __mmask8 m0 = __mmask8(doubles), m1 = __mmask8(doubles >> 8);
    const __mmask8 m2 = __mmask8(doubles >> 16);
    const __m512d weight =
        _mm512_maskz_mov_pd(inside<kBits>(k, chord, first, last) & pixels,
                            weight_of(_mm512_maskz_loadu_pd(pixels, rows.p00 + k),
                                      _mm512_maskz_loadu_pd(pixels, rows.p10 + k),
                                      _mm512_maskz_loadu_pd(pixels, rows.p01 + k),
                                      _mm512_maskz_loadu_pd(pixels, rows.p11 + k)));
    double* pixel = out + 3 * k;
    _mm512_mask_storeu_pd(pixel, m0,
                          add_to(_mm512_maskz_loadu_pd(m0, pixel), colour0_, spread(0, weight)));
    _mm512_mask_storeu_pd(
        pixel + 8, m1, add_to(_mm512_maskz_loadu_pd(m1, pixel + 8), colour1_, spread(1, weight)));
    _mm512_mask_storeu_pd(
        pixel + 16, m2, add_to(_mm512_maskz_loadu_pd(m2, pixel + 16), colour2_, spread(2, weight)));
  }
  // The chord's pixels among k .. k + 7, as mask bits.
  template <bool kBits>
  [[gnu::target("avx512f"), gnu::always_inline]] static inline __mmask8 inside(std::int64_t k,
                                                                               std::uint64_t chord,
                                                                               __m512d first,
                                                                               __m512d last) {
    if constexpr (kBits) {
      return __mmask8(chord >> k);
    } else {
      const __m512d column =
          _mm512_add_pd(_mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_pd(double(k)));
      return __mmask8(_mm512_cmp_pd_mask(column, first, _CMP_GE_OQ) &
                      _mm512_cmp_pd_mask(column, last, _CMP_LE_OQ));
    }
  }
  // c00 * p00 + c10 * p10 + c01 * p01 + c11 * p11, left to right.
  [[gnu::target("avx512f")]] __m512d weight_of(__m512d p00, __m512d p10, __m512d p01,
                                               __m512d p11) const {
    __m512d weight = _mm512_maskz_mul_round_pd(0xFF, c00_, p00, kRound);
    weight = _mm512_maskz_add_round_pd(0xFF, weight,
                                       _mm512_maskz_mul_round_pd(0xFF, c10_, p10, kRound), kRound);
    weight = _mm512_maskz_add_round_pd(0xFF, weight,
                                       _mm512_maskz_mul_round_pd(0xFF, c01_, p01, kRound), kRound);
    return _mm512_maskz_add_round_pd(0xFF, weight,
                                     _mm512_maskz_mul_round_pd(0xFF, c11_, p11, kRound), kRound);
  }
  // The weights of the eight pixels spread over the 24 doubles' third `part`.
  [[gnu::target("avx512f")]] static __m512d spread(int part, __m512d weight) {
    const __m512i index = part == 0   ? _mm512_setr_epi64(0, 0, 0, 1, 1, 1, 2, 2)
                          : part == 1 ? _mm512_setr_epi64(2, 3, 3, 3, 4, 4, 4, 5)
                                      : _mm512_setr_epi64(5, 5, 6, 6, 6, 7, 7, 7);
    return _mm512_maskz_permutexvar_pd(0xFF, index, weight);
  }
  // frame + colour * weight.
  [[gnu::target("avx512f")]] static __m512d add_to(__m512d frame, __m512d colour, __m512d weight) {
    return _mm512_maskz_add_round_pd(
        0xFF, frame, _mm512_maskz_mul_round_pd(0xFF, colour, weight, kRound), kRound);
  }

  __m512d c00_, c10_, c01_, c11_, colour0_, colour1_, colour2_;
};
#endif

}  // namespace starlens::cached_row
