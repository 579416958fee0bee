// The direct evaluator's pixel integral, common/optics/direct_pixel.h and
// moffat_rectangle_integral (common/optics/moffat_impl.h) in GLSL: the same rules, orders,
// tables and order of operations (the device layout of tensor_sum); the transcendental functions
// are double_math.glsl's. The includer declares the DirectRule block (binding chosen by it).
#ifndef STARLENS_DIRECT_PIXEL
#define STARLENS_DIRECT_PIXEL
#include "double_math.glsl"

const double kPi = 3.14159265358979323846LF;

// ---- moffat_rectangle_integral: the exact polar quadrature ----
const int kGradedIntervals = 40;
const double kGradingRatio = 3.0LF;
const int kMoffatOrders[6] = int[](4, 6, 8, 12, 16, 20);
const double kMoffatMinRho[6] = double[](244.69193226422038LF, 39.12128399815321LF,
                                         15.642631884188171LF, 6.254700951936329LF,
                                         3.955076722920577LF, 3.0041660239464334LF);
const double kMoffatNodes[60] = double[](
    0.8611363115940526LF, 0.33998104358485626LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.932469514203152LF, 0.6612093864662645LF, 0.2386191860831969LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.9602898564975363LF, 0.7966664774136267LF, 0.525532409916329LF, 0.1834346424956498LF, 0.0LF, 0.0LF,
    0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.9815606342467192LF, 0.9041172563704749LF, 0.7699026741943047LF, 0.5873179542866175LF,
    0.3678314989981802LF, 0.1252334085114689LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.9894009349916499LF, 0.9445750230732326LF, 0.8656312023878318LF, 0.755404408355003LF,
    0.6178762444026438LF, 0.45801677765722737LF, 0.2816035507792589LF, 0.09501250983763744LF, 0.0LF,
    0.0LF,
    0.9931285991850949LF, 0.9639719272779138LF, 0.912234428251326LF, 0.8391169718222188LF,
    0.7463319064601508LF, 0.636053680726515LF, 0.5108670019508271LF, 0.37370608871541955LF,
    0.22778585114164507LF, 0.07652652113349734LF);
const double kMoffatWeights[60] = double[](
    0.34785484513745385LF, 0.6521451548625461LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.17132449237917036LF, 0.3607615730481386LF, 0.46791393457269104LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.10122853629037626LF, 0.22238103445337448LF, 0.31370664587788727LF, 0.362683783378362LF, 0.0LF,
    0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.04717533638651183LF, 0.10693932599531843LF, 0.16007832854334622LF, 0.20316742672306592LF,
    0.2334925365383548LF, 0.24914704581340277LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF,
    0.027152459411754096LF, 0.062253523938647894LF, 0.09515851168249279LF,
    0.12462897125553388LF, 0.14959598881657674LF, 0.16915651939500254LF, 0.18260341504492358LF,
    0.1894506104550685LF, 0.0LF, 0.0LF,
    0.017614007139152118LF, 0.04060142980038694LF, 0.06267204833410907LF, 0.08327674157670475LF,
    0.10193011981724044LF, 0.11819453196151841LF, 0.13168863844917664LF, 0.14209610931838204LF,
    0.14917298647260374LF, 0.15275338713072584LF);

const int kEntryCentre = 0, kEntryLeft = 1, kEntryBottom = 2;
const int kExitRight = 0, kExitTop = 1, kExitClip = 2;

struct HalfQuadrant {
  double p0, p1, q0, q1, clip, alpha_sq, one_minus_beta;
};

// trace_ray: x = squared entry distance, y = squared exit distance, z = widening.
dvec3 trace_ray(HalfQuadrant h, int entry, int exit_edge, double t) {
  const double secant_sq = 1.0LF + t * t;
  const double cosecant_sq = secant_sq / (t * t);
  const double in_sq = entry == kEntryCentre ? 0.0LF
                       : entry == kEntryLeft ? h.p0 * h.p0 * secant_sq
                                             : h.q0 * h.q0 * cosecant_sq;
  const double out_sq = exit_edge == kExitClip    ? h.clip * h.clip
                        : exit_edge == kExitRight ? h.p1 * h.p1 * secant_sq
                                                  : h.q1 * h.q1 * cosecant_sq;
  double widening;
  if (entry == kEntryLeft && exit_edge == kExitRight) {
    widening = (h.p1 - h.p0) * (h.p1 + h.p0) * secant_sq;
  } else if (entry == kEntryBottom && exit_edge == kExitTop) {
    widening = (h.q1 - h.q0) * (h.q1 + h.q0) * cosecant_sq;
  } else if (entry == kEntryLeft && exit_edge == kExitTop) {
    widening = (h.q1 - h.p0 * t) * (h.q1 + h.p0 * t) * cosecant_sq;
  } else if (entry == kEntryBottom && exit_edge == kExitRight) {
    widening = (h.p1 * t - h.q0) * (h.p1 * t + h.q0) * cosecant_sq;
  } else if (entry == kEntryLeft && exit_edge == kExitClip) {
    widening = (h.clip - h.p0) * (h.clip + h.p0) - (h.p0 * t) * (h.p0 * t);
  } else if (entry == kEntryBottom && exit_edge == kExitClip) {
    widening = (h.clip - h.q0) * (h.clip + h.q0) - (h.q0 / t) * (h.q0 / t);
  } else {
    widening = out_sq - in_sq;
  }
  return dvec3(in_sq, out_sq, widening);
}

double flux_between(HalfQuadrant h, dvec3 ray) {
  if (!(ray.z > 0.0LF)) return 0.0LF;
  const double fraction = -dm_expm1(h.one_minus_beta * dm_log1p(ray.z / (h.alpha_sq + ray.x)));
  if (ray.x == 0.0LF) return fraction;
  return dm_exp(h.one_minus_beta * dm_log1p(ray.x / h.alpha_sq)) * fraction;
}

int moffat_order_index(double lo, double hi, bool singular_at_zero) {
  const double half_width = 0.5LF * (hi - lo);
  const double d = 1.0LF / half_width;
  double rho = d + sqrt(1.0LF + d * d);
  if (singular_at_zero) {
    const double delta = 1.0LF + lo / half_width;
    const double rho_zero = delta + sqrt(delta * delta - 1.0LF);
    if (rho_zero < rho) rho = rho_zero;
  }
  for (int k = 0; k < 6; ++k)
    if (rho >= kMoffatMinRho[k]) return k;
  return 5;
}

double integrate_interval(HalfQuadrant h, int entry, int exit_edge, double lo, double hi,
                          int order) {
  const int half_count = kMoffatOrders[order] / 2;
  const double mid = 0.5LF * (lo + hi);
  const double half_width = 0.5LF * (hi - lo);
  double sum = 0.0LF;
  for (int i = 0; i < half_count; ++i) {
    const double node = kMoffatNodes[order * 10 + i];
    const double t_low = mid - half_width * node;
    const double t_high = mid + half_width * node;
    sum += kMoffatWeights[order * 10 + i] *
           (flux_between(h, trace_ray(h, entry, exit_edge, t_low)) / (1.0LF + t_low * t_low) +
            flux_between(h, trace_ray(h, entry, exit_edge, t_high)) / (1.0LF + t_high * t_high));
  }
  return half_width * sum;
}

double integrate_piece(HalfQuadrant h, int entry, int exit_edge, double lo, double hi) {
  const bool singular_at_zero = entry == kEntryBottom || exit_edge == kExitTop;
  double sum = 0.0LF;
  double upper = hi;
  for (int k = 0; k < kGradedIntervals && upper > lo; ++k) {
    double lower = lo;
    if (singular_at_zero && k + 1 < kGradedIntervals) {
      const double graded = upper / kGradingRatio;
      if (graded > lo) lower = graded;
    }
    sum += integrate_interval(h, entry, exit_edge, lower, upper,
                              moffat_order_index(lower, upper, singular_at_zero));
    upper = lower;
  }
  return sum;
}

double vertical_crossing(double c, double radius) {
  if (!(c < radius)) return -1.0LF;
  return sqrt((radius - c) * (radius + c)) / c;
}
double horizontal_crossing(double c, double radius) {
  if (!(c < radius)) return -1.0LF;
  return c / sqrt((radius - c) * (radius + c));
}

double integrate_half_quadrant(HalfQuadrant h) {
  const double t_lo = h.q0 / h.p1;
  const double t_hi = h.p0 > h.q1 ? h.q1 / h.p0 : 1.0LF;
  if (!(t_hi > t_lo)) return 0.0LF;
  const bool from_centre = h.p0 == 0.0LF && h.q0 == 0.0LF;
  const double t_entry_corner = from_centre ? -1.0LF : h.p0 > h.q0 ? h.q0 / h.p0 : 2.0LF;
  const double t_exit_corner = h.q1 / h.p1;
  double breaks[8];
  int count = 0;
  breaks[count++] = t_lo;
  const bool clipped = h.clip > 0.0LF;
  double candidates[6];
  candidates[0] = t_entry_corner;
  candidates[1] = t_exit_corner;
  candidates[2] = clipped ? vertical_crossing(h.p0, h.clip) : -1.0LF;
  candidates[3] = clipped ? vertical_crossing(h.p1, h.clip) : -1.0LF;
  candidates[4] = clipped ? horizontal_crossing(h.q0, h.clip) : -1.0LF;
  candidates[5] = clipped ? horizontal_crossing(h.q1, h.clip) : -1.0LF;
  for (int i = 0; i < 6; ++i) {
    const double c = candidates[i];
    if (!(c > t_lo && c < t_hi)) continue;
    int j = count++;
    for (; j > 1 && breaks[j - 1] > c; --j) breaks[j] = breaks[j - 1];
    breaks[j] = c;
  }
  breaks[count++] = t_hi;
  double sum = 0.0LF;
  for (int i = 0; i + 1 < count; ++i) {
    const double lo = breaks[i];
    const double hi = breaks[i + 1];
    if (!(hi > lo)) continue;
    const double mid = 0.5LF * (lo + hi);
    const int entry = from_centre            ? kEntryCentre
                      : mid < t_entry_corner ? kEntryBottom
                                             : kEntryLeft;
    int exit_edge = mid < t_exit_corner ? kExitRight : kExitTop;
    if (clipped) {
      const dvec3 ray = trace_ray(h, entry, exit_edge, mid);
      if (ray.x >= h.clip * h.clip) continue;
      if (ray.y > h.clip * h.clip) exit_edge = kExitClip;
    }
    sum += integrate_piece(h, entry, exit_edge, lo, hi);
  }
  return sum;
}

double moffat_rectangle_integral(double alpha, double beta, double x0, double x1, double y0,
                                 double y1, double clip_in) {
  if (!(x1 > x0) || !(y1 > y0)) return 0.0LF;
  double clip = clip_in;
  if (clip > 0.0LF) {
    const double near_x = x0 > 0.0LF ? x0 : x1 < 0.0LF ? -x1 : 0.0LF;
    const double near_y = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
    if (near_x * near_x + near_y * near_y >= clip * clip) return 0.0LF;
    const double far_x = max(abs(x0), abs(x1));
    const double far_y = max(abs(y0), abs(y1));
    if (far_x * far_x + far_y * far_y <= clip * clip) clip = 0.0LF;
  }
  HalfQuadrant h;
  h.clip = clip;
  h.alpha_sq = alpha * alpha;
  h.one_minus_beta = 1.0LF - beta;
  double sum = 0.0LF;
  for (int quadrant = 0; quadrant < 4; ++quadrant) {
    const bool mirror_x = (quadrant & 1) != 0;
    const bool mirror_y = (quadrant & 2) != 0;
    const double p0 = mirror_x ? max(-x1, 0.0LF) : max(x0, 0.0LF);
    const double p1 = mirror_x ? -x0 : x1;
    const double q0 = mirror_y ? max(-y1, 0.0LF) : max(y0, 0.0LF);
    const double q1 = mirror_y ? -y0 : y1;
    if (!(p1 > p0) || !(q1 > q0)) continue;
    h.p0 = p0, h.p1 = p1, h.q0 = q0, h.q1 = q1;
    sum += integrate_half_quadrant(h);
    h.p0 = q0, h.p1 = q1, h.q0 = p0, h.q1 = p1;
    sum += integrate_half_quadrant(h);
  }
  return sum / (2.0LF * kPi);
}

// ---- direct_pixel_integral ----
const int kMinOrder = 2, kMaxOrder = 8, kOrderCount = 7, kMaxSeriesTerms = 24;
const double kMaxHalfSide = 0.5LF * (1.0LF + 1e-9LF);
const double kMinCutDepth = 0.1LF;
const int kMaxSubdivision = 3;
const int kDirectCommonOrders = 5;
const double kRuleNodes[35] = double[](
    0.5773502691896257LF, -0.5773502691896257LF, 0.7745966692414834LF, 0.0LF,
    -0.7745966692414834LF, 0.8611363115940526LF, 0.33998104358485626LF, -0.33998104358485626LF,
    -0.8611363115940526LF, 0.906179845938664LF, 0.5384693101056831LF, 0.0LF,
    -0.5384693101056831LF, -0.906179845938664LF, 0.932469514203152LF, 0.6612093864662645LF,
    0.2386191860831969LF, -0.2386191860831969LF, -0.6612093864662645LF, -0.932469514203152LF,
    0.9491079123427585LF, 0.7415311855993945LF, 0.4058451513773972LF, 0.0LF,
    -0.4058451513773972LF, -0.7415311855993945LF, -0.9491079123427585LF, 0.9602898564975363LF,
    0.7966664774136267LF, 0.525532409916329LF, 0.1834346424956498LF, -0.1834346424956498LF,
    -0.525532409916329LF, -0.7966664774136267LF, -0.9602898564975363LF);
const double kRuleWeights[35] = double[](
    1.0LF, 1.0LF, 0.5555555555555556LF, 0.8888888888888888LF, 0.5555555555555556LF,
    0.34785484513745385LF, 0.6521451548625461LF, 0.6521451548625461LF, 0.34785484513745385LF,
    0.23692688505618908LF, 0.47862867049936647LF, 0.5688888888888889LF, 0.47862867049936647LF,
    0.23692688505618908LF, 0.17132449237917036LF, 0.3607615730481386LF, 0.46791393457269104LF,
    0.46791393457269104LF, 0.3607615730481386LF, 0.17132449237917036LF, 0.1294849661688697LF,
    0.27970539148927664LF, 0.3818300505051189LF, 0.4179591836734694LF, 0.3818300505051189LF,
    0.27970539148927664LF, 0.1294849661688697LF, 0.10122853629037626LF, 0.22238103445337448LF,
    0.31370664587788727LF, 0.362683783378362LF, 0.362683783378362LF, 0.31370664587788727LF,
    0.22238103445337448LF, 0.10122853629037626LF);

int first_node(int order) { return order * (order - 1) / 2 - 1; }

double series_value(int terms, double eps) {
  double value = rule_series[terms - 1];
  for (int t = terms - 2; t >= 0; --t) value = value * eps + rule_series[t];
  return value;
}

double tensor_sum(int n, int terms, int first, double half_x, double half_y, double cx, double cy,
                  double inverse) {
  double eps_x[8], eps_y[8];
  for (int i = 0; i < n; ++i) {
    const double u = half_x * kRuleNodes[first + i], v = half_y * kRuleNodes[first + i];
    eps_x[i] = u * (2.0LF * cx + u) * inverse;
    eps_y[i] = v * (2.0LF * cy + v) * inverse;
  }
  double sum = 0.0LF;
  for (int j = 0; j < n; ++j) {
    double row = 0.0LF;
    for (int i = 0; i < n; ++i) {
      const double value = terms <= kMaxSeriesTerms
                               ? series_value(terms, eps_x[i] + eps_y[j])
                               : dm_pow(1.0LF + (eps_x[i] + eps_y[j]), -rule_beta);
      row += kRuleWeights[first + i] * value;
    }
    sum += kRuleWeights[first + j] * row;
  }
  return sum;
}

int direct_pixel_order(double x0, double x1, double y0, double y1, double clip) {
  const double half_x = 0.5LF * (x1 - x0), half_y = 0.5LF * (y1 - y0);
  if (!(half_x > 0.0LF) || !(half_y > 0.0LF) || half_x > kMaxHalfSide || half_y > kMaxHalfSide)
    return 0;
  const double far_x = max(abs(x0), abs(x1)), far_y = max(abs(y0), abs(y1));
  if (clip > 0.0LF && !(far_x * far_x + far_y * far_y <= clip * clip)) return 0;
  const double near_x = x0 > 0.0LF ? x0 : x1 < 0.0LF ? -x1 : 0.0LF;
  const double near_y = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
  const double radius_sq = rule_alpha_sq + near_x * near_x + near_y * near_y;
  for (int k = 0; k < kOrderCount; ++k)
    if (radius_sq >= rule_min_radius_sq[k]) return kMinOrder + k;
  return 0;
}

double cut_sum(int n, int terms, int first, double a0, double a1, double b0, double b1, double ca,
               double cb, double clip, double inverse) {
  precise double reach0 = (clip - b0) * (clip + b0);
  precise double sum = clip + b0;
  precise double sum_error = (clip - (sum - b0)) + (b0 - (sum - (sum - b0)));
  precise double gap = clip - b0;
  precise double product_error = fma(gap, sum, -reach0);
  precise double ca_sq = ca * ca;
  precise double ca_sq_error = fma(ca, ca, -ca_sq);
  precise double depth = (reach0 - ca_sq) + ((product_error - ca_sq_error) + gap * sum_error);
  const double top = b1 < clip ? sqrt((clip - b1) * (clip + b1)) : -1.0LF;
  const double bottom = sqrt(reach0);
  double candidates[4];
  candidates[0] = -bottom;
  candidates[1] = -top;
  candidates[2] = top;
  candidates[3] = bottom;
  double breaks[6];
  int count = 0;
  breaks[count++] = a0;
  for (int k = 0; k < 4; ++k) {
    const double c = candidates[k];
    if (k == 1 || k == 2) {
      if (!(top >= 0.0LF)) continue;
    }
    if (c > a0 && c < a1) breaks[count++] = c;
  }
  breaks[count++] = a1;
  double total = 0.0LF;
  for (int piece = 0; piece + 1 < count; ++piece) {
    const double lo = breaks[piece] - ca, hi = breaks[piece + 1] - ca;
    if (!(hi > lo)) continue;
    const double mid_u = 0.5LF * (lo + hi), half_width = 0.5LF * (hi - lo);
    const double mid = ca + mid_u;
    const double mid_height = sqrt((clip - mid) * (clip + mid));
    if (!(mid_height > b0)) continue;
    const bool full = mid_height > b1;
    double piece_sum = 0.0LF;
    for (int i = 0; i < n; ++i) {
      const double u = mid_u + half_width * kRuleNodes[first + i];
      const double a = ca + u;
      const double length =
          full ? b1 - b0
               : max(0.0LF, (depth - u * (2.0LF * ca + u)) / (sqrt((clip - a) * (clip + a)) + b0));
      const double half_length = 0.5LF * length;
      const double eps_u = u * (2.0LF * ca + u) * inverse;
      double column = 0.0LF;
      for (int j = 0; j < n; ++j) {
        const double v = (b0 - cb) + half_length * (1.0LF + kRuleNodes[first + j]);
        const double eps = eps_u + v * (2.0LF * cb + v) * inverse;
        const double value = terms <= kMaxSeriesTerms ? series_value(terms, eps)
                                                      : dm_pow(1.0LF + eps, -rule_beta);
        column += kRuleWeights[first + j] * value;
      }
      piece_sum += kRuleWeights[first + i] * half_length * column;
    }
    total += half_width * piece_sum;
  }
  return total;
}

int direct_cut_order(double x0, double x1, double y0, double y1, double clip) {
  const double near_x = x0 > 0.0LF ? x0 : x1 < 0.0LF ? -x1 : 0.0LF;
  const double near_y = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
  const double near_sq = near_x * near_x + near_y * near_y;
  if (!(near_sq >= 1.0LF)) return 0;
  if (!(clip * clip - near_sq >= 2.0LF * clip * kMinCutDepth)) return 0;
  const double cx = 0.5LF * (x0 + x1), cy = 0.5LF * (y0 + y1);
  const double outer_far = abs(cx) <= abs(cy) ? max(abs(x0), abs(x1)) : max(abs(y0), abs(y1));
  const double branch = clip - outer_far;
  const double moffat_sq = rule_alpha_sq + near_sq;
  const double radius_sq = branch > 0.0LF ? min(moffat_sq, branch * branch) : 0.0LF;
  for (int k = 0; k < kOrderCount; ++k) {
    if (radius_sq >= rule_min_radius_sq[k]) {
      const int order = kMinOrder + k + rule_cut_order_margin;
      return order <= kMaxOrder ? (order < kMinOrder ? kMinOrder : order) : 0;
    }
  }
  return 0;
}

bool direct_pixel_cut(double x0, double x1, double y0, double y1, double clip) {
  if (!(clip > 0.0LF)) return false;
  if (!(x1 > x0) || !(y1 > y0) || 0.5LF * (x1 - x0) > kMaxHalfSide ||
      0.5LF * (y1 - y0) > kMaxHalfSide)
    return false;
  const double far_x = max(abs(x0), abs(x1)), far_y = max(abs(y0), abs(y1));
  const double near_x = x0 > 0.0LF ? x0 : x1 < 0.0LF ? -x1 : 0.0LF;
  const double near_y = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
  return far_x * far_x + far_y * far_y > clip * clip &&
         near_x * near_x + near_y * near_y < clip * clip;
}

double direct_cut_pixel_integral(int order, double x0, double x1, double y0, double y1,
                                 double clip) {
  double a0 = x0, a1 = x1, b0 = y0, b1 = y1;
  if (abs(x0 + x1) > abs(y0 + y1)) {
    a0 = y0, a1 = y1, b0 = x0, b1 = x1;
  }
  if (b0 + b1 < 0.0LF) {
    const double t = b0;
    b0 = -b1, b1 = -t;
  }
  const double half_a = 0.5LF * (a1 - a0), half_b = 0.5LF * (b1 - b0);
  const double ca = a0 + half_a, cb = b0 + half_b;
  const double centre_sq = rule_alpha_sq + ca * ca + cb * cb;
  const double inverse = 1.0LF / centre_sq;
  const double eps_bound =
      (half_a * (2.0LF * abs(ca) + half_a) + half_b * (2.0LF * cb + half_b)) * inverse;
  int terms = 1;
  while (terms <= kMaxSeriesTerms && !(eps_bound <= rule_series_reach[terms])) ++terms;
  const double sum = cut_sum(order, terms, first_node(order), a0, a1, b0, b1, ca, cb, clip,
                             inverse);
  return rule_peak * dm_pow(centre_sq / rule_alpha_sq, -rule_beta) * sum;
}

double direct_tensor_integral(int order, double x0, double x1, double y0, double y1) {
  const double half_x = 0.5LF * (x1 - x0), half_y = 0.5LF * (y1 - y0);
  const int first = first_node(order);
  const double cx = x0 + half_x, cy = y0 + half_y;
  const double centre_sq = rule_alpha_sq + cx * cx + cy * cy;
  const double inverse = 1.0LF / centre_sq;
  const double reach_x = half_x * kRuleNodes[first], reach_y = half_y * kRuleNodes[first];
  const double eps_bound =
      (reach_x * (2.0LF * abs(cx) + reach_x) + reach_y * (2.0LF * abs(cy) + reach_y)) * inverse;
  int terms = 1;
  while (terms <= kMaxSeriesTerms && !(eps_bound <= rule_series_reach[terms])) ++terms;
  const double sum = tensor_sum(order, terms, first, half_x, half_y, cx, cy, inverse);
  const double centre = rule_peak * dm_pow(centre_sq / rule_alpha_sq, -rule_beta);
  return centre * half_x * half_y * sum;
}

int direct_subdivision(double x0, double x1, double y0, double y1, double clip) {
  const double half_x = 0.5LF * (x1 - x0), half_y = 0.5LF * (y1 - y0);
  if (!(half_x > 0.0LF) || !(half_y > 0.0LF) || half_x > kMaxHalfSide || half_y > kMaxHalfSide)
    return 0;
  const double far_x = max(abs(x0), abs(x1)), far_y = max(abs(y0), abs(y1));
  if (clip > 0.0LF && !(far_x * far_x + far_y * far_y <= clip * clip)) return 0;
  const double near_x = x0 > 0.0LF ? x0 : x1 < 0.0LF ? -x1 : 0.0LF;
  const double near_y = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
  const double radius_sq = rule_alpha_sq + near_x * near_x + near_y * near_y;
  for (int k = 2; k <= kMaxSubdivision; ++k)
    if (radius_sq * double(k * k) >= rule_min_radius_sq[kOrderCount - 1]) return k;
  return 0;
}

double direct_subdivided_integral(int k, double x0, double x1, double y0, double y1) {
  double xs[kMaxSubdivision + 1], ys[kMaxSubdivision + 1];
  for (int i = 0; i < k; ++i) {
    xs[i] = x0 + (x1 - x0) * double(i) / double(k);
    ys[i] = y0 + (y1 - y0) * double(i) / double(k);
  }
  xs[k] = x1, ys[k] = y1;
  const double scale_sq = double(k * k);
  double sum = 0.0LF;
  for (int j = 0; j < k; ++j) {
    const double near_y = ys[j] > 0.0LF ? ys[j] : ys[j + 1] < 0.0LF ? -ys[j + 1] : 0.0LF;
    for (int i = 0; i < k; ++i) {
      const double near_x = xs[i] > 0.0LF ? xs[i] : xs[i + 1] < 0.0LF ? -xs[i + 1] : 0.0LF;
      const double radius_sq = (rule_alpha_sq + near_x * near_x + near_y * near_y) * scale_sq;
      int order = kMaxOrder;
      for (int o = 0; o < kOrderCount; ++o) {
        if (radius_sq >= rule_min_radius_sq[o]) {
          order = kMinOrder + o;
          break;
        }
      }
      sum += direct_tensor_integral(order, xs[i], xs[i + 1], ys[j], ys[j + 1]);
    }
  }
  return sum;
}

double direct_pixel_integral(double x0, double x1, double y0, double y1, double clip) {
  const int order = direct_pixel_order(x0, x1, y0, y1, clip);
  if (order > 0.0LF) return direct_tensor_integral(order, x0, x1, y0, y1);
  if (direct_pixel_cut(x0, x1, y0, y1, clip)) {
    const int cut_order = direct_cut_order(x0, x1, y0, y1, clip);
    if (cut_order > 0.0LF) return direct_cut_pixel_integral(cut_order, x0, x1, y0, y1, clip);
  } else {
    const int k = direct_subdivision(x0, x1, y0, y1, clip);
    if (k > 0.0LF) return direct_subdivided_integral(k, x0, x1, y0, y1);
  }
  return moffat_rectangle_integral(psf_alpha, psf_beta, x0, x1, y0, y1, clip);
}

#endif
