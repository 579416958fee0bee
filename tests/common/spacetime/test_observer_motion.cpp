// A moving camera (observer_motion.h, moving_observer.h) against independent references: the
// aberration and Doppler factor against a 4 x 4 Lorentz boost matrix applied to the photon's
// 4-momentum (long double); in Schwarzschild, the frequency ratio of a radially infalling
// camera looking outward against the closed form 1 / (1 + sqrt(2M/r)), and of a camera on a
// circular geodesic orbit against g = u^t (1 - Omega L) from the orbit's 4-velocity
// (u^t = 1 / sqrt(1 - 3M/r), Omega = sqrt(M / r^3)) and the photon's conserved angular
// momentum L.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "core/errors.h"
#include "spacetime/moving_observer.h"
#include "spacetime/observer_motion.h"
#include "spacetime/schwarzschild.h"
#include "spacetime/schwarzschild_orbit.h"
#include "spacetime/spacetime.h"
#include "spacetime/vector_ops.h"

using namespace starlens;
using starlens::vec::scaled;

namespace {

using Vec4 = std::array<long double, 4>;

Vec3 random_direction(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  return normalized({normal(random), normal(random), normal(random)});
}

// The boost taking static-frame components to those of a frame moving with velocity v:
// Lambda^0_0 = gamma, Lambda^0_i = -gamma v_i, Lambda^i_j = delta_ij + (gamma - 1) v_i v_j / v^2.
Vec4 boost(const Vec3& v, const Vec4& k) {
  const long double v2 =
      (long double)v[0] * v[0] + (long double)v[1] * v[1] + (long double)v[2] * v[2];
  const long double gamma = 1 / std::sqrt(1 - v2);
  long double vk = 0;
  for (int i = 0; i < 3; ++i) vk += v[i] * k[i + 1];
  Vec4 out{};
  out[0] = gamma * (k[0] - vk);
  for (int i = 0; i < 3; ++i) out[i + 1] = k[i + 1] + ((gamma - 1) * vk / v2 - gamma * k[0]) * v[i];
  return out;
}

// The camera's direction and D for the static direction n: the photon arrives along -n.
struct Seen {
  Vec3 direction;
  double doppler;
};
Seen seen_by(const Vec3& v, const Vec3& n) {
  const Vec4 k{1, -(long double)n[0], -(long double)n[1], -(long double)n[2]};
  const Vec4 moving = boost(v, k);
  Vec3 d{};
  for (int i = 0; i < 3; ++i) d[i] = static_cast<double>(-moving[i + 1] / moving[0]);
  return {d, static_cast<double>(moving[0])};
}

double angle(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

}  // namespace

TEST_CASE("aberration and Doppler factor agree with a Lorentz boost of the photon") {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> speed(0, 0.99);
  double worst_angle = 0, worst_doppler = 0, worst_round_trip = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 v = scaled(speed(random), random_direction(random));
    const ObserverMotion motion(v);
    const Vec3 n = random_direction(random);
    const Seen reference = seen_by(v, n);
    const Vec3 camera = motion.camera_direction(n);
    worst_angle = std::max(worst_angle, angle(camera, reference.direction));
    worst_doppler =
        std::max(worst_doppler, std::abs(motion.doppler_of_static(n) / reference.doppler - 1));
    worst_round_trip = std::max(worst_round_trip, angle(motion.static_direction(camera), n));
  }
  MESSAGE("2000 rays, |v| < 0.99 c: direction within " << worst_angle << " rad, D within "
                                                       << worst_doppler << " relative");
  CHECK(worst_angle < 1e-13);
  CHECK(worst_doppler < 1e-13);
  CHECK(worst_round_trip < 1e-13);
  // Closed forms: head-on sqrt((1 + v) / (1 - v)); a ray seen at right angles to the motion
  // in the moving frame, 1 / gamma.
  const ObserverMotion motion({0.6, 0, 0});
  CHECK(motion.doppler_of_static({1, 0, 0}) == doctest::Approx(2.0).epsilon(1e-15));
  const Vec3 across = motion.static_direction({0, 1, 0});
  CHECK(motion.doppler_of_static(across) == doctest::Approx(0.8).epsilon(1e-15));
}

TEST_CASE("a speed at or above c, or not finite, is refused naming the field") {
  CHECK_THROWS_AS(ObserverMotion({1, 0, 0}), InputError);
  CHECK_THROWS_AS(ObserverMotion({0.6, 0.6, 0.6}), InputError);
  CHECK_THROWS_AS(ObserverMotion({NAN, 0, 0}), InputError);
  try {
    ObserverMotion({0, 2, 0}, "--velocity");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("--velocity") != std::string::npos);
  }
}

TEST_CASE("flat space seen by a moving camera is the aberrated sky with g = D") {
  const Vec3 v{0.3, -0.2, 0.5};
  Observer observer{30, {1, 0, 0}, ObserverMotion(v)};
  const auto spacetime = make_spacetime("minkowski", observer);
  std::mt19937_64 random(9);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 n = random_direction(random);  // static direction = source direction
    const Seen seen = seen_by(v, n);
    const TracedRay ray = spacetime->trace(seen.direction);
    REQUIRE(ray.status == RayStatus::escaped);
    CHECK(angle(ray.source_direction, n) < 1e-13);
    CHECK(ray.g == doctest::Approx(seen.doppler).epsilon(1e-13));
  }
}

TEST_CASE("an infalling camera looking outward sees g = 1 / (1 + sqrt(2M/r))") {
  const Vec3 hole = normalized({0.2, -0.5, 0.8});
  const HoleFrame frame = hole_frame(hole, {0, 0, 1}, {1, 0, 0});
  for (const double r : {3.5, 6.0, 30.0, 1000.0}) {
    const Observer observer{r, hole, ObserverMotion(infall_velocity(r, frame))};
    const auto spacetime = make_spacetime("schwarzschild", observer);
    const TracedRay ray = spacetime->trace(scaled(-1, hole));
    REQUIRE(ray.status == RayStatus::escaped);
    CHECK(ray.g == doctest::Approx(1 / (1 + std::sqrt(2 / r))).epsilon(1e-14));
    CHECK(angle(ray.source_direction, scaled(-1, hole)) < 1e-14);
  }
}

TEST_CASE("a camera on a circular orbit sees g = u^t (1 - Omega L)") {
  const Vec3 hole = normalized({-0.4, 0.3, 0.2});
  const HoleFrame frame = hole_frame(hole, {0, 0, 1}, {1, 0, 0});
  std::mt19937_64 random(3);
  double worst = 0;
  int checked = 0;
  for (const double r : {3.3, 6.0, 30.0}) {
    for (const double pa : {0.0, 1.0, 4.0}) {
      const Vec3 v = orbit_velocity(r, pa, frame);
      const Observer observer{r, hole, ObserverMotion(v)};
      const auto spacetime = make_spacetime("schwarzschild", observer);
      // The orbit's axis: position (-r h) x velocity.
      const Vec3 axis = normalized(cross(scaled(-1, hole), v));
      const double omega = std::sqrt(1 / (r * r * r));
      const double u_t = 1 / std::sqrt(1 - 3 / r);
      const double energy = 1 / std::sqrt(1 - 2 / r);  // local energy of a photon with E = 1
      for (int trial = 0; trial < 100; ++trial) {
        const Vec3 camera = random_direction(random);
        // The static direction from the reference boost (the inverse: a frame moving at -v
        // seen from the camera's).
        const Seen at_rest = seen_by(scaled(-1, v), camera);
        const Vec3 n = at_rest.direction;
        const TracedRay ray = spacetime->trace(camera);
        if (ray.status != RayStatus::escaped) continue;
        // L = (position) x (momentum): (-r h) x (-energy n), along the orbit's axis.
        const double l = dot(scaled(r * energy, cross(hole, n)), axis);
        const double reference = u_t * (1 - omega * l);
        worst = std::max(worst, std::abs(ray.g / reference - 1));
        ++checked;
      }
    }
  }
  MESSAGE(checked << " escaping rays from circular orbits: g within " << worst << " relative");
  CHECK(checked > 300);
  CHECK(worst < 1e-13);
}

TEST_CASE("a static camera's spacetime is the static one, bit for bit") {
  const Vec3 hole = normalized({0.1, 0.9, -0.3});
  const auto moving = make_spacetime("schwarzschild", Observer{20, hole, ObserverMotion()});
  const SchwarzschildSpacetime at_rest(Observer{20, hole});
  CHECK(dynamic_cast<const MovingObserverSpacetime*>(moving.get()) == nullptr);
  std::mt19937_64 random(1);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec3 d = random_direction(random);
    const TracedRay a = moving->trace(d), b = at_rest.trace(d);
    CHECK(a.status == b.status);
    if (a.status == RayStatus::escaped) CHECK(a.source_direction == b.source_direction);
  }
}
