#include "animation/kerr_worldlines.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_roots.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <stdexcept>

#include "spacetime/kerr_observers.h"
#include "spacetime/kerr_zamo.h"

namespace starlens::animation {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kTolerance = 1e-13;

struct Fall {
  double a, cos2;
};

double dtau_dr(double r, void* p) {
  const Fall& f = *static_cast<const Fall*>(p);
  return (r * r + f.a * f.a * f.cos2) / std::sqrt(2 * r * (r * r + f.a * f.a));
}

double dphi_dr(double r, void* p) {
  const Fall& f = *static_cast<const Fall*>(p);
  const double delta = r * r - 2 * r + f.a * f.a;
  return 2 * f.a * r / (delta * std::sqrt(2 * r * (r * r + f.a * f.a)));
}

// integral_lo^hi of the integrand; throws std::runtime_error where GSL cannot reach the
// tolerance (a bug, not bad input: the integrands are smooth outside r_+).
double integral(double (*integrand)(double, void*), Fall& fall, double lo, double hi) {
  if (lo == hi) return 0;
  constexpr std::size_t kLimit = 200;
  const std::unique_ptr<gsl_integration_workspace, void (*)(gsl_integration_workspace*)> work(
      gsl_integration_workspace_alloc(kLimit), gsl_integration_workspace_free);
  gsl_function f{integrand, &fall};
  double result = 0, error = 0;
  // GSL reports through its status (its default handler aborts), as in spacetime/carlson.cpp.
  static const bool handler_off = (gsl_set_error_handler_off(), true);
  (void)handler_off;
  const int status = gsl_integration_qag(&f, lo, hi, 0, kTolerance, kLimit, GSL_INTEG_GAUSS61,
                                         work.get(), &result, &error);
  if (status != GSL_SUCCESS && status != GSL_EROUND)
    throw std::runtime_error(std::string("kerr fall quadrature: ") + gsl_strerror(status));
  return result;
}

}  // namespace

WorldlinePoint kerr_circular_orbit(double a, double r, double phi0, int s, double tau) {
  WorldlinePoint p;
  p.r = r;
  p.theta = std::numbers::pi / 2;
  p.phi = phi0 + kerr::orbit_angular_velocity(a, r, s) * kerr::orbit_time_dilation(a, r, s) * tau;
  p.velocity = {0, 0, kerr::orbit_zamo_velocity(a, r, s)};
  return p;
}

double kerr_infall_proper_time(double a, double r0, double theta, double r) {
  const double c = std::cos(theta);
  Fall fall{a, c * c};
  return integral(dtau_dr, fall, r, r0);
}

WorldlinePoint kerr_infall(double a, double r0, double theta, double phi0, double tau) {
  const double c = std::cos(theta), s = std::sin(theta);
  Fall fall{a, c * c};
  WorldlinePoint p;
  p.theta = theta;
  if (tau <= 0) {
    p.r = r0;
  } else {
    // tau(r) decreases from tau(r_+) to 0 on [r_+, r0]: Brent's method on tau(r) - tau.
    const double r_plus = kerr::outer_horizon(a);
    struct Target {
      Fall* fall;
      double r0, tau;
    } target{&fall, r0, tau};
    gsl_function f{[](double r, void* t) {
                     auto& x = *static_cast<Target*>(t);
                     return integral(dtau_dr, *x.fall, r, x.r0) - x.tau;
                   },
                   &target};
    if (!(GSL_FN_EVAL(&f, r_plus) > 0)) {
      p.r = kNaN;  // at or past the horizon
      p.phi = kNaN;
      return p;
    }
    const std::unique_ptr<gsl_root_fsolver, void (*)(gsl_root_fsolver*)> solver(
        gsl_root_fsolver_alloc(gsl_root_fsolver_brent), gsl_root_fsolver_free);
    gsl_root_fsolver_set(solver.get(), &f, r_plus, r0);
    double lo = r_plus, hi = r0;
    for (int i = 0; i < 200; ++i) {
      gsl_root_fsolver_iterate(solver.get());
      lo = gsl_root_fsolver_x_lower(solver.get());
      hi = gsl_root_fsolver_x_upper(solver.get());
      if (gsl_root_test_interval(lo, hi, 0, kTolerance) == GSL_SUCCESS) break;
    }
    p.r = gsl_root_fsolver_root(solver.get());
  }
  p.phi = phi0 + integral(dphi_dr, fall, p.r, r0);
  p.velocity = {-kerr::infall_zamo_speed(a, p.r, c, s), 0, 0};
  return p;
}

}  // namespace starlens::animation
