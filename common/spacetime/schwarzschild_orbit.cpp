#include "spacetime/schwarzschild_orbit.h"

#include <cmath>
#include <numbers>

#include "spacetime/carlson.h"

namespace starlens::schwarzschild {
namespace {

// Roots u1 < 0 < u2 <= u3 of 2u^3 - u^2 + 1/b^2 for b^2 > 27, with u3 - u2 kept separately
// because it vanishes at the critical orbit and must not come from a cancelling subtraction.
struct RealRoots {
  double u1, u2, u3, u3_minus_u2;
};

RealRoots real_roots(double b_squared, double b_squared_minus_27) {
  // Trigonometric solution: u_k = 1/6 + cos((theta - 2 pi k)/3)/3 with cos(theta) = 1 - 54/b^2.
  // Writing theta = pi - delta, the smaller of delta/2 and its complement pi/2 - delta/2 comes
  // from one atan2 (accurate at the critical orbit, delta -> 0, and for large b, delta -> pi),
  // the larger by subtraction, which costs no relative accuracy there.
  const double excess = std::sqrt(b_squared_minus_27);
  const double root_27 = std::sqrt(27.0);
  const bool near_critical = excess <= root_27;  // delta/2 <= pi/4
  const double small_angle =
      near_critical ? std::atan2(excess, root_27) : std::atan2(root_27, excess);
  // One sincos of a third of the smaller angle gives both sines needed; their angles sum
  // to pi/6: complement/3 + half_delta/3.
  const double sin_third = std::sin(small_angle / 3), cos_third = std::cos(small_angle / 3);
  constexpr double kHalfRoot3 = 0.86602540378443864676;  // sin(pi/3)
  double sin_complement_third = 0, sin_two_thirds_half_delta = 0;
  if (near_critical) {  // small_angle = delta/2
    sin_two_thirds_half_delta = 2 * sin_third * cos_third;
    sin_complement_third = cos_third / 2 - kHalfRoot3 * sin_third;  // sin(pi/6 - delta/6)
  } else {  // small_angle = pi/2 - delta/2: sin(pi/3 - 2 small_angle/3)
    sin_complement_third = sin_third;
    sin_two_thirds_half_delta =
        kHalfRoot3 * (1 - 2 * sin_third * sin_third) - sin_third * cos_third;
  }
  RealRoots roots{};
  // 1/2 - u3 = (1 - cos((pi - delta)/3))/3 = (2/3) sin^2(complement/3): no cancellation.
  const double half_minus_u3 = 2 * sin_complement_third * sin_complement_third / 3;
  roots.u3 = 0.5 - half_minus_u3;
  roots.u3_minus_u2 = sin_two_thirds_half_delta / std::sqrt(3.0);
  // u1 and u2 from Vieta (sum 1/2, product -1/(2 b^2)) by the stable quadratic formula:
  // for large b both are ~ -+1/b and the trigonometric forms would cancel.
  const double sum = half_minus_u3;
  const double product = -1 / (2 * b_squared * roots.u3);
  const double root_of_discriminant = std::sqrt(sum * sum - 4 * product);
  roots.u2 = (sum + root_of_discriminant) / 2;  // sum > 0, so no cancellation
  roots.u1 = product / roots.u2;
  return roots;
}

// The azimuth integral of du / sqrt(2u^3 - u^2 + 1/b^2) = du / sqrt(2 (u - u1)(u2 - u)(u3 - u))
// for b^2 > 27, in one R_F by Carlson's interval formula (Carlson 1988, three linear factors):
// the integral from 0 to x is sqrt(2) R_F(U12^2, U13^2, U14^2) with
// U12 = (X1 X2 Y3 + Y1 Y2 X3) / x, U13 = (X1 X3 Y2 + Y1 Y3 X2) / x, U14 = (X1 Y2 Y3 + Y1 X2 X3) /
// x, Xi, Yi the square roots of the factors at x and 0.
//
// An inward ray goes from infinity (u = 0) to the turning point u2 and back to the observer:
// the same formula continued past u2, where X2 changes sign. Then each U is a difference,
// computed here as its exact polynomial over the sum (no cancellation, also for x << u2), and
// sqrt(2) R_F gives the azimuth T while T is at most the half period
// C = integral from u1 to u2 (U12 >= 0), and 2C - T beyond it (U12 < 0).
double azimuth_two_roots(const RealRoots& roots, double u_obs, double u2_minus_u_obs, bool inward) {
  const double u1 = roots.u1, u2 = roots.u2, u3 = roots.u3, x = u_obs;
  const double u3_minus_x = roots.u3_minus_u2 + u2_minus_u_obs;
  const double x1 = std::sqrt(x - u1), x2 = std::sqrt(u2_minus_u_obs), x3 = std::sqrt(u3_minus_x);
  const double y1 = std::sqrt(-u1), y2 = std::sqrt(u2), y3 = std::sqrt(u3);
  if (!inward) {
    const double u12 = (x1 * x2 * y3 + y1 * y2 * x3) / x, u13 = (x1 * x3 * y2 + y1 * y3 * x2) / x,
                 u14 = (x1 * y2 * y3 + y1 * x2 * x3) / x;
    return std::sqrt(2.0) * carlson::rf(u12 * u12, u13 * u13, u14 * u14);
  }
  const double u12 = (u1 * u2 - u3 * (u1 + u2) + x * u3) / (y1 * y2 * x3 + x1 * x2 * y3);
  const double u13 = (u2 * u3_minus_x - u1 * roots.u3_minus_u2) / (x1 * x3 * y2 + y1 * y3 * x2);
  const double u14 = (u2 * u3 - u1 * (u2 + u3_minus_x)) / (x1 * y2 * y3 + y1 * x2 * x3);
  const double folded = std::sqrt(2.0) * carlson::rf(u12 * u12, u13 * u13, u14 * u14);
  if (u12 >= 0) return folded;
  // Half period sqrt(2) R_F(0, u3 - u2, u3 - u1): grows like -log(u3 - u2) at the critical orbit.
  const double half_period = std::sqrt(2.0) * carlson::rf_complete(roots.u3_minus_u2, u3 - u1);
  return 2 * half_period - folded;
}

// Integral of du / sqrt(2u^3 - u^2 + 1/b^2) from 0 to u_obs for b^2 <= 27 (one real root u1,
// complex pair m +- i n): Byrd & Friedman 239.00 written as R_F so that no angle is formed.
double integral_one_real_root(double b_squared, double b_squared_minus_27, double u_obs) {
  // u1 = 1/6 - cosh(acosh(54/b^2 - 1)/3)/3, with acosh(1 + e) = log1p(e + sqrt(e(2 + e))).
  const double excess = -2 * b_squared_minus_27 / b_squared;
  const double t = std::log1p(excess + std::sqrt(excess * (2 + excess)));
  const double u1 = 1.0 / 6 - std::cosh(t / 3) / 3;
  const double m = 0.25 - u1 / 2;
  const double n_squared = std::max(0.0, (3 * u1 * u1 - u1 - 0.25) / 4);
  const double a = std::sqrt(u1 * (3 * u1 - 1));
  // Integral from u1 to y, times sqrt(2): 2 sqrt(s) R_F((A - s)^2, (y - m)^2 + n^2, (A + s)^2).
  const auto from_root = [&](double y) {
    const double s = y - u1;
    return 2 * std::sqrt(s) *
           carlson::rf((a - s) * (a - s), (y - m) * (y - m) + n_squared, (a + s) * (a + s));
  };
  return (from_root(u_obs) - from_root(0)) / std::sqrt(2.0);
}

}  // namespace

double impact_parameter(double r_obs, double psi) {
  return r_obs * std::sin(psi) / std::sqrt(1 - 2 / r_obs);
}

double critical_angle(double r_obs) {
  // sin = sqrt(27 (r - 2)) / r^1.5 and cos = (r - 3) sqrt(r + 6) / r^1.5: atan2 stays accurate
  // where asin would not (r_obs near 3, critical angle near 90 degrees).
  return std::atan2(std::sqrt(27 * (r_obs - 2)), (r_obs - 3) * std::sqrt(r_obs + 6));
}

namespace {

// The capture test and the azimuth from sin(psi), cos(psi) and whether the backward ray starts
// inward; psi itself (`psi()`) is needed only near the critical orbit, in long double.
template <typename Psi>
bool captured(double r_obs, double sin_psi, bool inward, const Psi& psi) {
  if (!inward) return false;
  const double b = r_obs * sin_psi / std::sqrt(1 - 2 / r_obs);
  if (std::abs(b - kCriticalImpactParameter) > 1e-6) return b < kCriticalImpactParameter;
  // Near the boundary decide in long double, consistently with escape_azimuth's b^2 - 27.
  const long double sin_psi_long = std::sin(static_cast<long double>(psi()));
  const long double r = r_obs;
  return r * r * sin_psi_long * sin_psi_long / (1 - 2 / r) - 27 <= 0;
}

template <typename Psi>
double azimuth(double r_obs, double sin_psi, double cos_psi, bool inward, const Psi& psi) {
  const double u_obs = 1 / r_obs;
  const double b_squared = r_obs * r_obs * sin_psi * sin_psi / (1 - 2 * u_obs);
  // Nearly radial outgoing ray: the azimuth is b u_obs + O(b^3), below rounding here.
  if (b_squared < 1e-200) return std::sqrt(b_squared) * u_obs;
  // Near the critical orbit the azimuth grows like -log(b^2 - 27)/sqrt(3): there b^2 - 27 is
  // formed in long double so that the double rounding of b^2 does not cost digits.
  double b_squared_minus_27 = b_squared - 27;
  if (std::abs(b_squared_minus_27) < 1) {
    const long double sin_psi_long = std::sin(static_cast<long double>(psi()));
    const long double r = r_obs;
    b_squared_minus_27 =
        static_cast<double>(r * r * sin_psi_long * sin_psi_long / (1 - 2 / r) - 27);
  }
  if (b_squared_minus_27 <= 0) return integral_one_real_root(b_squared, b_squared_minus_27, u_obs);
  const RealRoots roots = real_roots(b_squared, b_squared_minus_27);
  // u2 - u_obs from G(u_obs) = u^2 (1 - 2u) cot^2(psi) = 2 (u - u1)(u2 - u)(u3 - u): exact
  // where the observer sits near the turning point (psi near 90 degrees).
  const double cot_psi = cos_psi / sin_psi;
  const double u2_minus_u_obs = u_obs * u_obs * (1 - 2 * u_obs) * cot_psi * cot_psi /
                                (2 * (u_obs - roots.u1) * (roots.u3 - u_obs));
  return azimuth_two_roots(roots, u_obs, u2_minus_u_obs, inward);
}

}  // namespace

bool is_captured(double r_obs, double psi) {
  return captured(r_obs, std::sin(psi), psi < std::numbers::pi / 2, [psi] { return psi; });
}

bool is_captured_from_vectors(double r_obs, double sin_psi, double cos_psi) {
  return captured(r_obs, sin_psi, cos_psi > 0, [=] { return std::atan2(sin_psi, cos_psi); });
}

double escape_azimuth(double r_obs, double psi) {
  return azimuth(r_obs, std::sin(psi), std::cos(psi), psi < std::numbers::pi / 2,
                 [psi] { return psi; });
}

double escape_azimuth_from_vectors(double r_obs, double sin_psi, double cos_psi) {
  return azimuth(r_obs, sin_psi, cos_psi, cos_psi > 0,
                 [=] { return std::atan2(sin_psi, cos_psi); });
}

}  // namespace starlens::schwarzschild
