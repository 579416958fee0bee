// The exact point magnification (spacetime/schwarzschild_point_lens.h) and the azimuth's
// derivative it rests on, against references that share nothing with them: sixth-order
// long-double finite differences of the independent reference quadrature (orbit_reference.h),
// and the weak-field point lens of a distant observer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "deflection_angles.h"
#include "orbit_reference.h"
#include "spacetime/azimuth_series.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/schwarzschild_point_lens.h"
#include "spacetime/vector_ops.h"

namespace sw = starlens::schwarzschild;
using starlens::Vec3;
using starlens::test::reference_escape_azimuth;

namespace {

// d phi / d psi of the reference quadrature: the sixth-order central difference
// (45 (f1 - f-1) - 9 (f2 - f-2) + (f3 - f-3)) / 60h in long double, h a fiftieth of the
// distance to the critical angle (truncation ~5 (h/x)^6 ~ 3e-10 relative where the azimuth
// goes like -log x), at most 1e-3, and a sixth-order one-sided difference next to pi.
std::optional<long double> reference_slope(double r_obs, double psi) {
  const long double x = psi - sw::critical_angle(r_obs);
  const long double h = std::min(1e-3L, x / 50);
  const auto f = [&](long double at) { return reference_escape_azimuth(r_obs, at); };
  if (psi + 3 * h <= std::numbers::pi) {
    long double sum = 0;
    const long double c[3] = {45, -9, 1};
    for (int k = 1; k <= 3; ++k) {
      const auto up = f(psi + k * h), down = f(psi - k * h);
      if (!up || !down) return std::nullopt;
      sum += c[k - 1] * (*up - *down);
    }
    return sum / (60 * h);
  }
  // Backward: (147 f0 - 360 f1 + 450 f2 - 400 f3 + 225 f4 - 72 f5 + 10 f6) / 60h.
  const long double c[7] = {147, -360, 450, -400, 225, -72, 10};
  long double sum = 0;
  for (int k = 0; k <= 6; ++k) {
    const auto v = f(psi - k * h);
    if (!v) return std::nullopt;
    sum += c[k] * *v;
  }
  return sum / (60 * h);
}

// The source direction -cos(phi) h + sin(phi) e of the ray at psi from the hole h = +x in the
// x-y plane (e = +y), from its reference azimuth phi.
Vec3 source_at(long double phi) {
  return {static_cast<double>(-std::cos(phi)), static_cast<double>(std::sin(phi)), 0};
}

}  // namespace

TEST_CASE("the azimuth's derivative matches differences of the reference quadrature") {
  for (const double r_obs : {4.0, 6.0, 10.0, 30.0, 1000.0}) {
    const sw::AzimuthSeries series(r_obs);
    const double critical = sw::critical_angle(r_obs);
    double worst_series = 0, worst_closed = 0;
    int checked = 0;
    for (const double psi : starlens::test::deflection_test_angles(r_obs)) {
      // The reference's own differences need room: 2e-5 rad above the critical angle.
      if (!(psi > critical + 2e-5) || psi > std::numbers::pi - 1e-9 || sw::is_captured(r_obs, psi))
        continue;
      const auto reference = reference_slope(r_obs, psi);
      if (!reference) continue;
      double phi = 0, slope = 0;
      series.azimuth_and_derivative(psi, phi, slope);
      const double ref = static_cast<double>(*reference);
      worst_series = std::max(worst_series, std::abs(slope - ref) / std::abs(ref));
      worst_closed = std::max(
          worst_closed, std::abs(sw::closed_form_derivative(r_obs, psi) - ref) / std::abs(ref));
      ++checked;
    }
    MESSAGE("r_obs " << r_obs << ": " << checked << " angles, worst relative error: series "
                     << worst_series << ", closed-form difference " << worst_closed
                     << "; series pieces with the difference: "
                     << series.derivative_fallback_pieces());
    CHECK(checked > 450);
    CHECK(worst_series < 3e-9);
    CHECK(worst_closed < 1e-9);
  }
}

TEST_CASE("each image's point magnification from a nearby guess is the reference's") {
  const Vec3 hole{1, 0, 0};
  for (const double r_obs : {4.0, 6.0, 10.0, 30.0, 1000.0}) {
    const sw::PointLens lens(r_obs, hole);
    const double critical = lens.critical_angle();
    double worst_mu = 0, worst_psi = 0, worst_unguessed_mu = 0, worst_unguessed_psi = 0;
    int checked = 0, by_order[4] = {0, 0, 0, 0};
    // The deflection tests' angles and a log-spaced ladder toward the shadow, where the images
    // of orders 1, 2 and 3 lie.
    std::vector<double> angles = starlens::test::deflection_test_angles(r_obs);
    for (int k = 0; k <= 60; ++k) angles.push_back(critical + 2.5e-5 * std::pow(1e3, k / 60.0));
    for (const double psi : angles) {
      if (!(psi > critical + 2e-5) || psi > std::numbers::pi - 1e-6 || sw::is_captured(r_obs, psi))
        continue;
      const auto phi = reference_escape_azimuth(r_obs, psi);
      const auto slope = reference_slope(r_obs, psi);
      if (!phi || !slope) continue;
      const long double sin_phi = std::abs(std::sin(*phi));
      if (sin_phi < 1e-6) continue;  // on a critical curve: mu is infinite there
      const double mu_reference =
          static_cast<double>(std::sin(psi) / (sin_phi * std::fabs(*slope)));
      const int order = static_cast<int>(std::floor(*phi / std::numbers::pi));
      const Vec3 source = source_at(*phi);
      // Guesses off by up to a tenth of the distance to the shadow (the lens map's images are
      // far closer), on both sides.
      for (const double offset : {-0.1, -1e-4, 1e-6, 0.1}) {
        const double guess = psi + offset * std::min(psi - critical, 0.05);
        const sw::PointImage image = lens.image(source, order, guess);
        REQUIRE(image.converged);
        worst_mu = std::max(worst_mu, std::abs(image.mu - mu_reference) / mu_reference);
        worst_psi = std::max(worst_psi, std::abs(image.psi - psi));
        CHECK(image.parity == (order % 2 == 0 ? 1 : -1));
      }
      // And without a guess (image_of_order: the run's start table, then the same iteration).
      const sw::PointImage unguessed = lens.image_of_order(source, order);
      REQUIRE(unguessed.converged);
      worst_unguessed_mu =
          std::max(worst_unguessed_mu, std::abs(unguessed.mu - mu_reference) / mu_reference);
      worst_unguessed_psi = std::max(worst_unguessed_psi, std::abs(unguessed.psi - psi));
      // The vertex form at the traced ray itself.
      worst_mu = std::max(
          worst_mu, std::abs(lens.magnification_at(psi, source) - mu_reference) / mu_reference);
      CHECK(lens.order_at(psi) == order);
      ++by_order[std::min(order, 3)];
      ++checked;
    }
    MESSAGE("r_obs " << r_obs << ": " << checked << " images (orders 0/1/2/3+: " << by_order[0]
                     << "/" << by_order[1] << "/" << by_order[2] << "/" << by_order[3]
                     << "), worst relative mu error " << worst_mu << ", worst psi error "
                     << worst_psi << " rad");
    CHECK(checked > 500);
    CHECK(by_order[1] > 10);
    CHECK(by_order[2] > 5);
    CHECK(by_order[3] > (r_obs < 100 ? 5 : -1));  // r_obs 1000: order 3 lies within 2.5e-5 rad
    CHECK(worst_mu < 3e-9);
    CHECK(worst_psi < 1e-11);
    MESSAGE("r_obs " << r_obs << ": without a guess, worst relative mu " << worst_unguessed_mu
                     << ", worst psi " << worst_unguessed_psi << " rad");
    CHECK(worst_unguessed_mu < 3e-9);
    CHECK(worst_unguessed_psi < 1e-11);
  }
}

TEST_CASE("without a guess, the photon ring's images down to the highest orders") {
  const Vec3 hole{1, 0, 0};
  for (const double r_obs : {4.0, 6.0, 30.0, 1000.0}) {
    const sw::PointLens lens(r_obs, hole);
    const double critical = lens.critical_angle();
    // Closer than the reference reaches, the strong-deflection limit (phi ~ -log(psi - psi_c)
    // + c, with corrections of order x = (psi - psi_c) / psi_c): the same side's images of
    // orders n and n + 2 approach the critical angle by e^(-2 pi) and their mu by the same
    // factor, up to the closed form's rounding next to the critical angle, which grows like
    // 1 / (psi - psi_c) (2e-16 / (psi - psi_c) in psi - psi_c, 2e-14 / (psi - psi_c) in mu).
    const double e2pi = std::exp(-2 * std::numbers::pi);
    double worst_start_a = 0;
    for (const double gamma : {0.3, 1.2, 2.9}) {
      const Vec3 source{-std::cos(gamma), std::sin(gamma), 0};
      int highest = -1;
      for (int order = 0; order < 40; ++order) {
        const sw::PointImage image = lens.image_of_order(source, order);
        if (!image.converged) break;
        highest = order;
        // The start's A (the quick visibility estimate) against the exact image's.
        const double a_exact = image.mu * std::sin(gamma);
        worst_start_a =
            std::max(worst_start_a, std::abs(lens.start_of_order(source, order).a / a_exact - 1));
        CHECK(image.parity == (order % 2 == 0 ? 1 : -1));
        const double x = (image.psi - critical) / critical;
        const sw::PointImage inner = lens.image_of_order(source, order + 2);
        if (x > 1e-3 || !inner.converged) continue;
        const double rounding = 1 / (inner.psi - critical);
        CHECK(std::abs((inner.psi - critical) / (image.psi - critical) / e2pi - 1) <
              30 * x + 2e-6 + 2e-16 * rounding);
        CHECK(std::abs(inner.mu / image.mu / e2pi - 1) < 60 * x + 2e-4 + 2e-14 * rounding);
      }
      MESSAGE("r_obs " << r_obs << ", gamma " << gamma << ": images up to order " << highest);
      CHECK(highest >= 6);
    }
    MESSAGE("r_obs " << r_obs << ": the starts' A within " << worst_start_a << " of the images'");
    CHECK(worst_start_a < 1e-2);  // PhotonRing::kEstimateMargin is 1.05
  }
}

TEST_CASE("the quick estimate of A holds over order 1's whole range") {
  // Order 1's images (the producer's first order from the point lens) run from the critical
  // curve phi = 2 pi (a star opposite the hole) out to the Einstein ring (a star behind it),
  // far from the strong-deflection limit: the start table's psi and A against the exact image
  // (tested against the reference above), for stars at gamma from 1e-7 to pi - 1e-7.
  const Vec3 hole{1, 0, 0};
  for (const double r_obs : {3.5, 6.0, 30.0, 1000.0}) {
    const sw::PointLens lens(r_obs, hole);
    double worst_a = 0, worst_x = 0, widest = 0;
    int checked = 0;
    for (int k = 0; k <= 2000; ++k) {
      // log-spaced toward both ends of (0, pi)
      const double t = k / 2000.0;
      const double gamma =
          t < 0.5 ? std::pow(10.0, -7 + 14 * t) * std::numbers::pi / 2
                  : std::numbers::pi - std::pow(10.0, -7 + 14 * (1 - t)) * std::numbers::pi / 2;
      if (!(gamma > 0 && gamma < std::numbers::pi)) continue;
      const Vec3 source{-std::cos(gamma), std::sin(gamma), 0};
      const sw::PointLens::OrderStart start = lens.start_of_order(source, 1);
      REQUIRE(start.reachable);
      const sw::PointImage image = lens.image_of_order(source, 1);
      REQUIRE(image.converged);
      const double a_exact = image.mu * std::sin(gamma);
      worst_a = std::max(worst_a, std::abs(start.a / a_exact - 1));
      const double x = image.psi - lens.critical_angle();
      worst_x =
          std::max(worst_x, std::abs((lens.start_psi(start) - lens.critical_angle()) / x - 1));
      widest = std::max(widest, x);
      ++checked;
    }
    MESSAGE("r_obs " << r_obs << ": " << checked << " order-1 images out to psi - psi_c " << widest
                     << ": the starts' A within " << worst_a
                     << " of the images', psi - psi_c within " << worst_x);
    CHECK(checked > 1900);
    CHECK(worst_a < 1e-2);  // PhotonRing::kEstimateMargin is 1.05
    CHECK(worst_x < 1e-2);
  }
}

TEST_CASE("a distant observer sees the weak-field point lens") {
  // theta_E = sqrt(4 M / r_obs) for a source at infinity; a source at beta = u theta_E from
  // the hole has two images with |mu| = (u^2 + 2) / (2 u sqrt(u^2 + 4)) +- 1/2, the primary
  // (order 0) at theta+ = (beta + sqrt(beta^2 + 4 theta_E^2)) / 2 and the secondary (order 1,
  // mirrored) at |theta-|; their sum is (u^2 + 2) / (u sqrt(u^2 + 4)). The corrections are of
  // order theta_E (strong-field terms) and 1/r_obs.
  for (const double r_obs : {1e8, 1e10}) {
    const Vec3 hole{0, 0, 1};
    const sw::PointLens lens(r_obs, hole);
    const double theta_e = std::sqrt(4 / r_obs);
    double worst = 0;
    for (const double u : {0.05, 0.3, 1.0, 2.0, 5.0}) {
      const double beta = u * theta_e;
      const Vec3 source{std::sin(beta), 0, std::cos(beta)};
      const double root = std::sqrt(beta * beta + 4 * theta_e * theta_e);
      const sw::PointImage primary = lens.image(source, 0, (beta + root) / 2);
      const sw::PointImage secondary = lens.image(source, 1, (root - beta) / 2);
      REQUIRE(primary.converged);
      REQUIRE(secondary.converged);
      CHECK(primary.parity == 1);
      CHECK(secondary.parity == -1);
      const double total = (u * u + 2) / (u * std::sqrt(u * u + 4));
      const double errors[3] = {std::abs(primary.mu / (total / 2 + 0.5) - 1),
                                std::abs(secondary.mu / (total / 2 - 0.5) - 1),
                                std::abs((primary.mu + secondary.mu) / total - 1)};
      for (const double e : errors) worst = std::max(worst, e);
      CHECK(std::abs(primary.psi / ((beta + root) / 2) - 1) < 10 * theta_e);
    }
    MESSAGE("r_obs " << r_obs << " (theta_E " << theta_e << "): worst relative difference "
                     << worst);
    CHECK(worst < 4 * theta_e);
  }
}
