// exp, log, log1p, expm1 and pow in double precision: GLSL has no double transcendental
// functions. exp and log are fdlibm's algorithms (e_exp.c, e_log.c: within one ulp);
// log1p and expm1 follow from them by Goldberg's and Kahan's corrections (a few ulps), pow(x, y)
// for x > 0 is exp(y log x) (|y log x| ulps). Only + - * /, sqrt, ldexp and bit access.
#ifndef STARLENS_DOUBLE_MATH
#define STARLENS_DOUBLE_MATH

double dm_from_words(uint high, uint low) { return packDouble2x32(uvec2(low, high)); }
uint dm_high_word(double x) { return unpackDouble2x32(x).y; }

double dm_exp(double x) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double inv_ln2 = 1.44269504088896338700e+00;
  const double p1 = 1.66666666666666019037e-01, p2 = -2.77777777770155933842e-03;
  const double p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06;
  const double p5 = 4.13813679705723846039e-08;
  if (isnan(x)) return x;
  if (x > 7.09782712893383973096e+02) return dm_from_words(0x7ff00000u, 0u);  // +inf
  if (x < -7.45133219101941108420e+02) return 0.0LF;
  const uint hx = dm_high_word(x) & 0x7fffffffu;
  precise double hi = 0.0LF, lo = 0.0LF, r = x;
  int k = 0;
  if (hx > 0x3fd62e42u) {  // |x| > 0.5 ln2
    if (hx < 0x3ff0a2b2u) {  // |x| < 1.5 ln2
      k = x < 0.0LF ? -1 : 1;
      hi = x - double(k) * ln2_hi;
      lo = double(k) * ln2_lo;
    } else {
      precise double scaled = inv_ln2 * x + (x < 0.0LF ? -0.5LF : 0.5LF);
      k = int(scaled);
      const double t = double(k);
      hi = x - t * ln2_hi;
      lo = t * ln2_lo;
    }
    r = hi - lo;
  } else if (hx < 0x3e300000u) {  // |x| < 2^-28
    return 1.0LF + x;
  }
  precise double t = r * r;
  precise double c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))));
  if (k == 0) return 1.0LF - ((r * c) / (c - 2.0LF) - r);
  precise double y = 1.0LF - ((lo - (r * c) / (2.0LF - c)) - hi);
  return ldexp(y, k);
}

double dm_log(double x) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double two54 = 1.80143985094819840000e+16;
  const double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01;
  const double lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01;
  const double lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01;
  const double lg7 = 1.479819860511658591e-01;
  if (isnan(x) || x < 0.0LF) return dm_from_words(0x7ff80000u, 0u);
  if (x == 0.0LF) return dm_from_words(0xfff00000u, 0u);  // -inf
  if (isinf(x)) return x;
  int k = 0;
  precise double v = x;
  int hx = int(dm_high_word(v));
  if (hx < 0x00100000) {  // subnormal
    k -= 54;
    v *= two54;
    hx = int(dm_high_word(v));
  }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const int i = (hx + 0x95f64) & 0x100000;
  v = dm_from_words(uint(hx | (i ^ 0x3ff00000)), unpackDouble2x32(v).x);  // x or x/2
  k += i >> 20;
  precise double f = v - 1.0LF;
  const double dk = double(k);
  if ((0x000fffff & (2 + hx)) < 3) {  // -2^-20 <= f < 2^-20
    if (f == 0.0LF) return k == 0 ? 0.0LF : dk * ln2_hi + dk * ln2_lo;
    precise double rr = f * f * (0.5LF - 0.33333333333333333LF * f);
    if (k == 0) return f - rr;
    return dk * ln2_hi - ((rr - dk * ln2_lo) - f);
  }
  precise double s = f / (2.0LF + f);
  precise double z = s * s;
  precise double w = z * z;
  int ii = hx - 0x6147a;
  const int j = 0x6b851 - hx;
  precise double t1 = w * (lg2 + w * (lg4 + w * lg6));
  precise double t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
  ii |= j;
  precise double rr = t2 + t1;
  if (ii > 0) {
    precise double hfsq = 0.5LF * f * f;
    if (k == 0) return f - (hfsq - s * (hfsq + rr));
    return dk * ln2_hi - ((hfsq - (s * (hfsq + rr) + dk * ln2_lo)) - f);
  }
  if (k == 0) return f - s * (f - rr);
  return dk * ln2_hi - ((s * (f - rr) - dk * ln2_lo) - f);
}

// log(1 + x) for x > -1: log(u) x / (u - 1), u = 1 + x rounded (Goldberg).
double dm_log1p(double x) {
  precise double u = 1.0LF + x;
  if (u == 1.0LF) return x;
  if (isinf(u)) return u;
  precise double result = dm_log(u) * (x / (u - 1.0LF));
  return result;
}

// exp(x) - 1: (u - 1) x / log(u), u = exp(x) rounded (Kahan).
double dm_expm1(double x) {
  precise double u = dm_exp(x);
  if (u == 1.0LF) return x;
  precise double um1 = u - 1.0LF;
  if (um1 == -1.0LF) return -1.0LF;
  if (isinf(u)) return u;
  precise double result = um1 * x / dm_log(u);
  return result;
}

// x^y for x > 0.
double dm_pow(double x, double y) {
  precise double exponent = y * dm_log(x);
  return dm_exp(exponent);
}

#endif
