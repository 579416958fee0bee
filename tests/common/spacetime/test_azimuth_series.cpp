// The azimuth series (azimuth_series.h) against the independent long-double quadrature
// (docs/design.md section 10's 1e-10 rad) and against the closed form it was fitted to (1e-13
// relative, plus the closed form's own rounding near the critical angle), and the spacetime's rays
// with the series against its rays with the closed form.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "core/errors.h"
#include "deflection_angles.h"
#include "orbit_reference.h"
#include "spacetime/azimuth_series.h"
#include "spacetime/schwarzschild.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/spacetime.h"

namespace sw = starlens::schwarzschild;
using starlens::Vec3;

namespace {

// |d azimuth / d psi| of the closed form, by a central difference well inside the smooth part.
double closed_form_slope(double r_obs, double psi) {
  const double step = std::min(1e-6, (psi - sw::critical_angle(r_obs)) / 8);
  const double high = std::min(psi + step, std::numbers::pi), low = psi - step;
  return std::abs(sw::escape_azimuth(r_obs, high) - sw::escape_azimuth(r_obs, low)) / (high - low);
}

}  // namespace

TEST_CASE("the azimuth series matches long-double quadrature to 1e-10 rad") {
  for (double r_obs : {4.0, 6.0, 10.0, 30.0, 1000.0}) {
    const sw::AzimuthSeries series(r_obs);
    double worst = 0;
    int escaped = 0;
    for (double psi : starlens::test::deflection_test_angles(r_obs)) {
      const auto reference = starlens::test::reference_escape_azimuth(r_obs, psi);
      if (!reference) continue;
      ++escaped;
      INFO("r_obs = " << r_obs << ", psi = " << psi);
      const double error = std::abs(series.azimuth(psi) - double(*reference));
      CHECK(error <= 1e-10);
      worst = std::max(worst, error);
    }
    MESSAGE("r_obs " << r_obs << ": " << series.piece_count() << " pieces, " << escaped
                     << " escaping angles, max |error| " << worst << " rad");
    CHECK(escaped > 400);
    CHECK(worst <= 2e-12);  // the series spends at most 2% of the budget (the closed form ~0.03%)
  }
}

TEST_CASE("the azimuth series agrees with the closed form it was fitted to") {
  std::mt19937_64 random(7);
  for (double r_obs : {3.0000001, 3.001, 3.5, 4.0, 6.0, 10.0, 30.0, 1000.0, 1e6}) {
    const sw::AzimuthSeries series(r_obs);
    INFO("r_obs = " << r_obs);
    CHECK(series.piece_count() <= 1024);  // bounded fitting, also near r_obs = 3
    CHECK(series.worst_check_error() <= 1);
    const double critical = sw::critical_angle(r_obs);
    // Offsets from the critical angle spread evenly in their logarithm (1e-9 to pi), then
    // angles spread evenly over the escaping range.
    std::uniform_real_distribution<double> log_offset(std::log(1e-9),
                                                      std::log(std::numbers::pi - critical));
    std::uniform_real_distribution<double> angle(critical, std::numbers::pi);
    double worst = 0;
    for (int i = 0; i < 40000; ++i) {
      const double psi = i % 2
                             ? angle(random)
                             : std::min(std::numbers::pi, critical + std::exp(log_offset(random)));
      if (sw::is_captured(r_obs, psi)) continue;
      const double exact = sw::escape_azimuth(r_obs, psi);
      // Near the critical angle the closed form itself is good to a few long-double ulp of
      // psi times the slope (it forms b^2 - 27 from a long-double sine).
      const double allowed =
          2 * sw::AzimuthSeries::kRelativeTolerance * std::max(1.0, std::abs(exact)) +
          16 * std::numeric_limits<long double>::epsilon() * psi * closed_form_slope(r_obs, psi);
      const double error = std::abs(series.azimuth(psi) - exact);
      INFO("psi = " << psi << ", psi - critical = " << psi - critical);
      CHECK(error <= allowed);
      worst = std::max(worst, error / allowed);
    }
    MESSAGE("r_obs " << r_obs << ": " << series.piece_count() << " pieces, closed form over "
                     << series.closed_form_width() << " rad, worst error " << worst
                     << " of the allowance");
  }
}

TEST_CASE("rays with the azimuth series and with the closed form agree") {
  std::mt19937_64 random(8);
  std::normal_distribution<double> normal;
  for (double r_obs : {4.0, 30.0, 1000.0}) {
    const Vec3 hole = starlens::normalized({0.3, -0.2, 0.9});
    const starlens::SchwarzschildSpacetime with_series({r_obs, hole}, starlens::RayAzimuth::series);
    const starlens::SchwarzschildSpacetime with_closed_form({r_obs, hole},
                                                            starlens::RayAzimuth::closed_form);
    REQUIRE(with_series.azimuth_series() != nullptr);
    REQUIRE(with_closed_form.azimuth_series() == nullptr);
    const double critical = sw::critical_angle(r_obs);
    double worst = 0;
    for (int i = 0; i < 20000; ++i) {
      const Vec3 d = starlens::normalized({normal(random), normal(random), normal(random)});
      const auto a = with_series.trace(d), b = with_closed_form.trace(d);
      REQUIRE(a.status == b.status);
      const double psi = std::acos(std::clamp(starlens::dot(d, hole), -1.0, 1.0));
      if (a.status != starlens::RayStatus::escaped || psi < critical + 1e-6) continue;
      // The two paths round psi differently (atan2 against sine and cosine): near the critical
      // angle that alone moves the azimuth by a few ulp of psi times its slope.
      const double allowed =
          1e-12 + 16 * (std::nextafter(psi, 4.0) - psi) * closed_form_slope(r_obs, psi);
      const double angle = starlens::norm(starlens::cross(a.source_direction, b.source_direction));
      CHECK(angle <= allowed);
      worst = std::max(worst, angle / allowed);
    }
    MESSAGE("r_obs " << r_obs << ": series and closed-form rays within " << worst
                     << " of the allowance");
  }
}

TEST_CASE("--ray-azimuth names") {
  CHECK(starlens::parse_ray_azimuth("series") == starlens::RayAzimuth::series);
  CHECK(starlens::parse_ray_azimuth("closed-form") == starlens::RayAzimuth::closed_form);
  CHECK(std::string(starlens::ray_azimuth_name(starlens::RayAzimuth::closed_form)) ==
        "closed-form");
  CHECK_THROWS_AS(starlens::parse_ray_azimuth("table"), starlens::InputError);
}
