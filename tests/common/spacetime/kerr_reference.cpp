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

}  // namespace starlens::test
