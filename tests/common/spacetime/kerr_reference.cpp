#include "kerr_reference.h"

#include <array>
#include <cmath>
#include <functional>

namespace starlens::test {
namespace {

using Real = long double;

// Gragg-Bulirsch-Stoer: modified midpoint steps extrapolated to zero step in h^2, with the
// step size halved until the two highest extrapolations agree to `tolerance`.
template <std::size_t N>
struct Integrator {
  using State = std::array<Real, N>;
  std::function<State(Real, const State&)> f;
  Real tolerance = 1e-17L;

  State midpoint(Real x, const State& y, Real H, int n) const {
    const Real h = H / n;
    State z0 = y, z1{}, d = f(x, y);
    for (std::size_t i = 0; i < N; ++i) z1[i] = y[i] + h * d[i];
    for (int k = 1; k < n; ++k) {
      d = f(x + k * h, z1);
      for (std::size_t i = 0; i < N; ++i) {
        const Real next = z0[i] + 2 * h * d[i];
        z0[i] = z1[i];
        z1[i] = next;
      }
    }
    d = f(x + H, z1);
    State out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = (z0[i] + z1[i] + h * d[i]) / 2;
    return out;
  }

  // One attempted step of size H: true and y advanced when converged.
  bool step(Real x, State& y, Real H) const {
    static constexpr int seq[] = {2, 4, 6, 8, 10, 12, 14, 16, 18, 20};
    constexpr int levels = 10;
    // Row k of the tableau: T[k][0] the midpoint result with seq[k] substeps,
    // T[k][j] = T[k][j-1] + (T[k][j-1] - T[k-1][j-1]) / ((seq[k] / seq[k-j])^2 - 1).
    std::array<State, levels> previous{}, current{};
    for (int k = 0; k < levels; ++k) {
      current[0] = midpoint(x, y, H, seq[k]);
      for (int j = 1; j <= k; ++j) {
        const Real ratio = Real(seq[k]) / seq[k - j];
        for (std::size_t i = 0; i < N; ++i)
          current[j][i] =
              current[j - 1][i] + (current[j - 1][i] - previous[j - 1][i]) / (ratio * ratio - 1);
      }
      if (k >= 4) {
        Real err = 0;
        for (std::size_t i = 0; i < N; ++i)
          err = std::fmax(
              err, std::fabs(current[k][i] - current[k - 1][i]) / (1 + std::fabs(current[k][i])));
        if (err < tolerance) {
          y = current[k];
          return true;
        }
      }
      previous = current;
    }
    return false;
  }
};

// Gauss-Legendre nodes and weights of order 20 on [-1, 1] by Newton's method on P_20.
struct GaussLegendre {
  static constexpr int kOrder = 20;
  Real node[kOrder], weight[kOrder];
  GaussLegendre() {
    for (int i = 0; i < kOrder; ++i) {
      Real x = std::cos(3.14159265358979323846264L * (i + 0.75L) / (kOrder + 0.5L));
      Real derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        Real p0 = 1, p1 = x;
        for (int k = 2; k <= kOrder; ++k) {
          const Real p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = kOrder * (x * p1 - p0) / (x * x - 1);
        const Real step = p1 / derivative;
        x -= step;
        if (std::fabs(step) < 1e-21L) break;
      }
      node[i] = x;
      weight[i] = 2 / ((1 - x * x) * derivative * derivative);
    }
  }
};

// Adaptive quadrature of two integrands at once (each interval split until its two halves
// agree with the whole to `tolerance` of the running scale).
using Pair = std::array<Real, 2>;
Pair gauss(const std::function<Pair(Real)>& f, Real lo, Real hi) {
  static const GaussLegendre rule;
  const Real mid = (lo + hi) / 2, half = (hi - lo) / 2;
  Pair sum{0, 0};
  for (int i = 0; i < GaussLegendre::kOrder; ++i) {
    const Pair v = f(mid + half * rule.node[i]);
    sum[0] += rule.weight[i] * v[0];
    sum[1] += rule.weight[i] * v[1];
  }
  return {sum[0] * half, sum[1] * half};
}
Pair adaptive(const std::function<Pair(Real)>& f, Real lo, Real hi, const Pair& whole,
              const Pair& tolerance, int depth) {
  const Real mid = (lo + hi) / 2;
  const Pair left = gauss(f, lo, mid), right = gauss(f, mid, hi);
  const Pair both{left[0] + right[0], left[1] + right[1]};
  const bool converged = std::fabs(both[0] - whole[0]) <= tolerance[0] &&
                         std::fabs(both[1] - whole[1]) <= tolerance[1];
  if (converged || depth > 30) return both;
  const Pair a = adaptive(f, lo, mid, left, tolerance, depth + 1),
             b = adaptive(f, mid, hi, right, tolerance, depth + 1);
  return {a[0] + b[0], a[1] + b[1]};
}
// Each interval to 1e-15 of the whole integral's first estimate (of its magnitude).
Pair integrate(const std::function<Pair(Real)>& f, Real lo, Real hi) {
  const Pair first = gauss(f, lo, hi);
  const Pair tolerance{1e-15L * (std::fabs(first[0]) + 1e-30L),
                       1e-15L * (std::fabs(first[1]) + 1e-30L)};
  return adaptive(f, lo, hi, first, tolerance, 0);
}

}  // namespace

std::optional<KerrRay> reference_kerr_ray(Real a, Real r_obs, Real theta_obs, Real n_r,
                                          Real n_theta, Real n_phi) {
  const Real a2 = a * a;
  const Real r = r_obs, st = std::sin(theta_obs), ct = std::cos(theta_obs);
  // Metric components at the observer (Boyer-Lindquist).
  const Real sigma = r * r + a2 * ct * ct, delta = r * r - 2 * r + a2;
  const Real g_tt = -(1 - 2 * r / sigma);
  const Real g_tp = -2 * a * r * st * st / sigma;
  const Real g_pp = (r * r + a2 + 2 * a2 * r * st * st / sigma) * st * st;
  const Real g_rr = sigma / delta, g_hh = sigma;
  // ZAMO: u = N (d_t + w d_phi) with w = -g_tp / g_pp, normalised; e_phi = d_phi / sqrt(g_pp).
  const Real w = -g_tp / g_pp;
  const Real norm_u = std::sqrt(-(g_tt + 2 * w * g_tp + w * w * g_pp));
  const std::array<Real, 4> u{1 / norm_u, 0, 0, w / norm_u};
  const std::array<Real, 4> e_r{0, 1 / std::sqrt(g_rr), 0, 0};
  const std::array<Real, 4> e_h{0, 0, 1 / std::sqrt(g_hh), 0};
  const std::array<Real, 4> e_p{0, 0, 0, 1 / std::sqrt(g_pp)};
  // The arriving photon: p = u - n (unit local energy), contravariant.
  std::array<Real, 4> p{};
  for (int m = 0; m < 4; ++m) p[m] = u[m] - n_r * e_r[m] - n_theta * e_h[m] - n_phi * e_p[m];
  const Real p_t = g_tt * p[0] + g_tp * p[3];
  const Real p_phi = g_tp * p[0] + g_pp * p[3];
  const Real p_th = g_hh * p[2];
  const Real energy = -p_t;
  KerrRay out{};
  out.lambda = p_phi / energy;
  out.eta = (p_th * p_th + ct * ct * (p_phi * p_phi / (st * st) - a2 * energy * energy)) /
            (energy * energy);
  out.g = 1 / energy;
  const Real lambda = out.lambda, eta = out.eta;
  const Real A = a2 - eta - lambda * lambda, B = 2 * (eta + (lambda - a) * (lambda - a)),
             C = -a2 * eta;
  auto radial_force = [&](Real x) { return (4 * x * x * x + 2 * A * x + B) / 2; };
  auto drag = [&](Real x) { return -a * (2 * x - a * lambda) / (x * x - 2 * x + a2); };
  // The sphere point's acceleration from its position q and velocity v.
  auto sphere = [&](const Real* q, const Real* v, Real* acc) {
    const Real v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    for (int i = 0; i < 3; ++i) acc[i] = -v2 * q[i] - a2 * q[2] * q[2] * q[i];
    acc[2] += a2 * q[2];
  };
  // Backward ray, Mino time s: dr/ds = sqrt(Sigma Delta) n_r / E, dtheta/ds =
  // sqrt(Sigma) n_theta / E, sin(theta) dphi_ang/ds = sqrt(A / Sigma) n_phi / E.
  const Real big_a = (r * r + a2) * (r * r + a2) - a2 * delta * st * st;
  const Real pr0 = std::sqrt(sigma * delta) * n_r / energy;
  const Real theta_rate = std::sqrt(sigma) * n_theta / energy;
  const Real phi_rate = std::sqrt(big_a / sigma) * n_phi / energy;
  const Real r_plus = 1 + std::sqrt(1 - a2);
  const Real r_far = std::fmax(4 * r_obs, 400.0L);

  // Phase 1: r, p_r, q (3), v (3), phi_rad in Mino time until outward beyond r_far.
  using Near = std::array<Real, 9>;
  Integrator<9> near;
  near.f = [&](Real, const Near& y) {
    Near d{};
    d[0] = y[1];
    d[1] = radial_force(y[0]);
    for (int i = 0; i < 3; ++i) d[2 + i] = y[5 + i];
    sphere(&y[2], &y[5], &d[5]);
    d[8] = drag(y[0]);
    return d;
  };
  Near y{r, pr0, st, 0, ct, theta_rate * ct, phi_rate, -theta_rate * st, 0};
  Real s = 0, H = 0.05L / (1 + std::fabs(pr0) / (r * r));
  for (int steps = 0; steps < 200000; ++steps) {
    if (y[0] < r_plus * 1.0001L) return std::nullopt;
    if (y[1] > 0 && y[0] > r_far) break;
    // Keep the step to a fraction of the radius' own time scale r / |dr/ds| (~ 1/r far out).
    const Real scale = y[0] / (std::fabs(y[1]) + 1e-30L);
    Real h = std::fmin(H, 0.05L * std::fmin(scale, 1.0L));
    Near trial = y;
    while (!near.step(s, trial, h)) {
      h /= 2;
      trial = y;
      if (h < 1e-40L) return std::nullopt;
    }
    y = trial;
    s += h;
    H = h * 1.5L;
  }
  if (!(y[1] > 0 && y[0] > r_far)) return std::nullopt;
  // Phase 2: u = 1/r from 1/r to 0; q, v, phi_rad.
  auto root_r_tilde = [&](Real x) {  // sqrt(u^4 R(1/u))
    return std::sqrt(1 + A * x * x + B * x * x * x + C * x * x * x * x);
  };
  using Far = std::array<Real, 7>;
  Integrator<7> far;
  far.f = [&](Real x, const Far& z) {
    const Real ds_du = -1 / root_r_tilde(x);
    Far d{};
    for (int i = 0; i < 3; ++i) d[i] = ds_du * z[3 + i];
    sphere(&z[0], &z[3], &d[3]);
    for (int i = 3; i < 6; ++i) d[i] *= ds_du;
    d[6] = ds_du * -a * x * (2 - a * lambda * x) / (1 - 2 * x + a2 * x * x);
    return d;
  };
  Far z{y[2], y[3], y[4], y[5], y[6], y[7], y[8]};
  Real x = 1 / y[0];
  Real h = -x / 8;
  while (x > 0) {
    if (x + h < 0) h = -x;
    Far trial = z;
    while (!far.step(x, trial, h)) {
      h /= 2;
      trial = z;
      if (std::fabs(h) < 1e-40L) return std::nullopt;
    }
    z = trial;
    x += h;
    if (std::fabs(x) < 1e-30L) x = 0;
    h *= 1.5L;
  }
  const Real length = std::sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  const Real c = std::cos(z[6]), sn = std::sin(z[6]);
  out.direction[0] = (c * z[0] - sn * z[1]) / length;
  out.direction[1] = (sn * z[0] + c * z[1]) / length;
  out.direction[2] = z[2] / length;
  return out;
}

std::optional<RadialReference> reference_radial(Real a, Real lambda, Real eta, Real r,
                                                bool outward) {
  const Real a2 = a * a;
  const Real A = a2 - eta - lambda * lambda, B = 2 * (eta + (lambda - a) * (lambda - a)),
             C = -a2 * eta;
  auto big_r = [&](Real x) { return (((x * x + A) * x) + B) * x + C; };
  auto drag = [&](Real x) { return -a * (2 * x - a * lambda) / (x * x - 2 * x + a2); };
  const Real r_plus = 1 + std::sqrt(1 - a2);
  // The local minima of R: roots of R'/2 = 2x^3 + A x + B/2, three real ones when
  // 27 (B/4)^2 < -2 (A/2)^3... by the trigonometric formula for x^3 + p x + q, p = A/2, q = B/4.
  std::array<Real, 3> critical{};
  int critical_count = 0;
  {
    const Real p = A / 2, q = B / 4;
    const Real disc = q * q / 4 + p * p * p / 27;
    if (disc < 0) {
      const Real m = 2 * std::sqrt(-p / 3);
      const Real angle = std::acos(3 * q / (p * m)) / 3;
      for (int k = 0; k < 3; ++k)
        critical[critical_count++] = m * std::cos(angle - 2 * 3.14159265358979323846264L * k / 3);
    } else {
      const Real root = std::sqrt(disc);
      critical[critical_count++] = std::cbrt(-q / 2 + root) + std::cbrt(-q / 2 - root);
    }
  }
  // A forbidden band (R < 0) at a local minimum x_m (R'' > 0): the ray from r_obs meets its
  // edge if the band lies on its way.
  auto edge = [&](Real lo, Real hi) {  // R(lo) < 0 <= R(hi) or the reverse
    const bool rising = big_r(lo) < big_r(hi);
    for (int i = 0; i < 200; ++i) {
      const Real mid = (lo + hi) / 2;
      ((big_r(mid) < 0) == rising ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
  };
  Real turn = 0;  // r4 for an inward ray that turns
  for (int k = 0; k < critical_count; ++k) {
    const Real x = critical[k];
    if (!(x > r_plus) || !(6 * x * x + A > 0) || !(big_r(x) < 0)) continue;
    if (outward && x > r) return std::nullopt;  // turns back into the hole
    if (!outward && x < r) turn = std::fmax(turn, edge(x, r));
  }
  if (!outward && turn == 0) return std::nullopt;
  // Radial integrals (S, phi_rad) over [from, infinity): t-substitution at a turning point,
  // u = 1/r beyond r_mid.
  auto from_to_infinity = [&](Real from, bool at_turn) {
    const Real r_mid = std::fmax(2 * from, from + 4);
    Pair near{0, 0};
    if (at_turn) {
      near = integrate(
          [&](Real t) {
            const Real x = from + t * t;
            const Real w = 2 * t / std::sqrt(big_r(x));
            return Pair{w, w * drag(x)};
          },
          0, std::sqrt(r_mid - from));
    } else {
      near = integrate(
          [&](Real x) {
            const Real w = 1 / std::sqrt(big_r(x));
            return Pair{w, w * drag(x)};
          },
          from, r_mid);
    }
    const Pair tail = integrate(
        [&](Real u) {
          const Real w = 1 / std::sqrt(1 + A * u * u + B * u * u * u + C * u * u * u * u);
          const Real d = -a * u * (2 - a * lambda * u) / (1 - 2 * u + a2 * u * u);
          return Pair{w, w * d};
        },
        0, 1 / r_mid);
    return Pair{near[0] + tail[0], near[1] + tail[1]};
  };
  Pair radial{};
  if (outward) {
    radial = from_to_infinity(r, false);
  } else {
    const Pair at_turn = from_to_infinity(turn, true), at_obs = from_to_infinity(r, false);
    radial = {2 * at_turn[0] - at_obs[0], 2 * at_turn[1] - at_obs[1]};
  }
  return RadialReference{radial[0], radial[1]};
}

}  // namespace starlens::test
