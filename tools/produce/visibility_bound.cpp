#include "visibility_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "colour/blackbody_tristimulus.h"
#include "colour/flux_unit.h"
#include "colour/planck.h"
#include "optics/event_class.h"

namespace starlens::produce {
namespace {

constexpr double kNodesPerLogUnit = 128;
constexpr double kFirstTemperatureK = 500;
constexpr double kLastTemperatureK = 1e6;

// ln B_nu(nu; T) in Jy/sr, without overflow in the Wien tail.
double log_planck(double frequency_hz, double temperature_k) {
  const double x = kPlanckConstant * frequency_hz / (kBoltzmannConstant * temperature_k);
  const double log_prefactor =
      std::log(kJanskyPerSi * 2.0 * kPlanckConstant * frequency_hz * frequency_hz * frequency_hz /
               (kSpeedOfLight * kSpeedOfLight));
  const double log_expm1 = x > 20 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
  return log_prefactor - log_expm1;
}

}  // namespace

bool VisibilityBound::Table::covers(double log_t) const {
  const double position = (log_t - first) * kNodesPerLogUnit;
  return position >= 0 && position < static_cast<double>(value.size() - 1);
}

double VisibilityBound::Table::at(double log_t) const {
  const double position = (log_t - first) * kNodesPerLogUnit;
  const auto i = static_cast<std::size_t>(position);
  const double t = position - static_cast<double>(i);
  return (1 - t) * value[i] + t * value[i + 1];
}

VisibilityBound::VisibilityBound(double band_wavelength_um, const PsfModel& psf) {
  const double frequency = kSpeedOfLight / (band_wavelength_um * 1e-6);
  const double first = std::log(kFirstTemperatureK);
  const auto nodes = static_cast<std::size_t>(
                         std::ceil((std::log(kLastTemperatureK) - first) * kNodesPerLogUnit)) +
                     1;
  log_luminance_.first = log_planck_.first = first;
  log_luminance_.value.resize(nodes);
  log_planck_.value.resize(nodes);
  const auto temperature = [&](double node) { return std::exp(first + node / kNodesPerLogUnit); };
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < nodes; ++i) {
    log_luminance_.value[i] = blackbody_tristimulus(temperature(static_cast<double>(i))).log_y;
    log_planck_.value[i] = log_planck(frequency, temperature(static_cast<double>(i)));
  }
  // The interpolation's largest error, measured inside every interval.
  double worst_luminance = 0, worst_planck = 0;
#pragma omp parallel for schedule(static) reduction(max : worst_luminance, worst_planck)
  for (std::size_t i = 0; i < nodes - 1; ++i) {
    for (const double t : {0.25, 0.5, 0.75}) {
      const double node = static_cast<double>(i) + t;
      const double log_t = first + node / kNodesPerLogUnit;
      const double exact_luminance = blackbody_tristimulus(temperature(node)).log_y;
      worst_luminance =
          std::max(worst_luminance, std::abs(log_luminance_.at(log_t) - exact_luminance));
      worst_planck = std::max(
          worst_planck, std::abs(log_planck_.at(log_t) - log_planck(frequency, temperature(node))));
    }
  }
  // Twice the measured errors, and 1e-6 for the colour table the exact path uses.
  margin_ = 2 * (worst_luminance + worst_planck) + 1e-6;
  // Visible iff flux * p_pix,max >= min_y, flux = (K mu / K_V) exp(ln Y - ln Y_V).
  log_threshold_ = std::log(psf.min_y / peak_pixel_fraction(psf)) +
                   std::log(vega_spectrum_scale_k()) + vega_log_luminance_integral();
}

bool VisibilityBound::may_be_visible(double teff_k, double flux_jy, double log_max_mu,
                                     double log_max_g) const {
  if (!(flux_jy > 0)) return false;  // zero flux: never visible
  const double log_t = std::log(teff_k);
  const double log_observed = log_t + log_max_g;
  if (!log_planck_.covers(log_t) || !log_luminance_.covers(log_observed))
    return true;  // the exact path decides
  const double log_flux =
      std::log(flux_jy) - log_planck_.at(log_t) + log_max_mu + log_luminance_.at(log_observed);
  return log_flux + margin_ >= log_threshold_;
}

double VisibilityBound::log_flux_floor(double log_t_low, double log_t_high,
                                       double log_max_g) const {
  if (!log_planck_.covers(log_t_low) || !log_luminance_.covers(log_t_high + log_max_g))
    return -std::numeric_limits<double>::infinity();
  // Y and B_nu grow with T, so within the bin the brightest case has the largest ln Y and the
  // smallest ln B_nu; the margin covers the tables' errors at those two points as it does at
  // any other.
  return log_threshold_ - margin_ + log_planck_.at(log_t_low) -
         log_luminance_.at(log_t_high + log_max_g);
}

}  // namespace starlens::produce
