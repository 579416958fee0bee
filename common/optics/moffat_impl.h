#pragma once
// Implementation of moffat.h, included at its end. Header-only, <cmath> and <numbers> only, no
// recursion, no exceptions and fixed loop bounds, so CUDA/HIP device code runs the same
// arithmetic.
//
// Pixel integral (docs/accuracy/psf.md): in polar coordinates around the PSF centre the
// radial integral is closed-form, so the flux in a region is
//   (1/2pi) * integral over theta of [T(r_in(theta)) - T(r_out(theta))],
// with T(r) = (1 + r^2/alpha^2)^(1-beta) = 1 - E(r) and r_in/r_out where the ray enters and
// leaves the region. The rectangle is cut along the axes into quadrant rectangles, and each
// quadrant rectangle along its diagonal; the half above the diagonal is mirrored below it,
// so every ray has a slope t = tan(theta) in [0, 1], represented with full relative
// precision near 0. Between breakpoints (corners, clip-circle crossings) the integrand is
// analytic in t; its singularities are the measure's poles at t = +-i and, for edges y = c,
// points at or near t = 0. Each piece is cut geometrically toward 0 where needed and
// integrated with a Gauss-Legendre rule whose order follows from the Bernstein-ellipse bound.
#include <cmath>
#include <numbers>

namespace starlens {

namespace moffat_detail {

// A graded sub-interval [l, 3l] keeps its nearest singularity (at 0) one half-length away.
constexpr double kGradingRatio = 3.0;
// Sub-intervals per piece: 3^40 ~ 1e19 covers every angle ratio that carries flux; the last
// one absorbs the rest (an angular width below 1e-19 rad).
constexpr int kMaxGradedIntervals = 40;
// Order n is the smallest rule with n * ln(rho) >= 22 (error ~ rho^-2n ~ e^-44): the table's
// min_rho = exp(22 / n), so no logarithm is taken per interval.

// Gauss-Legendre rules on [-1, 1]: their positive nodes and the weights, computed with
// 50-digit arithmetic (mpmath) and rounded to double. Rows are padded with zeros.
constexpr int kOrderCount = 6;
constexpr int kMaxHalfOrder = 10;
struct GaussLegendreTable {
  int orders[kOrderCount];
  double min_rho[kOrderCount];
  double nodes[kOrderCount][kMaxHalfOrder];
  double weights[kOrderCount][kMaxHalfOrder];
};

STARLENS_HOST_DEVICE inline const GaussLegendreTable& gauss_legendre_table() {
  // clang-format off
  static constexpr GaussLegendreTable table = {
    {4, 6, 8, 12, 16, 20},
    {244.69193226422038, 39.12128399815321, 15.642631884188171, 6.254700951936329,
     3.955076722920577, 3.0041660239464334},
    {
      {0.8611363115940526, 0.33998104358485626},
      {0.932469514203152, 0.6612093864662645, 0.2386191860831969},
      {0.9602898564975363, 0.7966664774136267, 0.525532409916329, 0.1834346424956498},
      {0.9815606342467192, 0.9041172563704749, 0.7699026741943047, 0.5873179542866175,
       0.3678314989981802, 0.1252334085114689},
      {0.9894009349916499, 0.9445750230732326, 0.8656312023878318, 0.755404408355003,
       0.6178762444026438, 0.45801677765722737, 0.2816035507792589, 0.09501250983763744},
      {0.9931285991850949, 0.9639719272779138, 0.912234428251326, 0.8391169718222188,
       0.7463319064601508, 0.636053680726515, 0.5108670019508271, 0.37370608871541955,
       0.22778585114164507, 0.07652652113349734},
    },
    {
      {0.34785484513745385, 0.6521451548625461},
      {0.17132449237917036, 0.3607615730481386, 0.46791393457269104},
      {0.10122853629037626, 0.22238103445337448, 0.31370664587788727, 0.362683783378362},
      {0.04717533638651183, 0.10693932599531843, 0.16007832854334622, 0.20316742672306592,
       0.2334925365383548, 0.24914704581340277},
      {0.027152459411754096, 0.062253523938647894, 0.09515851168249279, 0.12462897125553388,
       0.14959598881657674, 0.16915651939500254, 0.18260341504492358, 0.1894506104550685},
      {0.017614007139152118, 0.04060142980038694, 0.06267204833410907, 0.08327674157670475,
       0.10193011981724044, 0.11819453196151841, 0.13168863844917664, 0.14209610931838204,
       0.14917298647260374, 0.15275338713072584},
    },
  };
  // clang-format on
  return table;
}

enum class Entry { centre, left, bottom };
enum class Exit { right, top, clip };

// One half-quadrant: the rectangle [p0,p1] x [q0,q1] (0 <= p0 < p1, 0 <= q0 < q1) seen from
// the origin below its diagonal, along rays of slope t = tan(theta) in [0, 1]. A ray enters
// at the centre (the origin is the rectangle's corner), through the left edge x = p0 or the
// bottom edge y = q0, and leaves through the right edge x = p1, the top edge y = q1 or the
// clip circle. In t every squared distance is rational (x^2 (1 + t^2) on x = c,
// y^2 (1 + t^2) / t^2 on y = c) and dtheta = dt / (1 + t^2): no trigonometry per node.
struct HalfQuadrant {
  double p0, p1, q0, q1;
  double clip;  // <= 0: none
  double alpha_sq;
  double one_minus_beta;
};

struct Ray {
  double in_sq;     // squared entry distance
  double out_sq;    // squared exit distance
  double widening;  // out_sq - in_sq, formed without cancellation where possible
};

STARLENS_HOST_DEVICE inline Ray trace_ray(const HalfQuadrant& h, Entry entry, Exit exit, double t) {
  const double secant_sq = 1.0 + t * t;            // 1 / cos^2
  const double cosecant_sq = secant_sq / (t * t);  // 1 / sin^2
  Ray ray;
  ray.in_sq = entry == Entry::centre ? 0.0
              : entry == Entry::left ? h.p0 * h.p0 * secant_sq
                                     : h.q0 * h.q0 * cosecant_sq;
  ray.out_sq = exit == Exit::clip    ? h.clip * h.clip
               : exit == Exit::right ? h.p1 * h.p1 * secant_sq
                                     : h.q1 * h.q1 * cosecant_sq;
  if (entry == Entry::left && exit == Exit::right) {
    ray.widening = (h.p1 - h.p0) * (h.p1 + h.p0) * secant_sq;
  } else if (entry == Entry::bottom && exit == Exit::top) {
    ray.widening = (h.q1 - h.q0) * (h.q1 + h.q0) * cosecant_sq;
  } else if (entry == Entry::left && exit == Exit::top) {
    ray.widening = (h.q1 - h.p0 * t) * (h.q1 + h.p0 * t) * cosecant_sq;
  } else if (entry == Entry::bottom && exit == Exit::right) {
    ray.widening = (h.p1 * t - h.q0) * (h.p1 * t + h.q0) * cosecant_sq;
  } else if (entry == Entry::left && exit == Exit::clip) {
    ray.widening = (h.clip - h.p0) * (h.clip + h.p0) - (h.p0 * t) * (h.p0 * t);
  } else if (entry == Entry::bottom && exit == Exit::clip) {
    ray.widening = (h.clip - h.q0) * (h.clip + h.q0) - (h.q0 / t) * (h.q0 / t);
  } else {
    ray.widening = ray.out_sq - ray.in_sq;
  }
  return ray;
}

// T(r_in) - T(r_out) = T(r_in) * (1 - ((a^2 + r_out^2) / (a^2 + r_in^2))^(1-beta)), the ratio
// as log1p((r_out^2 - r_in^2) / (a^2 + r_in^2)): relative accuracy near the centre (E
// small) and far in the wings (T(r_in) ~ T(r_out)) alike.
STARLENS_HOST_DEVICE inline double flux_between(const HalfQuadrant& h, const Ray& ray) {
  if (!(ray.widening > 0.0)) return 0.0;
  const double fraction = -expm1(h.one_minus_beta * log1p(ray.widening / (h.alpha_sq + ray.in_sq)));
  if (ray.in_sq == 0.0) return fraction;
  return exp(h.one_minus_beta * log1p(ray.in_sq / h.alpha_sq)) * fraction;
}

// Smallest tabulated order whose Bernstein-ellipse bound reaches the target on [lo, hi]: the
// measure's poles at t = +-i (imaginary distance 1) and, where an edge y = c takes part, its
// singularities at t = 0 and t = +-i c / sqrt(alpha^2 + c^2) (no nearer than 0 itself).
STARLENS_HOST_DEVICE inline int order_index(double lo, double hi, bool singular_at_zero) {
  const double half = 0.5 * (hi - lo);
  const double d = 1.0 / half;
  double rho = d + sqrt(1.0 + d * d);
  if (singular_at_zero) {
    const double delta = 1.0 + lo / half;
    const double rho_zero = delta + sqrt(delta * delta - 1.0);
    if (rho_zero < rho) rho = rho_zero;
  }
  const GaussLegendreTable& table = gauss_legendre_table();
  for (int k = 0; k < kOrderCount; ++k) {
    if (rho >= table.min_rho[k]) return k;
  }
  return kOrderCount - 1;
}

STARLENS_HOST_DEVICE inline double integrate_interval(const HalfQuadrant& h, Entry entry, Exit exit,
                                                      double lo, double hi, int order) {
  const GaussLegendreTable& table = gauss_legendre_table();
  const int half_count = table.orders[order] / 2;
  const double* nodes = table.nodes[order];
  const double* weights = table.weights[order];
  const double mid = 0.5 * (lo + hi);
  const double half = 0.5 * (hi - lo);
  double sum = 0.0;
  for (int i = 0; i < half_count; ++i) {
    const double t_low = mid - half * nodes[i];
    const double t_high = mid + half * nodes[i];
    sum +=
        weights[i] * (flux_between(h, trace_ray(h, entry, exit, t_low)) / (1.0 + t_low * t_low) +
                      flux_between(h, trace_ray(h, entry, exit, t_high)) / (1.0 + t_high * t_high));
  }
  return half * sum;
}

// One analytic piece [lo, hi] of [0, 1], cut geometrically toward t = 0 when an edge y = c
// takes part (its singularities crowd there).
STARLENS_HOST_DEVICE inline double integrate_piece(const HalfQuadrant& h, Entry entry, Exit exit,
                                                   double lo, double hi) {
  const bool singular_at_zero = entry == Entry::bottom || exit == Exit::top;
  double sum = 0.0;
  double upper = hi;
  for (int k = 0; k < kMaxGradedIntervals && upper > lo; ++k) {
    double lower = lo;
    if (singular_at_zero && k + 1 < kMaxGradedIntervals) {
      const double graded = upper / kGradingRatio;
      if (graded > lo) lower = graded;
    }
    sum += integrate_interval(h, entry, exit, lower, upper,
                              order_index(lower, upper, singular_at_zero));
    upper = lower;
  }
  return sum;
}

// Slope t where the circle of radius `radius` meets the line x = c (c >= 0) or y = c;
// negative when it does not.
STARLENS_HOST_DEVICE inline double vertical_crossing(double c, double radius) {
  if (!(c < radius)) return -1.0;
  return sqrt((radius - c) * (radius + c)) / c;
}
STARLENS_HOST_DEVICE inline double horizontal_crossing(double c, double radius) {
  if (!(c < radius)) return -1.0;
  return c / sqrt((radius - c) * (radius + c));
}

// Integral over theta in [0, pi/4] of the flux between entry and exit (without 1/2pi).
STARLENS_HOST_DEVICE inline double integrate_half_quadrant(const HalfQuadrant& h) {
  const double t_lo = h.q0 / h.p1;
  double t_hi = h.p0 > h.q1 ? h.q1 / h.p0 : 1.0;
  if (!(t_hi > t_lo)) return 0.0;

  const bool from_centre = h.p0 == 0.0 && h.q0 == 0.0;
  // Below the entry corner rays enter through the bottom edge, above it through the left.
  const double t_entry_corner = from_centre ? -1.0 : h.p0 > h.q0 ? h.q0 / h.p0 : 2.0;
  // Below the exit corner rays leave through the right edge, above it through the top.
  const double t_exit_corner = h.q1 / h.p1;

  double breaks[8];
  int count = 0;
  breaks[count++] = t_lo;
  const bool clipped = h.clip > 0.0;
  const double candidates[6] = {
      t_entry_corner,
      t_exit_corner,
      clipped ? vertical_crossing(h.p0, h.clip) : -1.0,
      clipped ? vertical_crossing(h.p1, h.clip) : -1.0,
      clipped ? horizontal_crossing(h.q0, h.clip) : -1.0,
      clipped ? horizontal_crossing(h.q1, h.clip) : -1.0,
  };
  for (int i = 0; i < 6; ++i) {
    const double c = candidates[i];
    if (!(c > t_lo && c < t_hi)) continue;
    int j = count++;
    for (; j > 1 && breaks[j - 1] > c; --j) breaks[j] = breaks[j - 1];
    breaks[j] = c;
  }
  breaks[count++] = t_hi;

  double sum = 0.0;
  for (int i = 0; i + 1 < count; ++i) {
    const double lo = breaks[i];
    const double hi = breaks[i + 1];
    if (!(hi > lo)) continue;
    // The entry, exit and clipping are constant on the piece: read them off its midpoint.
    const double mid = 0.5 * (lo + hi);
    const Entry entry = from_centre            ? Entry::centre
                        : mid < t_entry_corner ? Entry::bottom
                                               : Entry::left;
    Exit exit = mid < t_exit_corner ? Exit::right : Exit::top;
    if (clipped) {
      const Ray ray = trace_ray(h, entry, exit, mid);
      if (ray.in_sq >= h.clip * h.clip) continue;
      if (ray.out_sq > h.clip * h.clip) exit = Exit::clip;
    }
    sum += integrate_piece(h, entry, exit, lo, hi);
  }
  return sum;
}

}  // namespace moffat_detail

STARLENS_HOST_DEVICE inline Moffat moffat_from_fwhm(double fwhm, double beta) {
  // 2^(1/beta) - 1 via expm1: accurate for large beta too.
  return Moffat{0.5 * fwhm / sqrt(expm1(0.69314718055994530942 / beta)), beta};
}

STARLENS_HOST_DEVICE inline double moffat_density(const Moffat& psf, double r) {
  const double u = r * r / (psf.alpha * psf.alpha);
  return (psf.beta - 1.0) / (std::numbers::pi * psf.alpha * psf.alpha) * exp(-psf.beta * log1p(u));
}

STARLENS_HOST_DEVICE inline double moffat_enclosed(const Moffat& psf, double r) {
  const double u = r * r / (psf.alpha * psf.alpha);
  return -expm1((1.0 - psf.beta) * log1p(u));
}

STARLENS_HOST_DEVICE inline double moffat_rectangle_integral(const Moffat& psf, double x0,
                                                             double x1, double y0, double y1,
                                                             double clip) {
  using namespace moffat_detail;
  if (!(x1 > x0) || !(y1 > y0)) return 0.0;
  if (clip > 0.0) {
    const double near_x = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0;
    const double near_y = y0 > 0.0 ? y0 : y1 < 0.0 ? -y1 : 0.0;
    if (near_x * near_x + near_y * near_y >= clip * clip) return 0.0;
    const double far_x = fmax(fabs(x0), fabs(x1));
    const double far_y = fmax(fabs(y0), fabs(y1));
    if (far_x * far_x + far_y * far_y <= clip * clip) clip = 0.0;  // the circle misses it
  }
  HalfQuadrant h;
  h.clip = clip;
  h.alpha_sq = psf.alpha * psf.alpha;
  h.one_minus_beta = 1.0 - psf.beta;

  double sum = 0.0;
  for (int quadrant = 0; quadrant < 4; ++quadrant) {
    // Mirror the part of the rectangle in this quadrant into the first quadrant.
    const bool mirror_x = (quadrant & 1) != 0;
    const bool mirror_y = (quadrant & 2) != 0;
    const double p0 = mirror_x ? fmax(-x1, 0.0) : fmax(x0, 0.0);
    const double p1 = mirror_x ? -x0 : x1;
    const double q0 = mirror_y ? fmax(-y1, 0.0) : fmax(y0, 0.0);
    const double q1 = mirror_y ? -y0 : y1;
    if (!(p1 > p0) || !(q1 > q0)) continue;
    // Below the diagonal as it is, above it mirrored across the diagonal.
    h.p0 = p0, h.p1 = p1, h.q0 = q0, h.q1 = q1;
    sum += integrate_half_quadrant(h);
    h.p0 = q0, h.p1 = q1, h.q0 = p0, h.q1 = p1;
    sum += integrate_half_quadrant(h);
  }
  return sum / (2.0 * std::numbers::pi);
}

}  // namespace starlens
