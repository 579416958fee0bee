// KerrSpacetime (kerr.h) against independent references: the long-double integration of the
// Mino-time equations (kerr_reference.h) for rays of every kind (prograde, retrograde, polar,
// over the pole, eta < 0 near the axis, near the shadow's edge, observers inside the photon
// region, near and on the axis); SchwarzschildSpacetime at a = 0; the shadow's edge against
// Bardeen's critical curve in closed form for a distant observer; g against the closed forms for
// the ZAMO, (1 - omega lambda) / alpha, and the static observer, 1 / sqrt(1 - 2r / Sigma).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "core/errors.h"
#include "kerr_reference.h"
#include "spacetime/kerr.h"
#include "spacetime/kerr_radial.h"
#include "spacetime/kerr_zamo.h"
#include "spacetime/moving_observer.h"
#include "spacetime/schwarzschild.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/vector_ops.h"

using namespace starlens;

namespace {

constexpr double kPi = std::numbers::pi;

using Placement = test::KerrPlacement;

Observer kerr_observer(double a, double r, double inclination) {
  Observer o;
  o.r_obs = r;
  o.hole_direction = {1, 0, 0};
  o.spin = a;
  o.inclination = inclination;
  o.spin_sky = {0, 0, 1};
  return o;
}

// A camera direction at angle psi from the hole and position angle chi on the screen
// (chi = 0 along e_phi, the direction of Bardeen's alpha; pi/2 along -e_theta).
Vec3 screen_direction(const Placement& pl, double psi, double chi) {
  const Vec3 across =
      vec::plus(vec::scaled(std::cos(chi), pl.e_phi), vec::scaled(-std::sin(chi), pl.e_theta));
  return vec::normalized(
      vec::plus(vec::scaled(std::cos(psi), pl.h), vec::scaled(std::sin(psi), across)));
}

// The capture boundary's angle from the hole along chi, by bisection on the status.
double capture_edge(const Spacetime& spacetime, const Placement& pl, double chi) {
  double low = 0, high = kPi;  // captured at low, escaped at high
  for (int i = 0; i < 80; ++i) {
    const double mid = (low + high) / 2;
    (spacetime.trace(screen_direction(pl, mid, chi)).status == RayStatus::captured ? low : high) =
        mid;
  }
  return high;
}

struct Comparison {
  int escaped = 0;
  double worst_direction = 0, worst_g = 0;
};

// Traces d with the code and the reference (observer at reference_inclination, which differs
// from the code's only on the axis) and records the disagreement.
void compare(const KerrSpacetime& kerr, const Placement& pl, double a, double r,
             double reference_inclination, const Vec3& d, Comparison& c) {
  const TracedRay ray = kerr.trace(d);
  const auto ref = test::reference_kerr_ray(a, r, reference_inclination, vec::dot(d, pl.e_r),
                                            vec::dot(d, pl.e_theta), vec::dot(d, pl.e_phi));
  REQUIRE(ray.status != RayStatus::failed);
  CHECK_MESSAGE((ray.status == RayStatus::escaped) == ref.has_value(), "status differs");
  if (!ref || ray.status != RayStatus::escaped) return;
  Vec3 expected{};
  for (int k = 0; k < 3; ++k)
    expected[k] = static_cast<double>(ref->direction[0] * pl.x[k] + ref->direction[1] * pl.y[k] +
                                      ref->direction[2] * pl.z[k]);
  ++c.escaped;
  c.worst_direction =
      std::max(c.worst_direction, vec::angle_between(ray.source_direction, expected));
  c.worst_g = std::max(c.worst_g, std::abs(ray.g / static_cast<double>(ref->g) - 1));
}

struct Case {
  double a, r, inclination;
};

}  // namespace

TEST_CASE("kerr rays of every kind agree with the long-double Mino-time integration") {
  const Case cases[] = {
      {0.998, 30, 1.2},       // generic
      {0.998, 6, kPi / 2},    // equatorial observer: prograde / retrograde / over the pole
      {-0.7, 10, 0.4},        // negative spin
      {0.998, 2.5, 1.0},      // inside the photon region
      {0.998, 1.3, kPi / 2},  // deep in the ergosphere
      {0.9, 1000, 1.0},       // distant
      {0.998, 20, 1e-7},      // near the axis
      {0.998, 8, 0},          // on the axis (the reference just off it)
      {0.998, 8, kPi},        // on the axis, south
  };
  std::mt19937_64 random(24);
  std::normal_distribution<double> normal;
  for (const Case& k : cases) {
    CAPTURE(k.a);
    CAPTURE(k.r);
    CAPTURE(k.inclination);
    const KerrSpacetime kerr(kerr_observer(k.a, k.r, k.inclination));
    const Placement pl(k.inclination);
    const double reference_inclination = k.inclination == 0     ? 1e-15
                                         : k.inclination == kPi ? kPi - 1e-15
                                                                : k.inclination;
    Comparison c;
    for (int i = 0; i < 16; ++i)
      compare(kerr, pl, k.a, k.r, reference_inclination,
              vec::normalized({normal(random), normal(random), normal(random)}), c);
    // Polar rays: in the meridian plane (lambda = 0) over the pole, and just beside it.
    for (const double chi : {kPi / 2, -kPi / 2, kPi / 2 + 1e-9})
      for (const double psi : {0.8, 2.0})
        compare(kerr, pl, k.a, k.r, reference_inclination, screen_direction(pl, psi, chi), c);
    // Near the shadow's edge, all round: whole rays 3e-2 rad outside it; at 1e-3 and 1e-6 rad,
    // where the ray hovers near a spherical photon orbit and the second-order radial equation
    // of the integration amplifies its rounding, the radial integrals against the quadrature
    // (the polar motion given the Mino time is the same as for every other ray).
    double worst_mino = 0, worst_drag = 0;
    int hovering = 0;
    for (int j = 0; j < 8; ++j) {
      const double chi = 2 * kPi * (j + 0.5) / 8;
      const double edge = capture_edge(kerr, pl, chi);
      compare(kerr, pl, k.a, k.r, reference_inclination, screen_direction(pl, edge + 3e-2, chi), c);
      for (const double offset : {1e-6, 1e-3}) {
        const Vec3 d = screen_direction(pl, edge + offset, chi);
        const double n_r = vec::dot(d, pl.e_r), n_theta = vec::dot(d, pl.e_theta),
                     n_phi = vec::dot(d, pl.e_phi);
        const auto ray =
            test::reference_kerr_ray(k.a, k.r, reference_inclination, n_r, n_theta, n_phi);
        if (!ray) continue;
        const double lambda = static_cast<double>(ray->lambda), eta = static_cast<double>(ray->eta);
        const auto expected = test::reference_radial(k.a, lambda, eta, k.r, n_r >= 0);
        const kerr::RadialPath path = kerr::radial_path(k.a, lambda, eta, k.r, n_r >= 0);
        REQUIRE(expected.has_value());
        REQUIRE(path.escapes);
        ++hovering;
        const double root = std::sqrt((1 - k.a) * (1 + k.a));
        const double r_plus = 1 + root, r_minus = k.a * k.a / r_plus;
        const double drag = -k.a / (2 * root) *
                            ((2 * r_plus - k.a * lambda) * path.k_plus -
                             (2 * r_minus - k.a * lambda) * path.k_minus);
        worst_mino =
            std::max(worst_mino, std::abs(path.mino / static_cast<double>(expected->mino) - 1));
        worst_drag = std::max(worst_drag, std::abs(drag - static_cast<double>(expected->phi_rad)));
      }
    }
    CHECK(hovering >= 12);
    // 1e-12 and 1e-10 off the axis; next to it (lambda ~ 0, the polar photon orbit) the two
    // differ by up to 3e-10 in the Mino time.
    CHECK(worst_mino <= (k.inclination < 1e-3 ? 1e-9 : 1e-12));
    CHECK(worst_drag <= (k.inclination < 1e-3 ? 1e-8 : 1e-10));
    CHECK(c.escaped > 10);
    // For the distant observer the integration's own error reaches 5e-10 rad (its inward leg,
    // where dr/ds ~ r^2); the closed form's radial and polar parts for those rays agree with
    // 40-digit quadrature to 1e-15.
    CHECK(c.worst_direction <= (k.r > 100 ? 1e-9 : 1e-10));
    CHECK(c.worst_g <= 1e-14);
  }
}

TEST_CASE("kerr rays with eta < 0 (near the axis, nearly radial) agree with the reference") {
  const double a = 0.998, r = 5, inclination = 0.5;
  const KerrSpacetime kerr(kerr_observer(a, r, inclination));
  const Placement pl(inclination);
  Comparison c;
  int negative = 0;
  for (const double t : {-0.03, -0.01, 0.01, 0.03})
    for (const double f : {0.0, 0.01, -0.02}) {
      const Vec3 d = vec::normalized(
          vec::plus(pl.e_r, vec::plus(vec::scaled(t, pl.e_theta), vec::scaled(f, pl.e_phi))));
      const auto ref = test::reference_kerr_ray(a, r, inclination, vec::dot(d, pl.e_r),
                                                vec::dot(d, pl.e_theta), vec::dot(d, pl.e_phi));
      if (ref && ref->eta < 0) ++negative;
      compare(kerr, pl, a, r, inclination, d, c);
    }
  CHECK(negative >= 6);
  CHECK(c.escaped == 12);
  CHECK(c.worst_direction <= 1e-10);
}

TEST_CASE("kerr at a = 0 reproduces SchwarzschildSpacetime") {
  for (const double inclination : {kPi / 2, 0.3, 0.0}) {
    const Observer o = kerr_observer(0, 30, inclination);
    const KerrSpacetime kerr(o);
    const SchwarzschildSpacetime schwarzschild(o, RayAzimuth::closed_form);
    const double critical = schwarzschild::critical_angle(30);
    std::mt19937_64 random(7);
    std::normal_distribution<double> normal;
    double worst = 0;
    int compared = 0;
    for (int i = 0; i < 3000; ++i) {
      const Vec3 d = vec::normalized({normal(random), normal(random), normal(random)});
      const TracedRay k = kerr.trace(d), s = schwarzschild.trace(d);
      REQUIRE(k.status == s.status);
      // Near the critical angle both are limited by the conditioning (1 / distance).
      if (s.status != RayStatus::escaped || std::acos(d[0]) < critical + 1e-2) continue;
      ++compared;
      worst = std::max(worst, vec::angle_between(k.source_direction, s.source_direction));
      CHECK(k.g == doctest::Approx(s.g).epsilon(1e-15));
      CHECK(kerr.image_order(d) == schwarzschild.image_order(d));
    }
    CHECK(compared > 2000);
    CHECK(worst <= 1e-12);
  }
}

TEST_CASE("kerr shadow edge matches Bardeen's critical curve for a distant observer") {
  const double r = 1e4;
  // A 1080p-like map: 1920 px across 24 M / r_obs (about 2.3 shadow diameters).
  const double pixel = 24 / r / 1920;
  for (const double a : {0.998, 0.5})
    for (const double inclination : {kPi / 2, kPi / 3, 0.3}) {
      CAPTURE(a);
      CAPTURE(inclination);
      const KerrSpacetime kerr(kerr_observer(a, r, inclination));
      const Placement pl(inclination);
      const double ct = std::cos(inclination), st = std::sin(inclination);
      // Bardeen: on the spherical photon orbit of radius x,
      // lambda = -(x^3 - 3x^2 + a^2 x + a^2) / (a (x - 1)),
      // eta = x^3 (4 a^2 - x (x - 3)^2) / (a^2 (x - 1)^2); alpha = -lambda / sin,
      // beta^2 = eta + a^2 cos^2 - lambda^2 cot^2.
      auto alpha = [&](double x) {
        return (x * x * x - 3 * x * x + a * a * x + a * a) / (a * (x - 1)) / st;
      };
      auto beta2 = [&](double x) {
        const double lambda = -alpha(x) * st;
        const double eta =
            x * x * x * (4 * a * a - x * (x - 3) * (x - 3)) / (a * a * (x - 1) * (x - 1));
        return eta + a * a * ct * ct - lambda * lambda * ct * ct / (st * st);
      };
      const double pro = 2 * (1 + std::cos(2.0 / 3 * std::acos(-a)));
      const double retro = 2 * (1 + std::cos(2.0 / 3 * std::acos(a)));
      // The visible arc: where beta^2 >= 0, between its two zeros.
      auto zero = [&](double lo, double hi) {  // beta2(lo) < 0 <= beta2(hi) or reverse
        const bool rising = beta2(lo) < beta2(hi);
        for (int i = 0; i < 200; ++i) {
          const double mid = (lo + hi) / 2;
          ((beta2(mid) < 0) == rising ? lo : hi) = mid;
        }
        return (lo + hi) / 2;
      };
      double first = pro, last = retro, peak = (pro + retro) / 2, best = -1;
      for (int i = 0; i <= 2000; ++i) {
        const double x = pro + (retro - pro) * i / 2000.0;
        if (beta2(x) > best) best = beta2(x), peak = x;
      }
      if (beta2(pro) < 0) first = zero(pro, peak);
      if (beta2(retro) < 0) last = zero(peak, retro);
      double worst = 0;
      for (int j = 1; j < 12; ++j) {
        const double chi = kPi * j / 12;
        // The curve point at polar angle chi: atan2(beta, alpha) runs monotonically on the arc.
        double lo = first, hi = last;
        auto angle = [&](double x) {
          return std::atan2(std::sqrt(std::fmax(0.0, beta2(x))), alpha(x));
        };
        const bool increasing = angle(hi) > angle(lo);
        for (int i = 0; i < 200; ++i) {
          const double mid = (lo + hi) / 2;
          ((angle(mid) < chi) == increasing ? lo : hi) = mid;
        }
        const double x = (lo + hi) / 2;
        const double radius = std::hypot(alpha(x), std::sqrt(std::fmax(0.0, beta2(x)))) / r;
        for (const double sign : {1.0, -1.0}) {
          const double edge = capture_edge(kerr, pl, sign * chi);
          worst = std::max(worst, std::abs(edge - radius) / pixel);
        }
      }
      CHECK(worst <= 0.5);
    }
}

TEST_CASE("kerr g against the closed forms for the ZAMO and the static observer") {
  const double a = 0.9, r = 4, inclination = 1.1;
  const double ct = std::cos(inclination), st = std::sin(inclination);
  const double sigma = r * r + a * a * ct * ct, delta = r * r - 2 * r + a * a;
  const double big_a = (r * r + a * a) * (r * r + a * a) - a * a * delta * st * st;
  const double lapse = std::sqrt(sigma * delta / big_a), omega = 2 * a * r / big_a;
  const Observer zamo_observer = kerr_observer(a, r, inclination);
  const KerrSpacetime kerr(zamo_observer);
  const Placement pl(inclination);
  // The static observer: the ZAMO's frame boosted along e_phi.
  const double v = kerr::static_velocity(kerr::zamo_at(a, r, ct, st));
  const MovingObserverSpacetime at_rest(std::make_unique<KerrSpacetime>(zamo_observer),
                                        ObserverMotion(vec::scaled(v, pl.e_phi)));
  std::mt19937_64 random(3);
  std::normal_distribution<double> normal;
  int escaped = 0;
  for (int i = 0; i < 200; ++i) {
    const Vec3 d = vec::normalized({normal(random), normal(random), normal(random)});
    const auto ref = test::reference_kerr_ray(a, r, inclination, vec::dot(d, pl.e_r),
                                              vec::dot(d, pl.e_theta), vec::dot(d, pl.e_phi));
    const TracedRay ray = kerr.trace(d);
    if (ray.status != RayStatus::escaped || !ref) continue;
    ++escaped;
    CHECK(ray.g ==
          doctest::Approx((1 - omega * static_cast<double>(ref->lambda)) / lapse).epsilon(1e-14));
    const TracedRay seen = at_rest.trace(d);
    if (seen.status == RayStatus::escaped)
      CHECK(seen.g == doctest::Approx(1 / std::sqrt(1 - 2 * r / sigma)).epsilon(1e-14));
  }
  CHECK(escaped > 100);
  // Inside the ergosphere the static observer would move at c or faster relative to the ZAMO.
  // r_E = 2 on the equator, r_+ on the axis.
  CHECK(kerr::ergosphere_radius(a, 0) == doctest::Approx(2));
  CHECK(kerr::ergosphere_radius(a, 1) == doctest::Approx(kerr::outer_horizon(a)));
  const double inside = kerr::ergosphere_radius(a, 0) - 0.01;
  CHECK(std::abs(kerr::static_velocity(kerr::zamo_at(a, inside, 0, 1))) > 1);
}

TEST_CASE("kerr rejects bad spin, observers inside the horizon and bad inclinations") {
  auto message = [](const Observer& o) {
    try {
      KerrSpacetime kerr(o);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(kerr_observer(1, 30, 1)).find("--spin") != std::string::npos);
  CHECK(message(kerr_observer(-1.5, 30, 1)).find("--spin") != std::string::npos);
  CHECK(message(kerr_observer(NAN, 30, 1)).find("--spin") != std::string::npos);
  CHECK(message(kerr_observer(0.9, 1.4, 1)).find("--r-obs") != std::string::npos);
  CHECK(message(kerr_observer(0.9, 30, -0.1)).find("--inclination") != std::string::npos);
  CHECK(message(kerr_observer(0.9, 30, 1)).empty());
}
