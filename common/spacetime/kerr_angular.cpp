#include "spacetime/kerr_angular.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_elljac.h>

#include <cmath>
#include <limits>

#include "spacetime/carlson_fused.h"

namespace starlens::kerr {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Legendre's F(phi | m) and Pi(n; phi | m) = integral of dt / ((1 - n sin^2 t) sqrt(1 - m
// sin^2 t)) in Carlson's form, from s = sin(phi), c2 = cos^2(phi), d2 = 1 - m s^2 and
// 1 - n s^2, each given so that none is formed by cancellation.
// Every R_F here comes from rf_rj: on the axis psi0 = F(pi/2 | m) must equal K(m) to the bit
// (passages counts the pole crossings by comparing them).
double legendre_f(double s, double c2, double d2) {
  return s * carlson::rf_rj(c2, d2, 1, nullptr, 0).rf;
}
double legendre_pi(double s, double c2, double d2, double n, double one_minus_n_s2) {
  const carlson::FusedIntegrals<double> values = carlson::rf_rj(c2, d2, 1, &one_minus_n_s2, 1);
  return s * values.rf + n / 3 * s * s * s * values.rj[0];
}

// The complete K(m) = R_F(0, 1 - m, 1) and, with_pi, Pi(n | m) = K + n / 3 R_J(0, 1 - m, 1,
// 1 - n), 1 - n given.
struct CompleteIntegrals {
  double k, pi;
};
CompleteIntegrals complete_integrals(double m, double n, double one_minus_n, bool with_pi) {
  const carlson::FusedIntegrals<double> values =
      carlson::rf_rj(0, 1 - m, 1, &one_minus_n, with_pi ? 1 : 0);
  return {values.rf, with_pi ? values.rf + n / 3 * values.rj[0] : kNaN};
}

struct Jacobi {
  double sn, cn, dn;
};

// sn, cn, dn of u for m <= 1; m < 0 through the imaginary-modulus transformation
// (Abramowitz & Stegun 16.10): sn(u | m) = sd(v | mt) / sqrt(1 - m), cn = cd, dn = nd with
// v = u sqrt(1 - m), mt = -m / (1 - m).
bool jacobi(double u, double m, Jacobi& out) {
  // GSL's default error handler aborts; its status codes are checked instead.
  static const bool handler_off = (gsl_set_error_handler_off(), true);
  (void)handler_off;
  if (m >= 0) return gsl_sf_elljac_e(u, m, &out.sn, &out.cn, &out.dn) == GSL_SUCCESS;
  const double root = std::sqrt(1 - m);
  double sn, cn, dn;
  if (gsl_sf_elljac_e(u * root, -m / (1 - m), &sn, &cn, &dn) != GSL_SUCCESS) return false;
  out = {sn / (dn * root), cn / dn, 1 / dn};
  return true;
}

// Passages over the points psi = offset + 2 i K for psi moving from `from` to `to` (the start
// itself not counted).
int passages(double from, double to, double offset, double period_half) {
  const double two_k = 2 * period_half;
  if (to >= from)
    return static_cast<int>(std::floor((to - offset) / two_k) -
                            std::floor((from - offset) / two_k));
  return passages(-from, -to, -offset, period_half);
}

// |lambda| below this is taken as zero: lambda G_phi is then pi per passage over a pole.
constexpr double kAxialLambda = 1e-150;

AngularEnd oscillating(const AngularStart& st, double mino) {
  const double a2 = st.a * st.a, eta = st.eta, lambda = st.lambda, mu0 = st.cos_theta;
  const double h = (a2 - eta - lambda * lambda) / 2;
  const double root = std::sqrt(h * h + eta * a2);
  double a2_um, up;
  if (h >= 0) {
    const double a2_up = h + root;
    a2_um = a2_up > 0 ? -eta * a2 / a2_up : 0;
    up = a2_up / a2;
  } else {
    a2_um = h - root;
    up = -eta / a2_um;
  }
  AngularEnd end;
  if (!(a2_um < 0))
    return end;                      // eta = 0 with lambda^2 <= a^2: mu creeps to a pole or the
                                     // equator (measure zero)
  const double m = up * a2 / a2_um;  // u_+ / u_-, <= 0
  const double omega = std::sqrt(-a2_um);
  const double one_minus_up = lambda * lambda / (a2 - a2_um);
  const bool axial = std::abs(lambda) < kAxialLambda;
  // The observer's phase psi0: mu0 = sqrt(u_+) sn(psi0), with 1 - sn^2 from p_theta exactly.
  double s0 = 0, c0 = 1;
  if (up > 0) {
    s0 = std::fmin(1.0, std::fmax(-1.0, mu0 / std::sqrt(up)));
    c0 = st.p_theta_squared * st.sin_theta * st.sin_theta / (a2 * mu0 * mu0 - a2_um) / up;
    c0 = std::fmin(1.0, std::fmax(0.0, c0));
  }
  const double d0 = 1 - m * s0 * s0;
  const CompleteIntegrals complete = complete_integrals(m, up, one_minus_up, !axial);
  const double k_complete = complete.k;
  const double psi0 = legendre_f(s0, c0, d0);
  const double psi = psi0 + st.direction * omega * mino;
  const double j = std::nearbyint(psi / (2 * k_complete));
  const double reduced = psi - 2 * j * k_complete;
  Jacobi f{};
  if (!jacobi(reduced, m, f)) return end;
  const double sign = std::fmod(j, 2.0) == 0 ? 1 : -1;
  end.cos_theta = std::sqrt(up) * sign * f.sn;
  end.sin_theta = std::sqrt(one_minus_up + up * f.cn * f.cn);
  end.half_periods = omega * mino / (2 * k_complete);
  if (axial) {
    end.pole_crossings = up > 0 ? passages(psi0, psi, k_complete, k_complete) : 0;
  } else {
    const double pi_complete = complete.pi;
    const double pi0 = legendre_pi(s0, c0, d0, up, st.sin_theta * st.sin_theta);
    const double pi_end = 2 * j * pi_complete + legendre_pi(f.sn, f.cn * f.cn, f.dn * f.dn, up,
                                                            one_minus_up + up * f.cn * f.cn);
    end.g_phi = st.direction * (pi_end - pi0) / omega;
  }
  end.ok = std::isfinite(end.cos_theta) && std::isfinite(end.sin_theta) && std::isfinite(end.g_phi);
  return end;
}

AngularEnd one_sided(const AngularStart& st, double mino) {
  const double a2 = st.a * st.a, eta = st.eta, lambda = st.lambda, mu0 = st.cos_theta;
  const double h = (a2 - eta - lambda * lambda) / 2;
  const double root = std::sqrt(std::fmax(0.0, h * h + eta * a2));
  AngularEnd end;
  if (!(h > 0) || !(root > 0) || mu0 == 0) return end;
  const double a2_up = h + root, a2_um = -eta * a2 / a2_up;
  const double up = a2_up / a2;
  const double k = 2 * root / a2_up;  // 1 - u_- / u_+
  const double omega = std::sqrt(a2_up);
  const double one_minus_up = lambda * lambda / (a2 - a2_um);
  const bool axial = std::abs(lambda) < kAxialLambda;
  const double mu_sign = mu0 > 0 ? 1 : -1;
  // mu = +-sqrt(u_+) dn(psi): sn^2(psi0) = (u_+ - mu0^2) / (u_+ - u_-).
  double s0sq =
      st.p_theta_squared * st.sin_theta * st.sin_theta / (a2 * mu0 * mu0 - a2_um) * a2 / (2 * root);
  s0sq = std::fmin(1.0, std::fmax(0.0, s0sq));
  const double s0 = std::sqrt(s0sq), c0 = 1 - s0sq, d0 = 1 - k * s0sq;
  // |mu| falls while psi in (0, K) grows: start at +psi0 when the ray heads for the equator.
  const double toward_equator = st.direction * mu_sign < 0 ? 1 : -1;
  const double psi0 = toward_equator * legendre_f(s0, c0, d0);
  const double n = axial ? 0 : -up * k / one_minus_up;
  const CompleteIntegrals complete = complete_integrals(k, n, 1 - n, !axial);
  const double k_complete = complete.k;
  const double psi = psi0 + omega * mino;
  const double j = std::nearbyint(psi / (2 * k_complete));
  const double reduced = psi - 2 * j * k_complete;
  Jacobi f{};
  if (!jacobi(reduced, k, f)) return end;
  end.cos_theta = mu_sign * std::sqrt(up) * f.dn;
  end.sin_theta = std::sqrt(one_minus_up + up * k * f.sn * f.sn);
  end.half_periods = omega * mino / (2 * k_complete);
  if (axial) {
    end.pole_crossings = passages(psi0, psi, 0, k_complete);
  } else {
    const double pi_complete = complete.pi;
    const double pi0 = toward_equator * legendre_pi(s0, c0, d0, n, 1 - n * s0sq);
    const double pi_end =
        2 * j * pi_complete + legendre_pi(f.sn, f.cn * f.cn, f.dn * f.dn, n, 1 - n * f.sn * f.sn);
    end.g_phi = (pi_end - pi0) / (omega * one_minus_up);
  }
  end.ok = std::isfinite(end.cos_theta) && std::isfinite(end.sin_theta) && std::isfinite(end.g_phi);
  return end;
}

}  // namespace

AngularEnd angular_end(const AngularStart& start, double mino) {
  if (start.eta == 0 && start.lambda == 0 && start.a == 0) {  // radial: theta stays
    AngularEnd end;
    end.ok = true;
    end.cos_theta = start.cos_theta;
    end.sin_theta = start.sin_theta;
    return end;
  }
  return start.eta >= 0 ? oscillating(start, mino) : one_sided(start, mino);
}

}  // namespace starlens::kerr
