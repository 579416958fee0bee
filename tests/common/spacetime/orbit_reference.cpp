#include "orbit_reference.h"

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace starlens::test {
namespace {

using Real = long double;
using Integrand = std::function<Real(Real)>;

// Nodes and weights of n-point Gauss-Legendre on [-1, 1] by Newton's method on P_n.
struct GaussLegendre {
  std::vector<Real> nodes, weights;
  explicit GaussLegendre(int n) {
    const Real pi = std::acos(Real(-1));
    for (int i = 1; i <= n; ++i) {
      Real x = std::cos(pi * (i - Real(0.25)) / (n + Real(0.5)));
      Real derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        Real p0 = 1, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const Real p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1);
        const Real step = p1 / derivative;
        x -= step;
        if (std::fabs(step) < 1e-21L) break;
      }
      nodes.push_back(x);
      weights.push_back(2 / ((1 - x * x) * derivative * derivative));
    }
  }
  Real integrate(const Integrand& f, Real a, Real b) const {
    const Real half = (b - a) / 2, middle = (a + b) / 2;
    Real sum = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) sum += weights[i] * f(middle + half * nodes[i]);
    return sum * half;
  }
};

// Adaptive bisection: a panel is accepted when it agrees with the sum of its halves to a
// share of the tolerance, or to a few ulps of its value (the long-double floor).
Real integrate(const Integrand& f, Real a, Real b) {
  static const GaussLegendre rule(24);
  struct Panel {
    Real a, b, whole, tolerance;
  };
  if (b <= a) return 0;
  std::vector<Panel> pending{{a, b, rule.integrate(f, a, b), 1e-17L}};
  Real total = 0;
  for (int panels = 0; !pending.empty(); ++panels) {
    if (panels > 200000) throw std::runtime_error("reference quadrature did not converge");
    const Panel panel = pending.back();
    pending.pop_back();
    const Real middle = (panel.a + panel.b) / 2;
    const Real left = rule.integrate(f, panel.a, middle);
    const Real right = rule.integrate(f, middle, panel.b);
    const Real floor = 32 * std::numeric_limits<Real>::epsilon() * std::fabs(left + right);
    if (std::fabs(left + right - panel.whole) <= std::max(panel.tolerance, floor)) {
      total += left + right;
      continue;
    }
    pending.push_back({panel.a, middle, left, panel.tolerance / 2});
    pending.push_back({middle, panel.b, right, panel.tolerance / 2});
  }
  return total;
}

struct Orbit {
  Real u_obs, inverse_b2, g_obs;  // g_obs = G(u_obs)
  bool inward;
  Real g(Real u) const { return inverse_b2 - u * u + 2 * u * u * u; }
};

Orbit orbit_of(Real r_obs, Real psi) {
  const Real u = 1 / r_obs;
  const Real sin_psi = std::sin(psi), cos_psi = std::cos(psi);
  // G(u_obs) = (du/dphi)^2 at the observer = u^2 (1 - 2u) cot^2(psi), from the local
  // aberration relation sin(psi) = (b u) / sqrt(1 - 2u); exact where G's terms cancel.
  return {u, (1 - 2 * u) * u * u / (sin_psi * sin_psi),
          u * u * (1 - 2 * u) * cos_psi * cos_psi / (sin_psi * sin_psi),
          psi < std::acos(Real(-1)) / 2};
}

}  // namespace

bool reference_is_captured(long double r_obs, long double psi) {
  const Orbit orbit = orbit_of(r_obs, psi);
  // G's minimum for u > 0 is at u = 1/3; an inward ray turns back iff G(1/3) <= 0.
  return orbit.inward && orbit.g(Real(1) / 3) > 0;
}

std::optional<long double> reference_escape_azimuth(long double r_obs, long double psi) {
  if (reference_is_captured(r_obs, psi)) return std::nullopt;
  const Orbit orbit = orbit_of(r_obs, psi);
  if (orbit.g(Real(1) / 3) > 0)  // outward, no turning point: a smooth integrand
    return integrate([&](Real u) { return 1 / std::sqrt(orbit.g(u)); }, 0, orbit.u_obs);
  // t = u2 - u_obs: the first root of G(u_obs + t) = G0 + G1 t + G2 t^2 + 2 t^3 for t >= 0,
  // by bisection on its Taylor form so that a tiny t (psi near 90 degrees) keeps its digits.
  const Real u = orbit.u_obs;
  const Real g1 = -2 * u + 6 * u * u, g2 = -1 + 6 * u;
  const auto shifted = [&](Real t) { return orbit.g_obs + t * (g1 + t * (g2 + 2 * t)); };
  Real low = 0, high = Real(1) / 3 - u;
  for (int i = 0; i < 20000 && low < high; ++i) {
    const Real middle = (low + high) / 2;
    if (middle <= low || middle >= high) break;
    (shifted(middle) > 0 ? low : high) = middle;
  }
  const Real t = (low + high) / 2;
  const Real u2 = u + t;
  // G(u) = (u2 - u) q(u) with q(u) = -(2u^2 + (2 u2 - 1) u + 2 u2^2 - u2) (synthetic division);
  // with u = u2 - s^2, du / sqrt(G) = 2 ds / sqrt(q(u2 - s^2)).
  const auto turning = [&](Real s) {
    const Real v = u2 - s * s;
    return 2 / std::sqrt(-(2 * v * v + (2 * u2 - 1) * v + 2 * u2 * u2 - u2));
  };
  const Real s_infinity = std::sqrt(u2), s_observer = std::sqrt(t);
  if (orbit.inward)  // observer -> periapsis -> infinity
    return integrate(turning, 0, s_observer) + integrate(turning, 0, s_infinity);
  return integrate(turning, s_observer, s_infinity);  // observer -> infinity, outward
}

}  // namespace starlens::test
