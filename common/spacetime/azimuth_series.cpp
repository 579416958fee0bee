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

double closed_form(double psi, void* r_obs) {
  return escape_azimuth(*static_cast<const double*>(r_obs), psi);
}

using Series = std::unique_ptr<gsl_cheb_series, AzimuthSeries::FreeSeries>;

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
  if (error <= 1) {
    worst_check_error_ = std::max(worst_check_error_, error);
  } else {
    series.reset();
    closed_form_width_ += high - low;
  }
  piece_low_.push_back(low);
  pieces_.push_back(std::move(series));
}

double AzimuthSeries::azimuth(double psi) const {
  if (psi >= piece_low_.front()) {
    const auto next = std::upper_bound(piece_low_.begin(), piece_low_.end(), psi);
    const auto& series = pieces_[static_cast<std::size_t>(next - piece_low_.begin()) - 1];
    if (series) return gsl_cheb_eval(series.get(), psi);
  }
  return escape_azimuth(r_obs_, psi);
}

}  // namespace starlens::schwarzschild
