// Kerr camera worldlines (animation/kerr_worldlines.h) against references written here from the
// equatorial metric components and the geodesic equations: the circular orbit's Omega from the
// radial geodesic condition d_r g_tt + 2 Omega d_r g_tphi + Omega^2 d_r g_phiphi = 0 and u^t
// from u . u = -1; the E = 1, L = 0, Q = 0 fall from u_t = -1, u_phi = 0 raised by the inverse
// of the (t, phi) block of the metric at each point, u^r from u . u = -1, integrated in proper
// time by a fixed-step long-double RK4 (a second method: the code uses quadrature in r and root
// finding); at a = 0 the Schwarzschild closed forms (animation/worldlines.h); Kerr path files.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "animation/kerr_worldlines.h"
#include "animation/path_file.h"
#include "animation/worldlines.h"
#include "core/errors.h"

using namespace starlens;
using namespace starlens::animation;

namespace {

constexpr double kPi = std::numbers::pi;

// Boyer-Lindquist metric components at (r, theta), M = 1.
struct Metric {
  long double tt, tphi, phiphi, rr;
  Metric(long double a, long double r, long double theta) {
    const long double c = std::cos(theta), s = std::sin(theta);
    const long double sigma = r * r + a * a * c * c, delta = r * r - 2 * r + a * a;
    tt = -(1 - 2 * r / sigma);
    tphi = -2 * a * r * s * s / sigma;
    phiphi = ((r * r + a * a) * (r * r + a * a) - a * a * delta * s * s) * s * s / sigma;
    rr = sigma / delta;
  }
};

// dr/dtau and dphi/dtau of the fall (inward).
struct Rates {
  long double r, phi;
};
Rates fall_rates(long double a, long double r, long double theta) {
  const Metric g(a, r, theta);
  const long double det = g.tt * g.phiphi - g.tphi * g.tphi;
  const long double up_tt = g.phiphi / det, up_tphi = -g.tphi / det;
  // u_t = -1, u_phi = 0: u^t = -g^tt, u^phi = -g^tphi; g_rr (u^r)^2 = -1 - g^tt u_t^2.
  const long double ur2 = (-1 - up_tt) / g.rr;
  return {-std::sqrt(ur2), -up_tphi};
}

}  // namespace

TEST_CASE("kerr circular orbit: Omega from the radial geodesic condition, u^t from u . u") {
  for (const double a : {0.9, -0.5, 0.0})
    for (const int s : {1, -1})
      for (const double r : {2.0, 5.0, 12.0}) {
        CAPTURE(a);
        CAPTURE(s);
        CAPTURE(r);
        const WorldlinePoint p0 = kerr_circular_orbit(a, r, 0.3, s, 0);
        const WorldlinePoint p = kerr_circular_orbit(a, r, 0.3, s, 50);
        const bool exists = r > 2 * (1 + std::cos(2.0 / 3 * std::acos(-s * a)));
        if (!exists) {
          CHECK(std::isnan(p.phi));
          continue;
        }
        // (2r - 2a^2/r^2) W^2 + (4a/r^2) W - 2/r^2 = 0: the root along s.
        const long double qa = 2 * r - 2 * a * a / (r * r), qb = 4 * a / (r * r), qc = -2 / (r * r);
        const long double disc = std::sqrt(qb * qb - 4 * qa * qc);
        const long double big_omega = s > 0 ? (-qb + disc) / (2 * qa) : (-qb - disc) / (2 * qa);
        const Metric g(a, r, kPi / 2);
        const long double norm =
            -(g.tt + 2 * g.tphi * big_omega + g.phiphi * big_omega * big_omega);
        REQUIRE(norm > 0);
        const long double u_t = 1 / std::sqrt(norm);
        CHECK(p0.phi == doctest::Approx(0.3).epsilon(1e-15));
        CHECK(p.phi - 0.3 ==
              doctest::Approx(static_cast<double>(big_omega * u_t * 50)).epsilon(1e-13));
        CHECK(p.r == r);
        CHECK(p.theta == kPi / 2);
        // The ZAMO measures gamma = alpha u^t, with alpha^2 = -(g_tt - g_tphi^2 / g_phiphi).
        const long double alpha = std::sqrt(-(g.tt - g.tphi * g.tphi / g.phiphi));
        const long double gamma = alpha * u_t;
        const double speed = static_cast<double>(std::sqrt(1 - 1 / (gamma * gamma)));
        CHECK(std::abs(p.velocity[2]) == doctest::Approx(speed).epsilon(1e-12));
        CHECK(p.velocity[0] == 0);
        CHECK(p.velocity[1] == 0);
        if (a == 0) {
          const WorldlinePoint w = circular_orbit(r, 0.3, s, 50);
          CHECK(p.phi == doctest::Approx(w.phi).epsilon(1e-14));
          CHECK(p.velocity[2] == doctest::Approx(w.velocity[2]).epsilon(1e-14));
        }
      }
}

TEST_CASE("kerr fall from infinity: r(tau), phi(tau) against an RK4 of the geodesic") {
  struct Fall {
    double a, r0, theta;
  };
  for (const Fall f :
       {Fall{0.9, 20, kPi / 2}, Fall{0.9, 12, 0.6}, Fall{-0.7, 8, 2.0}, Fall{0.998, 6, kPi / 2}}) {
    CAPTURE(f.a);
    CAPTURE(f.r0);
    const double r_plus = 1 + std::sqrt(1 - f.a * f.a);
    const double t_horizon = kerr_infall_proper_time(f.a, f.r0, f.theta, r_plus);
    long double r = f.r0, phi = 0.2, tau = 0;
    const long double h = 1e-4L;
    double worst_r = 0, worst_phi = 0;
    int samples = 0;
    // Up to 98% of the proper time to the horizon (the frame-dragging azimuth diverges there).
    const int steps = static_cast<int>(0.98 * t_horizon / h);
    for (int i = 1; i <= steps; ++i) {
      auto rates = [&](long double rr) { return fall_rates(f.a, rr, f.theta); };
      const Rates k1 = rates(r), k2 = rates(r + h / 2 * k1.r), k3 = rates(r + h / 2 * k2.r),
                  k4 = rates(r + h * k3.r);
      r += h / 6 * (k1.r + 2 * k2.r + 2 * k3.r + k4.r);
      phi += h / 6 * (k1.phi + 2 * k2.phi + 2 * k3.phi + k4.phi);
      tau = i * h;
      if (i % (steps / 8) == 0 || i == steps) {
        const WorldlinePoint p = kerr_infall(f.a, f.r0, f.theta, 0.2, static_cast<double>(tau));
        worst_r = std::max(worst_r, std::abs(p.r / static_cast<double>(r) - 1));
        worst_phi = std::max(worst_phi, std::abs(p.phi - static_cast<double>(phi)));
        CHECK(p.theta == f.theta);
        // The ZAMO measures gamma = 1 / alpha: v^2 = 1 - alpha^2.
        const Metric g(f.a, r, f.theta);
        const long double alpha2 = -(g.tt - g.tphi * g.tphi / g.phiphi);
        CHECK(p.velocity[0] ==
              doctest::Approx(-std::sqrt(1 - static_cast<double>(alpha2))).epsilon(1e-9));
        ++samples;
      }
    }
    MESSAGE("fall from r0 = " << f.r0 << ": r within " << worst_r << " relative, phi within "
                              << worst_phi << " rad over " << samples << " samples");
    CHECK(samples >= 8);
    CHECK(worst_r < 1e-10);
    CHECK(worst_phi < 1e-9);
    // Past the horizon there is no position.
    CHECK(std::isnan(kerr_infall(f.a, f.r0, f.theta, 0, t_horizon * 1.01).r));
  }
  // a = 0: the Schwarzschild closed form r = (r0^(3/2) - (3/2) sqrt(2) tau)^(2/3), phi constant.
  for (const double tau : {0.0, 10.0, 40.0}) {
    const WorldlinePoint p = kerr_infall(0, 20, 1.0, 0.4, tau);
    CHECK(p.r == doctest::Approx(infall_from_infinity_radius(20, tau)).epsilon(1e-13));
    CHECK(p.phi == 0.4);
    CHECK(p.velocity[0] == doctest::Approx(-infall_speed(p.r, 1)).epsilon(1e-14));
  }
}

TEST_CASE("kerr path files: orbits and falls with the spin, Schwarzschild-only parts refused") {
  const std::string head = R"({"fps": 24, "frames": 240, "time_per_second": 10, )";
  const CameraPath orbit =
      parse_camera_path(head + R"("worldline": {"type": "orbit", "r": 4, "direction": "retrograde",
      "allow_unstable": true}})",
                        "p.json", 0.9);
  REQUIRE(orbit.spin);
  CHECK(orbit.direction == -1);  // retrograde for a > 0 runs against phi
  const CameraState s = sample(orbit, 24);
  CHECK(s.point.phi == kerr_circular_orbit(0.9, 4, 0, -1, 10).phi);
  CHECK(innermost_radius(orbit) == doctest::Approx(1 + std::sqrt(1 - 0.81)));
  const CameraPath fall = parse_camera_path(
      R"({"fps": 24, "frames": 240, "time_per_second": 5, )"
      R"("worldline": {"type": "infall", "r0": 30, "theta": 60, "from": "infinity"}})",
      "p.json", 0.9);
  CHECK(sample(fall, 239).point.r == kerr_infall(0.9, 30, kPi / 3, 0, 239 * 5 / 24.0).r);
  auto refusal = [&](const std::string& text) {
    try {
      parse_camera_path(head + text, "p.json", 0.9);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal(R"("worldline": {"type": "orbit", "r": 3.5, "direction": "retrograde"}})")
            .rfind("p.json: worldline.r: r = 3.500000 is at or inside this direction's circular "
                   "photon orbit",
                   0) == 0);
  CHECK(refusal(R"("worldline": {"type": "orbit", "r": 2}})")
            .rfind("p.json: worldline.r: r = 2.000000 is below the ISCO (2.32", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "infall", "r0": 30}})")
            .rfind("p.json: worldline: kerr falls start from rest at infinity", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "infall", "r0": 30, "from": "rest"}})")
            .rfind("p.json: worldline.from: kerr falls start from rest at infinity", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "flyby", "periapsis": 10, "speed": 0.1}})")
            .rfind("p.json: worldline.type: flyby is a Schwarzschild worldline", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "infall", "r0": 10, "from": "infinity"}})")
            .rfind("p.json: frames: the fall reaches the outer horizon r_+ = 1.43", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "keyframes", "keyframes": [{"time": 0, "r": 10,
      "theta": 90, "phi": 0, "motion": "orbit"}]}})")
            .rfind("p.json: worldline.keyframes[0].motion: names Schwarzschild motions", 0) == 0);
  CHECK(refusal(R"("worldline": {"type": "keyframes", "keyframes": [{"time": 0, "r": 1.4,
      "theta": 90, "phi": 0}]}})")
            .rfind("p.json: worldline.keyframes[0].r: r = 1.400000 is not outside the outer "
                   "horizon",
                   0) == 0);
}
