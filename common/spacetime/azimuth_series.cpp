#include "spacetime/azimuth_series.h"

#include <gsl/gsl_chebyshev.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "spacetime/schwarzschild_orbit.h"

namespace starlens::schwarzschild {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// The closed form's effective input rounding near the critical angle, relative to psi: 8
// long-double epsilons.
constexpr double kLongDoubleRounding = 8 * std::numeric_limits<long double>::epsilon();
// Bisections of one piece before it is left to the closed form, and fits in all: the fit
// stays cheap (~1 ms) whatever the closed form does (near r_obs = 3 it is noisier).
constexpr int kMaxDepth = 40;
constexpr int kMaxFits = 1024;
// A piece's derivative series is used where it agrees with closed_form_derivative to this,
// relative, at every check point: 10x the difference quotient's own truncation error near the
// critical angle (~3e-10 with a step of 2% of the distance to it).
constexpr double kDerivativeTolerance = 1e-7;

double closed_form(double psi, void* r_obs) {
  return escape_azimuth(*static_cast<const double*>(r_obs), psi);
}

using Series = std::unique_ptr<gsl_cheb_series, AzimuthSeries::FreeSeries>;

// gsl_cheb_eval's Clenshaw recurrence, the same operations in the same order (so the same
// value), inline for the per-image evaluations.
inline double clenshaw(const gsl_cheb_series& series, double x) {
  const double y = (2 * x - series.a - series.b) / (series.b - series.a), y2 = 2 * y;
  double d1 = 0, d2 = 0;
  for (std::size_t i = series.order; i >= 1; --i) {
    const double previous = d1;
    d1 = y2 * d1 - d2 + series.c[i];
    d2 = previous;
  }
  return y * d1 - d2 + 0.5 * series.c[0];
}

}  // namespace

void AzimuthSeries::FreeSeries::operator()(gsl_cheb_series* series) const {
  gsl_cheb_free(series);
}

AzimuthSeries::AzimuthSeries(double r_obs) : r_obs_(r_obs), critical_(critical_angle(r_obs)) {
  fit(critical_ + kClosedFormBand, std::numbers::pi, 0, kInfinity);
}

// Fits [low, high] and checks it; returns after adding it, or its halves, to the pieces.
// `parent_error` is the enclosing piece's check error (in units of the tolerance).
void AzimuthSeries::fit(double low, double high, int depth, double parent_error) {
  ++fits_;
  Series series(gsl_cheb_alloc(kOrder));
  gsl_function function{&closed_form, &r_obs_};
  gsl_cheb_init(series.get(), &function, low, high);
  // Between the nodes (cos(pi (k + 1/2) / (n + 1))) and at both ends, the error in units of
  // the tolerance: kRelativeTolerance of the value plus the closed form's own rounding near
  // the critical angle, where it forms b^2 - 27 from a long-double sine: as if psi were off by
  // a few long-double ulp of psi, times the slope (the azimuth goes like -log(psi - psi_c)). The
  // slope is the steepest secant between neighbouring check points, from the closed form
  // (the series' own derivative runs wild where the fit is poor, which would excuse it).
  std::array<double, kOrder + 2> at{}, exact{};
  const double middle = (low + high) / 2, half = (high - low) / 2;
  for (std::size_t k = 0; k < at.size(); ++k) {
    at[k] = std::clamp(
        middle + half * std::cos(std::numbers::pi * static_cast<double>(k) / (kOrder + 1)), low,
        high);
    exact[k] = escape_azimuth(r_obs_, at[k]);
  }
  double slope = 0;
  for (std::size_t k = 1; k < at.size(); ++k)
    slope = std::max(slope, std::abs(exact[k] - exact[k - 1]) / (at[k - 1] - at[k]));
  double error = 0;
  for (std::size_t k = 0; k < at.size(); ++k) {
    const double tolerance = kRelativeTolerance * std::max(1.0, std::abs(exact[k])) +
                             kLongDoubleRounding * at[k] * slope;
    const double scaled = std::abs(gsl_cheb_eval(series.get(), at[k]) - exact[k]) / tolerance;
    error = std::isfinite(scaled) ? std::max(error, scaled) : kInfinity;
  }
  // A piece that fails although its parent nearly passed, and halving did not bring its
  // error down fourfold (a smooth function's falls by ~2^order), is failing on the closed
  // form's own rounding: it keeps the closed form.
  const bool stalled = parent_error < 1e4 && error > parent_error / 4;
  if (error > 1 && depth < kMaxDepth && fits_ < kMaxFits && !stalled) {
    // Pieces far from the critical angle compared with their width are halved; nearer ones
    // are split at the geometric mean of their distances from it (the logarithm's scale).
    const double near = low - critical_, far = high - critical_;
    const double split = far > 4 * near ? critical_ + std::sqrt(near * far) : middle;
    fit(low, split, depth + 1, error);
    fit(split, high, depth + 1, error);
    return;
  }
  Series derivative, curvature;
  if (error <= 1) {
    worst_check_error_ = std::max(worst_check_error_, error);
    derivative.reset(gsl_cheb_alloc(kOrder));
    gsl_cheb_calc_deriv(derivative.get(), series.get());
    double derivative_error = 0;
    for (const double psi : at) {
      const double reference = closed_form_derivative(r_obs_, psi);
      const double relative =
          std::abs(gsl_cheb_eval(derivative.get(), psi) - reference) / std::abs(reference);
      derivative_error = std::isfinite(relative) ? std::max(derivative_error, relative) : kInfinity;
    }
    if (derivative_error <= kDerivativeTolerance) {
      worst_derivative_error_ = std::max(worst_derivative_error_, derivative_error);
      curvature.reset(gsl_cheb_alloc(kOrder));
      gsl_cheb_calc_deriv(curvature.get(), derivative.get());
    } else {
      derivative.reset();
      ++derivative_fallbacks_;
    }
  } else {
    series.reset();
    closed_form_width_ += high - low;
    ++derivative_fallbacks_;
  }
  piece_low_.push_back(low);
  pieces_.push_back(std::move(series));
  derivatives_.push_back(std::move(derivative));
  curvatures_.push_back(std::move(curvature));
}

double AzimuthSeries::azimuth(double psi) const {
  if (psi >= piece_low_.front()) {
    const auto next = std::upper_bound(piece_low_.begin(), piece_low_.end(), psi);
    const auto& series = pieces_[static_cast<std::size_t>(next - piece_low_.begin()) - 1];
    if (series) return gsl_cheb_eval(series.get(), psi);
  }
  return escape_azimuth(r_obs_, psi);
}

void AzimuthSeries::azimuth_and_derivative(double psi, double& azimuth, double& derivative) const {
  if (psi >= piece_low_.front()) {
    const auto next = std::upper_bound(piece_low_.begin(), piece_low_.end(), psi);
    const auto piece = static_cast<std::size_t>(next - piece_low_.begin()) - 1;
    const auto& series = pieces_[piece];
    azimuth = series ? gsl_cheb_eval(series.get(), psi) : escape_azimuth(r_obs_, psi);
    const auto& slope = derivatives_[piece];
    derivative = slope ? gsl_cheb_eval(slope.get(), psi) : closed_form_derivative(r_obs_, psi);
    return;
  }
  azimuth = escape_azimuth(r_obs_, psi);
  derivative = closed_form_derivative(r_obs_, psi);
}

AzimuthSeries::Local AzimuthSeries::local(double psi) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (psi < piece_low_.front())
    return {escape_azimuth(r_obs_, psi), closed_form_derivative(r_obs_, psi), kNaN, 0};
  const auto next = std::upper_bound(piece_low_.begin(), piece_low_.end(), psi);
  const auto piece = static_cast<std::size_t>(next - piece_low_.begin()) - 1;
  const auto& series = pieces_[piece];
  const auto& slope = derivatives_[piece];
  const auto& curvature = curvatures_[piece];
  if (series && slope && curvature) {
    // The three series of one piece share their interval: gsl_cheb_eval's Clenshaw
    // recurrence for all three in one loop.
    const gsl_cheb_series& f = *series;
    const double y = (2 * psi - f.a - f.b) / (f.b - f.a), y2 = 2 * y;
    const double *c0 = f.c, *c1 = slope->c, *c2 = curvature->c;
    double d[3] = {0, 0, 0}, e[3] = {0, 0, 0};
    for (std::size_t i = f.order; i >= 1; --i) {
      const double coefficient[3] = {c0[i], c1[i], c2[i]};
      for (int k = 0; k < 3; ++k) {
        const double previous = d[k];
        d[k] = y2 * d[k] - e[k] + coefficient[k];
        e[k] = previous;
      }
    }
    return {y * d[0] - e[0] + 0.5 * c0[0], y * d[1] - e[1] + 0.5 * c1[0],
            y * d[2] - e[2] + 0.5 * c2[0], piece};
  }
  return {series ? gsl_cheb_eval(series.get(), psi) : escape_azimuth(r_obs_, psi),
          slope ? gsl_cheb_eval(slope.get(), psi) : closed_form_derivative(r_obs_, psi),
          curvature ? gsl_cheb_eval(curvature.get(), psi) : kNaN, piece};
}

double AzimuthSeries::slope_near(std::size_t piece, double psi) const {
  const auto& slope = derivatives_[piece];
  return slope ? clenshaw(*slope, psi) : closed_form_derivative(r_obs_, psi);
}

double closed_form_derivative(double r_obs, double psi) {
  const double critical = critical_angle(r_obs);
  const auto at = [&](double x) { return escape_azimuth(r_obs, x); };
  const double step = std::min(1e-3, (psi - critical) / 50);
  if (psi + 3 * step <= std::numbers::pi)
    return (45 * (at(psi + step) - at(psi - step)) - 9 * (at(psi + 2 * step) - at(psi - 2 * step)) +
            (at(psi + 3 * step) - at(psi - 3 * step))) /
           (60 * step);
  // Next to pi (where the azimuth, even in pi - psi, is not analytic across pi): the
  // sixth-order backward difference.
  constexpr double kBackward[7] = {147, -360, 450, -400, 225, -72, 10};
  double sum = 0;
  for (int k = 0; k < 7; ++k) sum += kBackward[k] * at(psi - k * step);
  return sum / (60 * step);
}

}  // namespace starlens::schwarzschild
