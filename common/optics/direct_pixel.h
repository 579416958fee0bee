#pragma once
// The direct evaluator's pixel integral (docs/design.md section 5): the Moffat PSF over a pixel
// clipped to the event's support disc, as moffat_rectangle_integral (within 1e-13 relative of the
// integral; docs/accuracy/psf.md, "Direct evaluator"), at a fraction of its cost. Header-only
// and host-device: the GPU's direct kernel calls the same arithmetic as the CPU's evaluator.
//
// A pixel (sides <= 1) that the support circle does not cut and whose nearest point lies at
// R^2 = alpha^2 + d_near^2 above the rule's threshold of some order n is integrated with the
// n x n tensor Gauss-Legendre rule; one nearer the centre with the same rule on 2 x 2 or 3 x 3
// sub-squares (direct_subdivision); one the circle cuts with a mapped product rule over the
// pixel's part inside the disc (cut_sum); any other pixel with the exact polar quadrature.
// The order comes from a proven bound (docs/accuracy/psf.md, "Direct evaluator"): the
// integrand (alpha^2 + x^2 + y^2)^-beta is analytic in x except at x = +-i sqrt(alpha^2 + y^2),
// at distance >= R from the side's midpoint; on the Bernstein ellipse E_rho around a side of
// half-length h <= 1/2 (inside the disc of radius h a, a = (rho + 1/rho) / 2, around the
// midpoint) its modulus is at most (R - a/2)^-2beta, and on the pixel it is at least
// (R + sqrt 2)^-2beta. With the n-point Gauss-Legendre bound (64/15) M rho^-2(n-1) / (rho^2 - 1)
// per direction, the tensor rule's error relative to the pixel is at most
//   B(n, rho, R) = (64/15) ((R + sqrt 2) / (R - a/2))^2beta rho^-2(n-1) / (rho^2 - 1),
// which decreases with R; the rule stores, per order, the smallest R where min over rho of B
// reaches kDirectQuadratureTarget.
// The node values avoid a power per node: f = f(centre) (1 + eps)^-beta with
// eps = (2 cx u + u^2 + 2 cy v + v^2) / (alpha^2 + cx^2 + cy^2), summed as the binomial series
// sum_k binom(-beta, k) eps^k; its first K terms leave at most
//   |binom(-beta, K)| e^K (1 + e)^beta / (1 - e (beta + K) / (K + 1))
// relative to the node's value for |eps| <= e, and the rule stores the largest e each K allows
// at kDirectSeriesTarget. Nodes of pixels beyond the series' reach use pow.
#include <cmath>
#include <numbers>

#include "optics/moffat.h"

// The tensor rule is inlined into each caller, so that the CPU's evaluator compiles its loops
// for the caller's instruction set (accumulate_direct has an AVX2 instance).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STARLENS_DIRECT_INLINE __forceinline__
#else
#define STARLENS_DIRECT_INLINE __attribute__((always_inline)) inline
#endif
// The paths few pixels take (the tensor rule's highest orders, the cut-pixel rule, the
// sub-squares and the exact quadrature) are calls on the device: inlined into the kernel, their
// registers would be reserved for every pixel and spill under the kernel's register cap. On the
// host they are inlined like the rest (into the caller's instruction set).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STARLENS_DIRECT_RARE __noinline__ inline
#else
#define STARLENS_DIRECT_RARE STARLENS_DIRECT_INLINE
#endif

namespace starlens {

namespace direct_pixel_detail {

constexpr int kMinOrder = 2;
constexpr int kMaxOrder = 8;
constexpr int kOrderCount = kMaxOrder - kMinOrder + 1;
constexpr int kMaxSeriesTerms = 24;
// The largest half-side of a rectangle the tensor rule takes: half a pixel, with room for the
// rounding of column - x and column + 1 - x (the bound below is built for it).
constexpr double kMaxHalfSide = 0.5 * (1.0 + 1e-9);
// Cut pixels (direct_cut_order): the orders added to the one their distances ask for, and the
// depth (px) the disc must reach into the pixel past its nearest point; shallower slivers are
// ill-conditioned (their value moves by eps R / depth relative with the inputs' rounding) and
// go to the exact quadrature.
constexpr int kCutOrderMargin = 1;
constexpr double kMinCutDepth = 0.1;
// Pixels near the centre: at most this many sub-squares a side (direct_subdivision).
constexpr int kMaxSubdivision = 3;

// Gauss-Legendre rules of kMinOrder .. kMaxOrder points on [-1, 1], computed with 50-digit
// arithmetic (mpmath) and rounded to double; rule n starts at entry n(n-1)/2 - 1.
struct GaussLegendreRules {
  double nodes[35];
  double weights[35];
};

STARLENS_HOST_DEVICE inline const GaussLegendreRules& gauss_legendre_rules() {
  // clang-format off
  static constexpr GaussLegendreRules rules = {
    {0.5773502691896257, -0.5773502691896257,
     0.7745966692414834, 0.0, -0.7745966692414834,
     0.8611363115940526, 0.33998104358485626, -0.33998104358485626, -0.8611363115940526,
     0.906179845938664, 0.5384693101056831, 0.0, -0.5384693101056831, -0.906179845938664,
     0.932469514203152, 0.6612093864662645, 0.2386191860831969, -0.2386191860831969,
     -0.6612093864662645, -0.932469514203152,
     0.9491079123427585, 0.7415311855993945, 0.4058451513773972, 0.0, -0.4058451513773972,
     -0.7415311855993945, -0.9491079123427585,
     0.9602898564975363, 0.7966664774136267, 0.525532409916329, 0.1834346424956498,
     -0.1834346424956498, -0.525532409916329, -0.7966664774136267, -0.9602898564975363},
    {1.0, 1.0,
     0.5555555555555556, 0.8888888888888888, 0.5555555555555556,
     0.34785484513745385, 0.6521451548625461, 0.6521451548625461, 0.34785484513745385,
     0.23692688505618908, 0.47862867049936647, 0.5688888888888889, 0.47862867049936647,
     0.23692688505618908,
     0.17132449237917036, 0.3607615730481386, 0.46791393457269104, 0.46791393457269104,
     0.3607615730481386, 0.17132449237917036,
     0.1294849661688697, 0.27970539148927664, 0.3818300505051189, 0.4179591836734694,
     0.3818300505051189, 0.27970539148927664, 0.1294849661688697,
     0.10122853629037626, 0.22238103445337448, 0.31370664587788727, 0.362683783378362,
     0.362683783378362, 0.31370664587788727, 0.22238103445337448, 0.10122853629037626},
  };
  // clang-format on
  return rules;
}

STARLENS_HOST_DEVICE constexpr int first_node(int order) {
  return order * (order - 1) / 2 - 1;
}

}  // namespace direct_pixel_detail

// Relative error bounds the rule is built for: the tensor rule's and the series' (per node).
constexpr double kDirectQuadratureTarget = 5e-14;
constexpr double kDirectSeriesTarget = 5e-14;

// What the fast pixel integral needs of one PSF, computed once (direct_pixel_rule).
struct DirectPixelRule {
  double alpha_sq;
  double beta;
  double peak;  // (beta - 1) / (pi alpha^2): the density at the centre
  // Order kMinOrder + k is enough where alpha^2 + d_near^2 >= min_radius_sq[k] (infinite:
  // never, the pixel is integrated exactly).
  double min_radius_sq[direct_pixel_detail::kOrderCount];
  // binom(-beta, k), and the largest |eps| that the first K terms cover (series_reach[K]).
  double series[direct_pixel_detail::kMaxSeriesTerms];
  double series_reach[direct_pixel_detail::kMaxSeriesTerms + 1];
  // Orders added to a cut pixel's order beyond what its distances ask for (the measured rule's
  // margin, direct_cut_order).
  int cut_order_margin;
};

// The bound B(n, rho, R) above; infinite where the ellipse reaches the singularities.
inline double direct_quadrature_bound(int order, double rho, double radius, double beta) {
  using direct_pixel_detail::kMaxHalfSide;
  const double a = 0.5 * (rho + 1.0 / rho);
  if (!(kMaxHalfSide * a < radius)) return INFINITY;
  // The pixel's diameter 2 sqrt(2) h and the ellipse's reach h a, h = kMaxHalfSide.
  const double diameter = 2.0 * std::numbers::sqrt2 * kMaxHalfSide;
  return 64.0 / 15.0 * std::pow((radius + diameter) / (radius - kMaxHalfSide * a), 2.0 * beta) *
         std::pow(rho, -2.0 * (order - 1)) / (rho * rho - 1.0);
}

// min over rho of the bound, by golden-section search on log(rho) (the bound is unimodal in
// it: a decreasing power of rho times a factor that grows without bound as a/2 -> R). Any rho
// gives a valid bound, so an inexact minimum only makes the rule more cautious.
inline double direct_quadrature_bound(int order, double radius, double beta) {
  double lo = 1e-9, hi = std::log(4.0 * radius + 2.0);
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double best = INFINITY;
  for (int step = 0; step < 80; ++step) {
    const double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
    const double b1 = direct_quadrature_bound(order, std::exp(m1), radius, beta);
    const double b2 = direct_quadrature_bound(order, std::exp(m2), radius, beta);
    best = std::fmin(best, std::fmin(b1, b2));
    if (b1 < b2) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return best;
}

// The series' tail after `terms` terms, relative to the node's value, for |eps| <= e.
inline double direct_series_bound(int terms, double e, double beta) {
  double coefficient = 1.0;  // |binom(-beta, terms)|
  for (int k = 0; k < terms; ++k) coefficient *= (beta + k) / (k + 1);
  const double ratio = e * (beta + terms) / (terms + 1);
  if (!(ratio < 1.0)) return INFINITY;
  return coefficient * std::pow(e, terms) * std::pow(1.0 + e, beta) / (1.0 - ratio);
}

// The rule of one PSF (host: a few thousand pow calls). `quadrature_target` and
// `series_target` are the relative bounds the orders and series lengths are chosen for.
inline DirectPixelRule direct_pixel_rule(const Moffat& psf,
                                         double quadrature_target = kDirectQuadratureTarget,
                                         double series_target = kDirectSeriesTarget) {
  using namespace direct_pixel_detail;
  DirectPixelRule rule{};
  rule.alpha_sq = psf.alpha * psf.alpha;
  rule.beta = psf.beta;
  rule.peak = (psf.beta - 1.0) / (std::numbers::pi * rule.alpha_sq);
  for (int k = 0; k < kOrderCount; ++k) {
    // The smallest R (px) meeting the target, by bisection on a geometric scale; the bound
    // decreases with R, so every larger R meets it too.
    double lo = 1e-3, hi = 1e5;
    if (direct_quadrature_bound(kMinOrder + k, hi, psf.beta) > quadrature_target) {
      rule.min_radius_sq[k] = INFINITY;
      continue;
    }
    for (int step = 0; step < 100; ++step) {
      const double mid = std::sqrt(lo * hi);
      if (direct_quadrature_bound(kMinOrder + k, mid, psf.beta) <= quadrature_target) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    rule.min_radius_sq[k] = hi * hi;
  }
  double coefficient = 1.0;
  for (int k = 0; k < kMaxSeriesTerms; ++k) {
    rule.series[k] = coefficient;
    coefficient *= -(psf.beta + k) / (k + 1);
  }
  rule.cut_order_margin = kCutOrderMargin;
  rule.series_reach[0] = 0.0;
  for (int terms = 1; terms <= kMaxSeriesTerms; ++terms) {
    // The largest e meeting the target, by bisection (the tail grows with e); rounded down.
    double lo = 0.0, hi = 1.0;
    for (int step = 0; step < 100; ++step) {
      const double mid = 0.5 * (lo + hi);
      if (direct_series_bound(terms, mid, psf.beta) <= series_target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    rule.series_reach[terms] = lo;
  }
  return rule;
}

// The tensor rule's sum over the nodes (i, j) of weights[i] weights[j] (1 + eps)^-beta, with
// eps = eps_x[i] + eps_y[j], eps_x[i] = u (2 cx + u) / S at u = half_x nodes[i] (likewise y):
// the first `terms` terms of the binomial series, or pow where terms exceeds the series'
// length. The order is a template parameter, so that the loops unroll and the values stay in
// registers.
template <int N>
STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double tensor_sum(const DirectPixelRule& rule,
                                                              int terms, const double* nodes,
                                                              const double* weights, double half_x,
                                                              double half_y, double cx, double cy,
                                                              double inverse) {
  using direct_pixel_detail::kMaxSeriesTerms;
  double eps_x[N], eps_y[N];
  for (int i = 0; i < N; ++i) {
    const double u = half_x * nodes[i], v = half_y * nodes[i];
    eps_x[i] = u * (2.0 * cx + u) * inverse;
    eps_y[i] = v * (2.0 * cy + v) * inverse;
  }
  double sum = 0.0;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  // A row of nodes at a time: N values in registers.
  for (int j = 0; j < N; ++j) {
    double value[N];
    if (terms <= kMaxSeriesTerms) {
      for (int i = 0; i < N; ++i) value[i] = rule.series[terms - 1];
      for (int t = terms - 2; t >= 0; --t)
        for (int i = 0; i < N; ++i) value[i] = value[i] * (eps_x[i] + eps_y[j]) + rule.series[t];
    } else {
      for (int i = 0; i < N; ++i) value[i] = pow(1.0 + (eps_x[i] + eps_y[j]), -rule.beta);
    }
    double row = 0.0;
    for (int i = 0; i < N; ++i) row += weights[i] * value[i];
    sum += weights[j] * row;
  }
#else
  // All nodes at once: N^2 independent Horner chains, which the compiler vectorises. The same
  // operations on every node as the device's layout above, and the same order of the sums.
  double eps[N * N], value[N * N];
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) eps[j * N + i] = eps_x[i] + eps_y[j];
  if (terms <= kMaxSeriesTerms) {
    for (int n = 0; n < N * N; ++n) value[n] = rule.series[terms - 1];
    for (int t = terms - 2; t >= 0; --t) {
      const double coefficient = rule.series[t];
      for (int n = 0; n < N * N; ++n) value[n] = value[n] * eps[n] + coefficient;
    }
  } else {
    for (int n = 0; n < N * N; ++n) value[n] = pow(1.0 + eps[n], -rule.beta);
  }
  for (int j = 0; j < N; ++j) {
    double row = 0.0;
    for (int i = 0; i < N; ++i) row += weights[i] * value[j * N + i];
    sum += weights[j] * row;
  }
#endif
  return sum;
}

// The order of the tensor rule for the rectangle [x0,x1] x [y0,y1] around the PSF's centre
// clipped to the disc of radius `clip` (<= 0: none), or 0 where the exact quadrature takes it:
// no order reaches the target, the rectangle is empty, wider than a pixel, or cut by the
// support circle.
STARLENS_HOST_DEVICE inline int direct_pixel_order(const DirectPixelRule& rule, double x0,
                                                   double x1, double y0, double y1, double clip) {
  using namespace direct_pixel_detail;
  const double half_x = 0.5 * (x1 - x0), half_y = 0.5 * (y1 - y0);
  if (!(half_x > 0.0) || !(half_y > 0.0) || half_x > kMaxHalfSide || half_y > kMaxHalfSide)
    return 0;
  const double far_x = fmax(fabs(x0), fabs(x1)), far_y = fmax(fabs(y0), fabs(y1));
  if (clip > 0.0 && !(far_x * far_x + far_y * far_y <= clip * clip)) return 0;
  const double near_x = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0;
  const double near_y = y0 > 0.0 ? y0 : y1 < 0.0 ? -y1 : 0.0;
  const double radius_sq = rule.alpha_sq + near_x * near_x + near_y * near_y;
  for (int k = 0; k < kOrderCount; ++k)
    if (radius_sq >= rule.min_radius_sq[k]) return kMinOrder + k;
  return 0;
}

// A pixel the support circle cuts, in coordinates turned so that the pixel's centre (ca, cb)
// has cb >= |ca| (a mirror and a swap of the axes: the integrand depends on x^2 + y^2 only):
// the region is a0 <= a <= a1, b0 <= b <= min(b1, h(a)), h(a) = sqrt(clip^2 - a^2), h falling
// with |a|. Split at the a where h meets b0 and b1, each piece is full height or bounded by h;
// an N-point Gauss-Legendre rule in a, and in b over [b0, min(b1, h(a))] per a node. Returns the
// integral of (1 + eps)^-beta (eps around the pixel's centre, as the tensor rule) over the
// region.
template <int N>
STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double cut_sum(
    const DirectPixelRule& rule, int terms, const double* nodes, const double* weights, double a0,
    double a1, double b0, double b1, double ca, double cb, double clip, double inverse) {
  using direct_pixel_detail::kMaxSeriesTerms;
  // The circle meets b = b1 at |a| = top (none where b1 >= clip) and b = b0 at |a| = bottom.
  const double reach0 = (clip - b0) * (clip + b0);
  // clip^2 - b0^2 - ca^2, with the roundings of its products and of clip + b0 recovered (fma,
  // two-sum): h(a) - b0 at a = ca + u is (depth - u (2 ca + u)) / (h(a) + b0), and a plain
  // depth would carry an error eps clip^2, eps clip / (h - b0) relative to the pixel's value.
  const double sum = clip + b0;
  const double sum_error = (clip - (sum - b0)) + (b0 - (sum - (sum - b0)));
  const double gap = clip - b0;  // exact: b0 lies within [clip / 2, clip] on a cut pixel
  const double product_error = fma(gap, sum, -reach0);
  const double ca_sq = ca * ca;
  const double ca_sq_error = fma(ca, ca, -ca_sq);
  const double depth = (reach0 - ca_sq) + ((product_error - ca_sq_error) + gap * sum_error);
  const double top = b1 < clip ? sqrt((clip - b1) * (clip + b1)) : -1.0;
  const double bottom = sqrt(reach0);
  const double candidates[4] = {-bottom, -top, top, bottom};
  double breaks[6];
  int count = 0;
  breaks[count++] = a0;
  for (int k = 0; k < 4; ++k) {
    const double c = candidates[k];
    if (k == 1 || k == 2) {
      if (!(top >= 0.0)) continue;
    }
    if (c > a0 && c < a1) breaks[count++] = c;  // the candidates are sorted
  }
  breaks[count++] = a1;
  double total = 0.0;
  for (int piece = 0; piece + 1 < count; ++piece) {
    // The piece as offsets from ca (exact differences of nearby numbers): a midpoint formed at
    // |a| ~ clip would be off by eps clip, which shifts the rule against its interval by
    // eps clip / (hi - lo) relative.
    const double lo = breaks[piece] - ca, hi = breaks[piece + 1] - ca;
    if (!(hi > lo)) continue;
    const double mid_u = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    const double mid = ca + mid_u;
    // Full height, bounded by the circle, or outside the disc: constant on the piece. Where
    // b1 >= clip the circle stays below b1 (h(0) = clip touches b1 = clip at one point only).
    const double mid_height = sqrt((clip - mid) * (clip + mid));
    if (!(mid_height > b0)) continue;
    const bool full = mid_height > b1;
    double piece_sum = 0.0;
    for (int i = 0; i < N; ++i) {
      const double u = mid_u + half * nodes[i];
      const double a = ca + u;
      // h(a) - b0 without the cancellation of two nearly equal square roots.
      const double length =
          full ? b1 - b0
               : fmax(0.0, (depth - u * (2.0 * ca + u)) / (sqrt((clip - a) * (clip + a)) + b0));
      const double half_length = 0.5 * length;
      const double eps_u = u * (2.0 * ca + u) * inverse;
      // The column's N nodes at once: independent Horner chains, which the compiler
      // vectorises on the host.
      double eps[N], value[N];
      for (int j = 0; j < N; ++j) {
        const double v = (b0 - cb) + half_length * (1.0 + nodes[j]);
        eps[j] = eps_u + v * (2.0 * cb + v) * inverse;
      }
      if (terms <= kMaxSeriesTerms) {
        for (int j = 0; j < N; ++j) value[j] = rule.series[terms - 1];
        for (int t = terms - 2; t >= 0; --t) {
          const double coefficient = rule.series[t];
          for (int j = 0; j < N; ++j) value[j] = value[j] * eps[j] + coefficient;
        }
      } else {
        for (int j = 0; j < N; ++j) value[j] = pow(1.0 + eps[j], -rule.beta);
      }
      double column = 0.0;
      for (int j = 0; j < N; ++j) column += weights[j] * value[j];
      piece_sum += weights[i] * half_length * column;
    }
    total += half * piece_sum;
  }
  return total;
}

// The order of the cut-pixel rule for the rectangle [x0,x1] x [y0,y1] (sides <= 1) that the
// circle of radius `clip` cuts, or 0 where the exact quadrature takes it. A measured rule
// (docs/accuracy/psf.md, "Direct evaluator: cut pixels"): the tensor rule's order for the
// smaller of the Moffat's distance sqrt(alpha^2 + d_near^2) and the distance from the pixel to
// the branch point of h, clip - max|a|, plus rule.cut_order_margin; 0 where that exceeds the
// largest order, where the disc reaches less than kMinCutDepth into the pixel, or where the
// pixel does not lie outside the disc of radius 1 (so that b0 > 0 after the turn).
STARLENS_HOST_DEVICE inline int direct_cut_order(const DirectPixelRule& rule, double x0, double x1,
                                                 double y0, double y1, double clip) {
  using namespace direct_pixel_detail;
  const double near_x = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0;
  const double near_y = y0 > 0.0 ? y0 : y1 < 0.0 ? -y1 : 0.0;
  const double near_sq = near_x * near_x + near_y * near_y;
  if (!(near_sq >= 1.0)) return 0;
  if (!(clip * clip - near_sq >= 2.0 * clip * kMinCutDepth)) return 0;
  const double cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
  // The outer coordinate a is the one with the smaller |centre|.
  const double outer_far =
      fabs(cx) <= fabs(cy) ? fmax(fabs(x0), fabs(x1)) : fmax(fabs(y0), fabs(y1));
  const double branch = clip - outer_far;
  const double moffat_sq = rule.alpha_sq + near_sq;
  const double radius_sq = branch > 0.0 ? fmin(moffat_sq, branch * branch) : 0.0;
  for (int k = 0; k < kOrderCount; ++k) {
    if (radius_sq >= rule.min_radius_sq[k]) {
      const int order = kMinOrder + k + rule.cut_order_margin;
      return order <= kMaxOrder ? (order < kMinOrder ? kMinOrder : order) : 0;
    }
  }
  return 0;
}

// Whether the circle of radius clip (> 0) cuts the pixel: its far corner outside the disc,
// its nearest point inside; a pixel no wider than one.
STARLENS_HOST_DEVICE inline bool direct_pixel_cut(double x0, double x1, double y0, double y1,
                                                  double clip) {
  using direct_pixel_detail::kMaxHalfSide;
  if (!(clip > 0.0)) return false;
  if (!(x1 > x0) || !(y1 > y0) || 0.5 * (x1 - x0) > kMaxHalfSide || 0.5 * (y1 - y0) > kMaxHalfSide)
    return false;
  const double far_x = fmax(fabs(x0), fabs(x1)), far_y = fmax(fabs(y0), fabs(y1));
  const double near_x = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0;
  const double near_y = y0 > 0.0 ? y0 : y1 < 0.0 ? -y1 : 0.0;
  return far_x * far_x + far_y * far_y > clip * clip &&
         near_x * near_x + near_y * near_y < clip * clip;
}

// The cut pixel's integral (direct_cut_order > 0).
STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double direct_cut_pixel_integral(
    const DirectPixelRule& rule, int order, double x0, double x1, double y0, double y1,
    double clip) {
  using namespace direct_pixel_detail;
  // Turn: b is the coordinate with the larger |centre|, mirrored to be positive.
  double a0 = x0, a1 = x1, b0 = y0, b1 = y1;
  if (fabs(x0 + x1) > fabs(y0 + y1)) {
    a0 = y0, a1 = y1, b0 = x0, b1 = x1;
  }
  if (b0 + b1 < 0.0) {
    const double t = b0;
    b0 = -b1, b1 = -t;
  }
  const double half_a = 0.5 * (a1 - a0), half_b = 0.5 * (b1 - b0);
  const double ca = a0 + half_a, cb = b0 + half_b;
  const double centre_sq = rule.alpha_sq + ca * ca + cb * cb;
  const double inverse = 1.0 / centre_sq;
  // |eps| over the pixel (the nodes lie inside it).
  const double eps_bound =
      (half_a * (2.0 * fabs(ca) + half_a) + half_b * (2.0 * cb + half_b)) * inverse;
  int terms = 1;
  while (terms <= kMaxSeriesTerms && !(eps_bound <= rule.series_reach[terms])) ++terms;
  const GaussLegendreRules& rules = gauss_legendre_rules();
  const double* nodes = rules.nodes + first_node(order);
  const double* weights = rules.weights + first_node(order);
  double sum = 0.0;
  switch (order) {
    case 2:
      sum = cut_sum<2>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    case 3:
      sum = cut_sum<3>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    case 4:
      sum = cut_sum<4>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    case 5:
      sum = cut_sum<5>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    case 6:
      sum = cut_sum<6>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    case 7:
      sum = cut_sum<7>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
    default:
      sum = cut_sum<8>(rule, terms, nodes, weights, a0, a1, b0, b1, ca, cb, clip, inverse);
      break;
  }
  return rule.peak * pow(centre_sq / rule.alpha_sq, -rule.beta) * sum;
}

// tensor_sum of `order` <= MaxOrder: only the orders up to MaxOrder are compiled into the caller.
template <int MaxOrder>
STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double tensor_sum_of_order(
    const DirectPixelRule& rule, int order, int terms, const double* nodes, const double* weights,
    double half_x, double half_y, double cx, double cy, double inverse) {
  if constexpr (MaxOrder > direct_pixel_detail::kMinOrder) {
    if (order < MaxOrder)
      return tensor_sum_of_order<MaxOrder - 1>(rule, order, terms, nodes, weights, half_x, half_y,
                                               cx, cy, inverse);
  }
  return tensor_sum<MaxOrder>(rule, terms, nodes, weights, half_x, half_y, cx, cy, inverse);
}

// The tensor rule of `order` (<= MaxOrder) over the rectangle [x0,x1] x [y0,y1]
// (direct_pixel_order, or a sub-square's order from direct_subdivision).
template <int MaxOrder = direct_pixel_detail::kMaxOrder>
STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double direct_tensor_integral(
    const DirectPixelRule& rule, int order, double x0, double x1, double y0, double y1) {
  using namespace direct_pixel_detail;
  const double half_x = 0.5 * (x1 - x0), half_y = 0.5 * (y1 - y0);
  const GaussLegendreRules& rules = gauss_legendre_rules();
  const double* nodes = rules.nodes + first_node(order);
  const double* weights = rules.weights + first_node(order);
  const double cx = x0 + half_x, cy = y0 + half_y;
  const double centre_sq = rule.alpha_sq + cx * cx + cy * cy;
  const double inverse = 1.0 / centre_sq;
  // |eps| at the nodes (|u| <= half_x nodes[0], |v| <= half_y nodes[0]).
  const double reach_x = half_x * nodes[0], reach_y = half_y * nodes[0];
  const double eps_bound =
      (reach_x * (2.0 * fabs(cx) + reach_x) + reach_y * (2.0 * fabs(cy) + reach_y)) * inverse;
  int terms = 1;
  while (terms <= kMaxSeriesTerms && !(eps_bound <= rule.series_reach[terms])) ++terms;
  const double sum = tensor_sum_of_order<MaxOrder>(rule, order, terms, nodes, weights, half_x,
                                                   half_y, cx, cy, inverse);
  // The centre's density, (beta - 1) / (pi alpha^2) (1 + r^2 / alpha^2)^-beta.
  const double centre = rule.peak * pow(centre_sq / rule.alpha_sq, -rule.beta);
  return centre * half_x * half_y * sum;
}

// Pixels near the centre (no order reaches the target over the whole pixel): k x k sub-squares
// of side s = 1/k each take the tensor rule, whose bound scales (coordinates divided by s: a
// pixel-sized square at distance R / s), so a sub-square takes the order whose threshold
// (alpha^2 + d_near^2) k^2 meets; k is the smallest (<= kMaxSubdivision) for which every
// sub-square has an order (the nearest one's distance is the pixel's), 0 where none: the pixel
// goes to the exact quadrature. Only pixels the support circle does not cut.
STARLENS_HOST_DEVICE inline int direct_subdivision(const DirectPixelRule& rule, double x0,
                                                   double x1, double y0, double y1, double clip) {
  using namespace direct_pixel_detail;
  const double half_x = 0.5 * (x1 - x0), half_y = 0.5 * (y1 - y0);
  if (!(half_x > 0.0) || !(half_y > 0.0) || half_x > kMaxHalfSide || half_y > kMaxHalfSide)
    return 0;
  const double far_x = fmax(fabs(x0), fabs(x1)), far_y = fmax(fabs(y0), fabs(y1));
  if (clip > 0.0 && !(far_x * far_x + far_y * far_y <= clip * clip)) return 0;
  const double near_x = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0;
  const double near_y = y0 > 0.0 ? y0 : y1 < 0.0 ? -y1 : 0.0;
  const double radius_sq = rule.alpha_sq + near_x * near_x + near_y * near_y;
  for (int k = 2; k <= kMaxSubdivision; ++k)
    if (radius_sq * (k * k) >= rule.min_radius_sq[kOrderCount - 1]) return k;
  return 0;
}

// The sub-squares' sum (direct_subdivision k > 0).
STARLENS_HOST_DEVICE inline double direct_subdivided_integral(const DirectPixelRule& rule, int k,
                                                              double x0, double x1, double y0,
                                                              double y1) {
  using namespace direct_pixel_detail;
  double xs[kMaxSubdivision + 1], ys[kMaxSubdivision + 1];
  for (int i = 0; i < k; ++i) {
    xs[i] = x0 + (x1 - x0) * i / k;
    ys[i] = y0 + (y1 - y0) * i / k;
  }
  xs[k] = x1, ys[k] = y1;
  const double scale_sq = double(k * k);
  double sum = 0.0;
  for (int j = 0; j < k; ++j) {
    const double near_y = ys[j] > 0.0 ? ys[j] : ys[j + 1] < 0.0 ? -ys[j + 1] : 0.0;
    for (int i = 0; i < k; ++i) {
      const double near_x = xs[i] > 0.0 ? xs[i] : xs[i + 1] < 0.0 ? -xs[i + 1] : 0.0;
      const double radius_sq = (rule.alpha_sq + near_x * near_x + near_y * near_y) * scale_sq;
      int order = kMaxOrder;
      for (int o = 0; o < kOrderCount; ++o) {
        if (radius_sq >= rule.min_radius_sq[o]) {
          order = kMinOrder + o;
          break;
        }
      }
      sum += direct_tensor_integral(rule, order, xs[i], xs[i + 1], ys[j], ys[j + 1]);
    }
  }
  return sum;
}

// The integral of the PSF centred at the origin over [x0,x1] x [y0,y1] intersected with the
// disc of radius `clip` (clip <= 0: none), as moffat_rectangle_integral: the tensor rule where
// direct_pixel_order gives an order, the cut-pixel rule where direct_cut_order does, the
// sub-squares where direct_subdivision does, and moffat_rectangle_integral for the rest.
// The tensor rule's highest orders (pixels within a few alpha of the centre).
constexpr int kDirectCommonOrders = 5;

STARLENS_HOST_DEVICE STARLENS_DIRECT_RARE double direct_near_tensor_integral(
    const DirectPixelRule& rule, int order, double x0, double x1, double y0, double y1) {
  return direct_tensor_integral(rule, order, x0, x1, y0, y1);
}

// Every path but the tensor rule's common orders.
STARLENS_HOST_DEVICE STARLENS_DIRECT_RARE double direct_rare_pixel_integral(
    const Moffat& psf, const DirectPixelRule& rule, double x0, double x1, double y0, double y1,
    double clip) {
  if (direct_pixel_cut(x0, x1, y0, y1, clip)) {
    const int cut_order = direct_cut_order(rule, x0, x1, y0, y1, clip);
    if (cut_order > 0) return direct_cut_pixel_integral(rule, cut_order, x0, x1, y0, y1, clip);
  } else {
    const int k = direct_subdivision(rule, x0, x1, y0, y1, clip);
    if (k > 0) return direct_subdivided_integral(rule, k, x0, x1, y0, y1);
  }
  return moffat_rectangle_integral(psf, x0, x1, y0, y1, clip);
}

STARLENS_HOST_DEVICE STARLENS_DIRECT_INLINE double direct_pixel_integral(
    const Moffat& psf, const DirectPixelRule& rule, double x0, double x1, double y0, double y1,
    double clip) {
  const int order = direct_pixel_order(rule, x0, x1, y0, y1, clip);
  if (order > kDirectCommonOrders) return direct_near_tensor_integral(rule, order, x0, x1, y0, y1);
  if (order > 0) return direct_tensor_integral<kDirectCommonOrders>(rule, order, x0, x1, y0, y1);
  return direct_rare_pixel_integral(psf, rule, x0, x1, y0, y1, clip);
}

}  // namespace starlens
