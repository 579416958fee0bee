// The traced point magnification of Kerr images (traced_images.h) against an independent
// reference: the long-double Gragg-Bulirsch-Stoer integration of the Kerr geodesic equations
// in Mino time (tests/common/spacetime/kerr_reference.h, which shares nothing with the closed
// forms the spacetime traces with). For stars placed at the reference's own source direction of
// chosen pixels, the search must return the pixel and the reference's point magnification, the
// Jacobian of its rays by Richardson-extrapolated central differences, with its parity and g;
// at a = 0 the same against the Schwarzschild closed form's point magnification.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <optional>
#include <random>

#include "../../common/spacetime/kerr_reference.h"
#include "lensmap/camera.h"
#include "spacetime/schwarzschild_point_lens.h"
#include "spacetime/spacetime.h"
#include "spacetime/vector_ops.h"
#include "traced_images.h"

using namespace starlens;
using starlens::produce::TracedImages;

namespace {

struct View {
  double a, r_obs, inclination_deg;
};

// The reference ray of a camera direction: source direction (ICRS) and g, or nullopt if
// captured.
struct ReferenceRay {
  Vec3 source;
  double g;
};
std::optional<ReferenceRay> reference_ray(const View& view, const test::KerrPlacement& pl,
                                          const Vec3& d) {
  const auto ray =
      test::reference_kerr_ray(view.a, view.r_obs, view.inclination_deg * kDegree,
                               vec::dot(d, pl.e_r), vec::dot(d, pl.e_theta), vec::dot(d, pl.e_phi));
  if (!ray) return std::nullopt;
  Vec3 source{};
  for (int k = 0; k < 3; ++k)
    source[k] = static_cast<double>(ray->direction[0] * pl.x[k] + ray->direction[1] * pl.y[k] +
                                    ray->direction[2] * pl.z[k]);
  return ReferenceRay{vec::normalized(source), static_cast<double>(ray->g)};
}

// The reference's point magnification and parity at pixel (x, y): the Jacobians of the camera
// rays and of the reference's source directions by central differences at steps h and 2h,
// Richardson-extrapolated (error ~h^4).
struct ReferencePoint {
  bool ok = false;
  double mu = 0;
  int parity = 0;
};
ReferencePoint reference_point(const View& view, const test::KerrPlacement& pl,
                               const Camera& camera, double x, double y, double h) {
  ReferencePoint out;
  Vec3 ds[2], dr[2];  // d/dx, d/dy
  for (int axis = 0; axis < 2; ++axis) {
    Vec3 diff[2][2];  // [step h or 2h][source or camera]
    for (int s = 0; s < 2; ++s) {
      const double step = h * (s + 1);
      const double dx = axis == 0 ? step : 0, dy = axis == 1 ? step : 0;
      const Vec3 plus = camera.direction(x + dx, y + dy), minus = camera.direction(x - dx, y - dy);
      const auto sp = reference_ray(view, pl, plus), sm = reference_ray(view, pl, minus);
      if (!sp || !sm) return out;
      diff[s][0] = vec::scaled(1 / (2 * step), vec::minus(sp->source, sm->source));
      diff[s][1] = vec::scaled(1 / (2 * step), vec::minus(plus, minus));
    }
    ds[axis] = vec::scaled(1.0 / 3, vec::minus(vec::scaled(4, diff[0][0]), diff[1][0]));
    dr[axis] = vec::scaled(1.0 / 3, vec::minus(vec::scaled(4, diff[0][1]), diff[1][1]));
  }
  const Vec3 centre = camera.direction(x, y);
  const auto at = reference_ray(view, pl, centre);
  if (!at) return out;
  const double camera_area = vec::dot(vec::cross(dr[0], dr[1]), centre);
  const double source_area = vec::dot(vec::cross(ds[0], ds[1]), at->source);
  out.ok = true;
  out.mu = std::abs(camera_area / source_area);
  out.parity = camera_area * source_area > 0 ? 1 : -1;
  return out;
}

struct Worst {
  int checked = 0, mirrored = 0;
  double position_px = 0, mu = 0, g = 0, mu_spread = 0;
};

// Stars at the reference source directions of random pixels of a 160 x 90 pinhole frame (fov
// 60) looking at the hole; the search starts 0.03 px off (a few times the mesh's tolerance).
Worst check_view(const View& view, int stars, std::uint64_t seed) {
  Observer observer;
  observer.r_obs = view.r_obs;
  observer.spin = view.a;
  observer.inclination = view.inclination_deg * kDegree;
  const test::KerrPlacement pl(observer.inclination);
  observer.hole_direction = pl.h;
  observer.spin_sky = pl.p;
  const Camera camera(camera_axes(pl.h, pl.p, {0, 1, 0}, 0), Projection::pinhole, 60, 160, 90);
  const TracedImages traced(make_spacetime("kerr", observer), camera);
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> px(0, 160), py(0, 90), offset(-0.03, 0.03);
  double low_mu = INFINITY, high_mu = 0;
  Worst worst;
  for (int attempt = 0; attempt < 40 * stars && worst.checked < stars; ++attempt) {
    const double x = px(random), y = py(random);
    const auto star = reference_ray(view, pl, camera.direction(x, y));
    if (!star) continue;  // in the shadow
    const ReferencePoint expected = reference_point(view, pl, camera, x, y, 0.005);
    if (!expected.ok) continue;  // next to the shadow's edge
    const TracedImages::Image image =
        traced.refine(star->source, x + offset(random), y + offset(random));
    REQUIRE(image.found);
    ++worst.checked;
    worst.mirrored += expected.parity < 0;
    CHECK(image.parity == expected.parity);
    worst.position_px = std::max(worst.position_px, std::hypot(image.x - x, image.y - y));
    worst.mu = std::max(worst.mu, std::abs(image.mu / expected.mu - 1));
    worst.g = std::max(worst.g, std::abs(image.g / star->g - 1));
    low_mu = std::min(low_mu, expected.mu);
    high_mu = std::max(high_mu, expected.mu);
  }
  worst.mu_spread = high_mu / low_mu;
  return worst;
}

}  // namespace

TEST_CASE("traced images: Kerr point magnification against the Mino-time integration") {
  for (const View view : {View{0.9, 20, 70}, View{-0.6, 12, 30}, View{0.998, 30, 88}}) {
    CAPTURE(view.a);
    const Worst worst = check_view(view, 24, 20261204);
    MESSAGE("a = " << view.a << ", r_obs " << view.r_obs << ", inclination " << view.inclination_deg
                   << ": " << worst.checked << " images (" << worst.mirrored
                   << " mirrored), mu over a range of " << worst.mu_spread << "x; worst position "
                   << worst.position_px << " px, mu " << worst.mu << " relative, g " << worst.g);
    CHECK(worst.checked == 24);
    CHECK(worst.position_px < 1e-6);
    CHECK(worst.mu < 1e-6);
    CHECK(worst.g < 1e-9);
  }
}

TEST_CASE("traced images: at a = 0 the Schwarzschild closed form's point magnification") {
  Observer observer;
  observer.r_obs = 15;
  observer.spin = 0;
  observer.inclination = 1.0;
  const test::KerrPlacement pl(observer.inclination);
  observer.hole_direction = pl.h;
  observer.spin_sky = pl.p;
  const Camera camera(camera_axes(pl.h, pl.p, {0, 1, 0}, 0), Projection::pinhole, 90, 200, 120);
  const TracedImages traced(make_spacetime("kerr", observer), camera);
  const schwarzschild::PointLens lens(observer.r_obs, pl.h);
  const double pixel_rad = (90 * kDegree) / 200;  // at the centre; larger towards the edges
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> px(0, 200), py(0, 120), offset(-0.03, 0.03);
  int checked = 0, secondaries = 0;
  double worst = 0;
  for (int attempt = 0; attempt < 4000 && checked < 200; ++attempt) {
    const double x = px(random), y = py(random);
    const Vec3 d = camera.direction(x, y);
    const double psi = lens.psi_of(d);
    if (!(psi > lens.critical_angle() + 0.02)) continue;  // 2.5 px from the shadow
    // At least 2 px from a critical curve (phi = n pi, where the Jacobian vanishes).
    double phi = 0, slope = 0;
    lens.series().azimuth_and_derivative(psi, phi, slope);
    const double pi = std::numbers::pi;
    const double to_curve =
        std::abs(phi - pi * std::max(1.0, std::round(phi / pi))) / std::abs(slope);
    if (!(to_curve > 2 * pixel_rad)) continue;
    const TracedRay ray = traced.spacetime().trace(d);
    REQUIRE(ray.status == RayStatus::escaped);
    const TracedImages::Image image =
        traced.refine(ray.source_direction, x + offset(random), y + offset(random));
    REQUIRE(image.found);
    // The same image of the closed form: its order from the ray, its mu at its exact angle.
    const schwarzschild::PointImage exact = lens.image(ray.source_direction, ray.order, psi);
    REQUIRE(exact.converged);
    ++checked;
    secondaries += ray.order == 1;
    CHECK(image.parity == exact.parity);
    worst = std::max(worst, std::abs(image.mu / exact.mu - 1));
  }
  MESSAGE(checked << " images (" << secondaries << " secondaries): mu within " << worst
                  << " of the closed form");
  CHECK(checked == 200);
  CHECK(secondaries > 10);
  CHECK(worst < 1e-6);
}
