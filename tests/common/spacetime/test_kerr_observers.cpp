// Kerr's moving observers (kerr_observers.h) seen through KerrSpacetime and its boost from the
// ZAMO, against references written here: the observer's tetrad built in Boyer-Lindquist
// components from the metric alone (its 4-velocity u from Bardeen, Press & Teukolsky's closed
// forms for the circular orbit, or from the geodesic equations with E = 1, L = 0, Q = 0 for the
// fall; its spatial axes by Gram-Schmidt against u), the camera's photon p = u - n'^i e_i taken
// to the ZAMO's frame by p . n_ZAMO, and the long-double Mino-time integration
// (kerr_reference.h) for the ray's constants and source direction. g follows in closed form:
// u^t (1 - Omega lambda) on the orbit, u^t (1 - omega lambda) - u^r p_r / E for the fall.
// At a = 0 the Kerr orbit and fall reproduce the Schwarzschild ones (observer_motion.h).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "kerr_reference.h"
#include "spacetime/kerr_observers.h"
#include "spacetime/moving_observer.h"
#include "spacetime/observer_motion.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/spacetime.h"
#include "spacetime/vector_ops.h"

using namespace starlens;

namespace {

constexpr double kPi = std::numbers::pi;

// Boyer-Lindquist components (t, r, theta, phi) and the metric at (r, theta), M = 1.
using Vec4 = std::array<long double, 4>;
struct Metric {
  long double a, r, c, s;
  long double sigma, delta, big_a;
  long double tt, tphi, phiphi, rr, thth;
  Metric(long double a_, long double r_, long double theta) : a(a_), r(r_) {
    c = std::cos(theta);
    s = std::sin(theta);
    sigma = r * r + a * a * c * c;
    delta = r * r - 2 * r + a * a;
    big_a = (r * r + a * a) * (r * r + a * a) - a * a * delta * s * s;
    tt = -(1 - 2 * r / sigma);
    tphi = -2 * a * r * s * s / sigma;
    phiphi = big_a * s * s / sigma;
    rr = sigma / delta;
    thth = sigma;
  }
  Vec4 lower(const Vec4& v) const {
    return {tt * v[0] + tphi * v[3], rr * v[1], thth * v[2], tphi * v[0] + phiphi * v[3]};
  }
  long double dot(const Vec4& x, const Vec4& y) const {
    const Vec4 l = lower(x);
    return l[0] * y[0] + l[1] * y[1] + l[2] * y[2] + l[3] * y[3];
  }
};

Vec4 plus(const Vec4& x, long double w, const Vec4& y) {
  return {x[0] + w * y[0], x[1] + w * y[1], x[2] + w * y[2], x[3] + w * y[3]};
}

// The unit spacelike vector along w - (w . u) u... with u . u = -1: w + (w . u) u.
Vec4 orthonormal_to(const Metric& m, const Vec4& u, const Vec4& w) {
  const Vec4 v = plus(w, m.dot(w, u), u);
  const long double n = std::sqrt(m.dot(v, v));
  return {v[0] / n, v[1] / n, v[2] / n, v[3] / n};
}

using Placement = test::KerrPlacement;

// What the reference gives for one camera ray of an observer with 4-velocity u and radial axis
// e_r' (e_theta' = the coordinate theta direction, e_phi' by Gram-Schmidt).
struct Expected {
  bool escapes = false;
  Vec3 source{};
  long double lambda = 0, eta = 0;
  int radial_sign = 0;  // the sign of the photon's p^r at the observer
};

Expected reference(const Metric& m, const Placement& pl, double inclination, const Vec4& u,
                   const Vec4& e_r, const Vec3& camera) {
  const Vec4 e_theta{0, 0, 1 / std::sqrt(m.thth), 0};
  const Vec4 e_phi = orthonormal_to(m, u, {0, 0, 0, 1});
  const long double nr = vec::dot(camera, pl.e_r), nth = vec::dot(camera, pl.e_theta),
                    nph = vec::dot(camera, pl.e_phi);
  Vec4 p = plus(plus(plus(u, -nr, e_r), -nth, e_theta), -nph, e_phi);
  // The ZAMO: n = (1, 0, 0, omega) / alpha, and its orthonormal axes.
  const long double omega = -m.tphi / m.phiphi;
  const long double alpha = std::sqrt(m.sigma * m.delta / m.big_a);
  const Vec4 zamo{1 / alpha, 0, 0, omega / alpha};
  const long double energy = -m.dot(p, zamo);
  const Vec4 pl_ = m.lower(p);
  const long double zr = std::sqrt(m.rr) * p[1], zth = std::sqrt(m.thth) * p[2],
                    zph = pl_[3] / std::sqrt(m.phiphi);
  Expected e;
  e.radial_sign = p[1] > 0 ? 1 : -1;
  const auto ray =
      test::reference_kerr_ray(m.a, m.r, inclination, -zr / energy, -zth / energy, -zph / energy);
  if (!ray) return e;
  e.escapes = true;
  e.lambda = ray->lambda;
  e.eta = ray->eta;
  for (int k = 0; k < 3; ++k)
    e.source[k] = static_cast<double>(ray->direction[0] * pl.x[k] + ray->direction[1] * pl.y[k] +
                                      ray->direction[2] * pl.z[k]);
  return e;
}

// The observer of Placement at (r, inclination), moving at `velocity` relative to the ZAMO.
Observer kerr_observer(double a, double r, double inclination, const Vec3& velocity) {
  return Observer{.r_obs = r,
                  .hole_direction = {1, 0, 0},
                  .motion = ObserverMotion(velocity),
                  .spin = a,
                  .inclination = inclination,
                  .spin_sky = {0, 0, 1}};
}

// The worst disagreements over the rays compared: g relative, source direction in radians.
struct Agreement {
  int checked = 0;
  double g = 0, direction = 0;
  void add(double g_code, double g_expected, const Vec3& source, const Vec3& expected) {
    g = std::max(g, std::abs(g_code / g_expected - 1));
    direction = std::max(direction, vec::angle_between(source, expected));
    ++checked;
  }
  // At least `rays` compared, within the limits.
  void require(const std::string& what, int rays, double g_limit, double direction_limit) const {
    MESSAGE(checked << " rays " << what << ": g within " << g
                    << " relative, source direction within " << direction << " rad");
    CHECK(checked > rays);
    CHECK(g < g_limit);
    CHECK(direction < direction_limit);
  }
};

Vec3 random_direction(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  return vec::normalized({normal(random), normal(random), normal(random)});
}

}  // namespace

TEST_CASE("kerr circular orbits: g = u^t (1 - Omega lambda) with BPT's u^t, Omega") {
  struct Orbit {
    double a, r;
    kerr::OrbitSense sense;
  };
  // Prograde inside the ISCO (unstable, still a geodesic), at it and outside; retrograde
  // near its photon orbit (r_ph = 3.91 for a = 0.9) and far out; negative spin.
  const Orbit orbits[] = {
      {0.9, 1.8, kerr::OrbitSense::prograde},   {0.9, 4, kerr::OrbitSense::prograde},
      {0.9, 4.2, kerr::OrbitSense::retrograde}, {0.9, 12, kerr::OrbitSense::retrograde},
      {-0.7, 6, kerr::OrbitSense::prograde},    {-0.7, 6, kerr::OrbitSense::retrograde}};
  std::mt19937_64 random(11);
  Agreement worst;
  for (const Orbit& o : orbits) {
    CAPTURE(o.a);
    CAPTURE(o.r);
    // The orbit along +phi (s = +1) or -phi; prograde co-rotates with the hole.
    const int s = (o.sense == kerr::OrbitSense::prograde) == (o.a >= 0) ? 1 : -1;
    CHECK(kerr::orbit_phi_sign(o.a, o.sense) == s);
    const double a_s = s * o.a, r = o.r;
    const long double big_omega = s / (std::pow(r, 1.5) + a_s);
    const long double u_t =
        (std::pow(r, 1.5) + a_s) /
        (std::pow(r, 0.75) * std::sqrt(std::pow(r, 1.5) - 3 * std::sqrt(r) + 2 * a_s));
    const Metric m(o.a, r, kPi / 2);
    const Vec4 u{u_t, 0, 0, big_omega * u_t};
    REQUIRE(std::abs(m.dot(u, u) + 1) < 1e-14);
    const Vec4 e_r{0, 1 / std::sqrt(m.rr), 0, 0};
    const Placement pl(kPi / 2);
    const double v = kerr::orbit_zamo_velocity(o.a, r, s);
    const auto spacetime =
        make_spacetime("kerr", kerr_observer(o.a, r, kPi / 2, vec::scaled(v, pl.e_phi)));
    for (int i = 0; i < 30; ++i) {
      const Vec3 camera = random_direction(random);
      const TracedRay ray = spacetime->trace(camera);
      const Expected e = reference(m, pl, kPi / 2, u, e_r, camera);
      CHECK((ray.status == RayStatus::escaped) == e.escapes);
      if (!e.escapes || ray.status != RayStatus::escaped) continue;
      worst.add(ray.g, static_cast<double>(u_t * (1 - big_omega * e.lambda)), ray.source_direction,
                e.source);
    }
  }
  worst.require("from Kerr circular orbits", 100, 1e-13, 1e-10);
}

TEST_CASE("kerr orbits: photon orbit, ISCO and the ZAMO-relative speed") {
  // BPT's closed forms at the extremes: r_ph = 1 and 4, r_ISCO = 1 and 9 as a -> 1.
  CHECK(kerr::circular_photon_orbit(0, 1) == doctest::Approx(3).epsilon(1e-15));
  CHECK(kerr::circular_photon_orbit(1, 1) == doctest::Approx(1).epsilon(1e-15));
  CHECK(kerr::circular_photon_orbit(1, -1) == doctest::Approx(4).epsilon(1e-15));
  CHECK(kerr::isco_radius(0, 1) == doctest::Approx(6).epsilon(1e-15));
  CHECK(kerr::isco_radius(1 - 1e-12, 1) == doctest::Approx(1).epsilon(1e-3));
  CHECK(kerr::isco_radius(1 - 1e-12, -1) == doctest::Approx(9).epsilon(1e-6));
  for (const double a : {0.9, -0.5, 0.3}) {
    for (const int s : {1, -1}) {
      // At the ISCO dE/dr = 0 for E(r) = (r^(3/2) - 2 r^(1/2) + a_s) / (r^(3/4) sqrt(D)).
      const double a_s = s * a;
      auto energy = [a_s](double r) {
        return (std::pow(r, 1.5) - 2 * std::sqrt(r) + a_s) /
               (std::pow(r, 0.75) * std::sqrt(std::pow(r, 1.5) - 3 * std::sqrt(r) + 2 * a_s));
      };
      const double isco = kerr::isco_radius(a, s), h = 1e-4;
      CHECK(std::abs(energy(isco + h) - energy(isco - h)) / (2 * h) < 1e-7);
      // At r_ph the orbit's denominator vanishes; just outside the speed approaches c.
      const double r_ph = kerr::circular_photon_orbit(a, s);
      CHECK(std::abs(std::pow(r_ph, 1.5) - 3 * std::sqrt(r_ph) + 2 * a_s) < 1e-13);
      CHECK(std::isnan(kerr::orbit_zamo_velocity(a, r_ph, s)));
      CHECK(std::isnan(kerr::orbit_zamo_velocity(a, r_ph - 0.1, s)));
      const double v = kerr::orbit_zamo_velocity(a, r_ph + 1e-6, s);
      CHECK(std::abs(v) < 1);
      CHECK(std::abs(v) > 0.99);
      CHECK(v * s > 0);
    }
  }
}

TEST_CASE("kerr fall from rest at infinity (E = 1, L = 0, Q = 0): g from the geodesic") {
  struct Fall {
    double a, r, inclination;
  };
  // Equatorial inside the ergosphere, off the plane, near the axis and on it, negative spin.
  const Fall falls[] = {
      {0.9, 1.8, kPi / 2}, {0.9, 6, 1.0}, {0.9, 20, 0.05}, {-0.6, 3, 2.2}, {0.998, 10, kPi / 3}};
  std::mt19937_64 random(5);
  Agreement worst;
  for (const Fall& f : falls) {
    CAPTURE(f.a);
    CAPTURE(f.r);
    const Metric m(f.a, f.r, f.inclination);
    // u_t = -1, u_phi = 0: u^t = -g^tt, u^phi = -g^tphi; R(r) = 2 r (r^2 + a^2) for the faller.
    const long double u_t = m.big_a / (m.sigma * m.delta);
    const long double u_phi = 2 * m.a * m.r / (m.sigma * m.delta);
    const long double u_r = -std::sqrt(2 * m.r * (m.r * m.r + m.a * m.a)) / m.sigma;
    const Vec4 u{u_t, u_r, 0, u_phi};
    REQUIRE(std::abs(m.dot(u, u) + 1) < 1e-14);
    REQUIRE(std::abs(m.lower(u)[0] + 1) < 1e-14);
    REQUIRE(std::abs(m.lower(u)[3]) < 1e-14);
    const Vec4 e_r = orthonormal_to(m, u, {0, 1, 0, 0});
    const Placement pl(f.inclination);
    const double speed =
        kerr::infall_zamo_speed(f.a, f.r, std::cos(f.inclination), std::sin(f.inclination));
    const auto spacetime =
        make_spacetime("kerr", kerr_observer(f.a, f.r, f.inclination, vec::scaled(speed, pl.h)));
    for (int i = 0; i < 30; ++i) {
      const Vec3 camera = random_direction(random);
      const TracedRay ray = spacetime->trace(camera);
      const Expected e = reference(m, pl, f.inclination, u, e_r, camera);
      CHECK((ray.status == RayStatus::escaped) == e.escapes);
      if (!e.escapes || ray.status != RayStatus::escaped) continue;
      // -p . u / E with p_t = -1, p_phi = lambda, p_r = +-sqrt(R_photon) / Delta.
      const long double l = e.lambda, a = m.a, r = m.r;
      const long double big_r =
          (r * r + a * a - a * l) * (r * r + a * a - a * l) - m.delta * (e.eta + (l - a) * (l - a));
      const long double p_r = e.radial_sign * std::sqrt(std::max(big_r, 0.0L)) / m.delta;
      worst.add(ray.g, static_cast<double>(u_t - l * u_phi - p_r * u_r), ray.source_direction,
                e.source);
    }
  }
  worst.require("from Kerr falls", 80, 1e-13, 1e-10);
}

TEST_CASE("kerr orbit and fall at a = 0 reproduce the Schwarzschild observers") {
  const Placement pl(kPi / 2);
  // Schwarzschild's sky frame for the hole along +x under the pole +z: north = +z, east = +y,
  // so e_phi = -y is position angle 270 degrees.
  const HoleFrame frame = hole_frame(pl.h, {0, 0, 1}, {1, 0, 0});
  std::mt19937_64 random(9);
  for (const double r : {3.5, 8.0, 30.0}) {
    CAPTURE(r);
    struct Pair {
      Vec3 kerr_velocity, schwarzschild_velocity;
    };
    const Pair pairs[] = {
        {vec::scaled(kerr::orbit_zamo_velocity(0, r, 1), pl.e_phi),
         orbit_velocity(r, 1.5 * kPi, frame)},
        {vec::scaled(kerr::orbit_zamo_velocity(0, r, -1), pl.e_phi),
         orbit_velocity(r, 0.5 * kPi, frame)},
        {vec::scaled(kerr::infall_zamo_speed(0, r, 0, 1), pl.h), infall_velocity(r, frame)}};
    for (const Pair& p : pairs) {
      CHECK(vec::norm(vec::minus(p.kerr_velocity, p.schwarzschild_velocity)) < 1e-15);
      const auto kerr = make_spacetime("kerr", kerr_observer(0, r, kPi / 2, p.kerr_velocity));
      Observer s{r, pl.h, ObserverMotion(p.schwarzschild_velocity)};
      const auto schwarzschild = make_spacetime("schwarzschild", s, RayAzimuth::closed_form);
      Agreement worst;
      for (int i = 0; i < 400; ++i) {
        const Vec3 camera = random_direction(random);
        const TracedRay k = kerr->trace(camera), w = schwarzschild->trace(camera);
        REQUIRE(k.status == w.status);
        if (w.status != RayStatus::escaped) continue;
        // Near the capture edge both are limited by its conditioning (as in test_kerr.cpp).
        const Vec3 at_rest = dynamic_cast<const MovingObserverSpacetime&>(*schwarzschild)
                                 .motion()
                                 .static_direction(camera);
        if (std::acos(at_rest[0]) < schwarzschild::critical_angle(r) + 1e-2) continue;
        worst.add(k.g, w.g, k.source_direction, w.source_direction);
      }
      worst.require("at a = 0 against Schwarzschild", 100, 1e-14, 1e-12);
    }
  }
}
