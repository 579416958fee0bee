#include "spacetime/schwarzschild_point_lens.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/vector_ops.h"

namespace starlens::schwarzschild {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Steps of the start table in log(psi - psi_c): phi is nearly linear in it near the critical
// angle (phi ~ -log(psi - psi_c)), so a linear interpolation starts Newton's iteration within
// ~1e-4 of the image's psi - psi_c.
constexpr double kTableStep = 0.02;

}  // namespace

PointLens::PointLens(double r_obs, const Vec3& hole_direction)
    : r_obs_(r_obs),
      hole_(hole_direction),
      critical_(schwarzschild::critical_angle(r_obs)),
      series_(r_obs) {
  const double high = std::log(std::numbers::pi - critical_);
  const double low = std::log(closest_approach());
  const int steps = static_cast<int>(std::ceil((high - low) / kTableStep));
  for (int i = 0; i <= steps; ++i) {
    const double log_x = high - (high - low) * i / steps;
    double phi = 0, slope = 0;
    series_.azimuth_and_derivative(critical_ + std::exp(log_x), phi, slope);
    table_log_x_.push_back(log_x);
    table_phi_.push_back(phi);
    table_a_.push_back(std::sin(critical_ + std::exp(log_x)) / std::abs(slope));
  }
  // The steps no wider than the table's narrowest (at most a few entries per step), capped at
  // kBucketsPerEntry per entry.
  constexpr std::size_t kBucketsPerEntry = 4;
  double narrowest = std::numeric_limits<double>::infinity();
  bool ascending = true;
  for (std::size_t i = 1; i < table_phi_.size(); ++i) {
    ascending = ascending && table_phi_[i] > table_phi_[i - 1];
    narrowest = std::min(narrowest, table_phi_[i] - table_phi_[i - 1]);
  }
  const double span = table_phi_.back() - table_phi_.front();
  if (ascending && table_phi_.size() >= 2 && std::isfinite(span)) {
    const auto buckets = static_cast<std::size_t>(
        std::clamp(std::ceil(span / narrowest), 1.0,
                   static_cast<double>(kBucketsPerEntry * table_phi_.size())));
    bucket_scale_ = static_cast<double>(buckets) / span;
    for (std::size_t b = 0; b < buckets; ++b) {
      const double phi = table_phi_.front() + static_cast<double>(b) / bucket_scale_;
      table_bucket_.push_back(static_cast<std::uint32_t>(
          std::upper_bound(table_phi_.begin(), table_phi_.end(), phi) - table_phi_.begin()));
    }
  }
}

double PointLens::psi_of(const Vec3& camera_direction) const {
  return std::atan2(vec::norm(vec::cross(camera_direction, hole_)),
                    vec::dot(camera_direction, hole_));
}

int PointLens::order_at(double psi) const {
  return static_cast<int>(std::floor(series_.azimuth(psi) / std::numbers::pi));
}

double PointLens::magnification_at(double psi, const Vec3& source) const {
  double phi = 0, slope = 0;
  series_.azimuth_and_derivative(psi, phi, slope);
  return std::sin(psi) / (vec::norm(vec::cross(source, hole_)) * std::abs(slope));
}

PointLens::SourceAngle PointLens::source_angle(const Vec3& source) const {
  const double sin_gamma = vec::norm(vec::cross(source, hole_));
  return {std::atan2(sin_gamma, -vec::dot(source, hole_)), sin_gamma};
}

double PointLens::target_azimuth(const SourceAngle& source, int order) {
  const double gamma = source.gamma;
  return order % 2 == 0 ? order * std::numbers::pi + gamma : (order + 1) * std::numbers::pi - gamma;
}

PointLens::OrderStart PointLens::start_of_order(const SourceAngle& source, int order) const {
  const double target = target_azimuth(source, order);
  OrderStart start;
  if (!(target >= table_phi_.front() && target < table_phi_.back())) return start;
  // j: the first entry above target (std::upper_bound's; table_phi_.front() <= target <
  // table_phi_.back(), so 1 <= j < size).
  std::size_t j = 0;
  if (table_bucket_.empty()) {
    j = static_cast<std::size_t>(std::upper_bound(table_phi_.begin(), table_phi_.end(), target) -
                                 table_phi_.begin());
  } else {
    // The step's entry, moved to the one above target: down where rounding put target in the
    // next step, then up past the entries <= target.
    const auto bucket = static_cast<std::size_t>((target - table_phi_.front()) * bucket_scale_);
    j = std::max<std::size_t>(table_bucket_[std::min(bucket, table_bucket_.size() - 1)], 1);
    while (j > 1 && table_phi_[j - 1] > target) --j;
    while (table_phi_[j] <= target) ++j;
  }
  const double f = (target - table_phi_[j - 1]) / (table_phi_[j] - table_phi_[j - 1]);
  start.reachable = true;
  start.log_x = table_log_x_[j - 1] + f * (table_log_x_[j] - table_log_x_[j - 1]);
  start.a = table_a_[j - 1] + f * (table_a_[j] - table_a_[j - 1]);
  return start;
}

PointImage PointLens::image_of_order(const Vec3& source, int order) const {
  const SourceAngle angle = source_angle(source);
  const OrderStart start = start_of_order(angle, order);
  if (!start.reachable) {
    PointImage none;
    none.mu = kNaN;
    none.parity = order % 2 == 0 ? 1 : -1;
    return none;
  }
  return image(angle, order, start_psi(start));
}

PointImage PointLens::image(const SourceAngle& source, int order, double psi_guess) const {
  const double sin_gamma = source.sin_gamma;
  const double target = target_azimuth(source, order);
  // The iteration stays among escaping rays: above the critical angle (where phi -> infinity),
  // at most pi.
  const double lowest = critical_ + closest_approach();
  const auto into_range = [&](double psi, double from) {
    if (psi <= critical_) psi = critical_ + 0.5 * (from - critical_);  // halfway, still above
    return std::min(psi, std::numbers::pi);
  };
  // d ln(mu) / d psi = cot(psi) - phi''/phi' with |phi''/phi'| <~ 1/(psi - psi_c) + 1 and
  // |cot(psi)| <= 1/(psi - psi_c) + 1/(pi - psi) on (psi_c, pi): the relative change of mu per
  // radian of psi, bounded without trigonometry.
  const auto sensitivity = [&](double psi) {
    return 2 / (psi - critical_) + 1 + 1 / (std::numbers::pi - psi);
  };
  PointImage result;
  result.parity = order % 2 == 0 ? 1 : -1;
  const auto finish = [&](double psi, double slope) {
    result.psi = psi;
    // Both from one sincos: the image's direction needs cos(psi) too.
    result.sin_psi = std::sin(psi);
    result.cos_psi = std::cos(psi);
    result.mu = result.sin_psi / (sin_gamma * std::abs(slope));
    result.parity = (slope < 0) == (order % 2 == 0) ? 1 : -1;
    result.converged = true;
    return result;
  };
  double psi = std::clamp(psi_guess, lowest, std::numbers::pi);
  // First Halley's step (cubic convergence) with the piece's series of phi, phi' and phi'',
  // then phi' at the new psi from the same piece: the lens map's guess is close enough that
  // this settles nearly every image. Halley's error is ~ e^3 |phi'''/(6 phi') - (phi''/(2
  // phi'))^2| <~ e^3 / (psi - psi_c)^2 (phi goes like -log(psi - psi_c) at worst).
  const AzimuthSeries::Local local = series_.local(psi);
  if (std::isfinite(local.curvature)) {
    const double residual = local.azimuth - target;
    const double step = residual / (local.slope - residual * local.curvature / (2 * local.slope));
    const double next = into_range(psi - step, psi);
    const double x = next - critical_;
    const double error = std::abs(step * step * step) * (1 / (x * x) + 1);
    if (std::isfinite(step) && error * sensitivity(next) <= kMagnificationTolerance &&
        std::abs(step) < 0.1 * x)
      return finish(next, series_.slope_near(local.piece, next));
    psi = next;
  }
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    double phi = 0, slope = 0;
    series_.azimuth_and_derivative(psi, phi, slope);
    const double step = (phi - target) / slope;
    if (!std::isfinite(step)) break;
    const double next = into_range(psi - step, psi);
    // The relative change of mu that the step still made, evaluated with this slope; or the
    // step is down to psi's rounding (next to pi, where sin(psi) -> 0, mu then keeps a
    // relative error of ~4 ulp / (pi - psi)).
    if (std::abs(step) * sensitivity(psi) <= kMagnificationTolerance ||
        std::abs(step) <= 4 * std::numeric_limits<double>::epsilon() * psi)
      return finish(next, slope);
    psi = next;
  }
  result.psi = psi;
  result.mu = kNaN;
  return result;
}

Vec3 PointLens::toward_source(const Vec3& source) const {
  const Vec3 axis = vec::cross(hole_, source);
  return vec::normalized(vec::cross(axis, hole_));
}

Vec3 PointLens::image_direction_from(const Vec3& toward, int order, double sin_psi,
                                     double cos_psi) const {
  // e: toward the source for even orders, away from it for odd ones.
  const Vec3 e = order % 2 != 0 ? vec::scaled(-1, toward) : toward;
  return vec::normalized(vec::plus(vec::scaled(cos_psi, hole_), vec::scaled(sin_psi, e)));
}

}  // namespace starlens::schwarzschild
