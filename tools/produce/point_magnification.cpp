#include "point_magnification.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/errors.h"
#include "lensmap/lensmap_camera.h"
#include "lensmap_spacetime.h"
#include "photon_ring.h"
#include "spacetime/vector_ops.h"
#include "traced_images.h"

namespace starlens::produce {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Relative margin on the vertices' largest A, besides twice the triangle's spread of psi.
constexpr double kBoundMargin = 1e-3;

// Sine of the angle between q and the great-circle arc from a to b, or 1 where that angle is
// 90 degrees or more (the sine is monotonic below): no inverse trigonometry.
double sin_angle_to_arc(const Vec3& q, const Vec3& a, const Vec3& b) {
  const auto to_point = [&](const Vec3& p) {
    return vec::dot(q, p) > 0 ? vec::norm(vec::cross(q, p)) : 1.0;
  };
  const double end = std::min(to_point(a), to_point(b));
  const Vec3 normal = vec::cross(a, b);
  const double length = vec::norm(normal);
  if (!(length > 0)) return end;
  const Vec3 n = vec::scaled(1 / length, normal);
  const double height = vec::dot(q, n);
  const Vec3 foot = vec::minus(q, vec::scaled(height, n));
  // The foot lies on the arc when it is on a's side of b and b's side of a.
  if (vec::dot(vec::cross(a, foot), n) >= 0 && vec::dot(vec::cross(foot, b), n) >= 0 &&
      vec::dot(foot, vec::plus(a, b)) > 0)
    return std::min(end, std::min(1.0, std::abs(height)));
  return end;
}

}  // namespace

double sin_angle_to_spherical_triangle(const Vec3& q, const Vec3& s0, const Vec3& s1,
                                       const Vec3& s2) {
  const double orientation = vec::dot(s0, vec::cross(s1, s2));
  const double e0 = vec::dot(q, vec::cross(s1, s2)), e1 = vec::dot(q, vec::cross(s2, s0)),
               e2 = vec::dot(q, vec::cross(s0, s1));
  const bool inside =
      orientation > 0 ? (e0 >= 0 && e1 >= 0 && e2 >= 0) : (e0 <= 0 && e1 <= 0 && e2 <= 0);
  if (inside && vec::dot(q, vec::plus(vec::plus(s0, s1), s2)) > 0) return 0;
  return std::min(
      {sin_angle_to_arc(q, s0, s1), sin_angle_to_arc(q, s1, s2), sin_angle_to_arc(q, s2, s0)});
}

namespace {

// The smallest Doppler factor D = gamma (1 + v . n) over a triangle whose vertices' static
// directions are n0, n1, n2: D is gamma |v|-Lipschitz in n, and every direction of the
// triangle lies within its longest edge chord of a vertex. Likewise the largest.
struct DopplerRange {
  double low, high;
};
DopplerRange doppler_range(const ObserverMotion& motion, const Vec3& n0, const Vec3& n1,
                           const Vec3& n2) {
  const double d0 = motion.doppler_of_static(n0), d1 = motion.doppler_of_static(n1),
               d2 = motion.doppler_of_static(n2);
  const double chord = std::max({vec::norm(vec::minus(n0, n1)), vec::norm(vec::minus(n1, n2)),
                                 vec::norm(vec::minus(n2, n0))});
  const double reach = motion.gamma() * motion.speed() * chord;
  return {std::min({d0, d1, d2}) - reach, std::max({d0, d1, d2}) + reach};
}

// A moving camera in flat space: the image of a star in direction s is at the camera
// direction of s, with mu = 1 / D^2 and g = D (D of s); order 0 everywhere.
void add_flat_motion_bounds(LensMesh& mesh) {
  const auto triangles = static_cast<std::int64_t>(mesh.triangles.size());
  mesh.order.assign(mesh.triangles.size(), 0);
  mesh.max_point_mu.assign(mesh.triangles.size(), kInfinity);
  mesh.max_g.assign(mesh.triangles.size(), kInfinity);
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < triangles; ++t) {
    const auto& v = mesh.triangles[t];
    const DopplerRange d = doppler_range(mesh.motion, mesh.direction[v[0]], mesh.direction[v[1]],
                                         mesh.direction[v[2]]);
    if (d.low > 0) mesh.max_point_mu[t] = 1 / (d.low * d.low);
    mesh.max_g[t] = d.high;
  }
}

// A Kerr map (with a ZAMO-relative motion or not): its images' point values from traced rays
// (traced_images.h), once the rebuilt spacetime is seen to give the map's own rays.
void add_traced_images(LensMesh& mesh, const LensmapAttributes& attributes,
                       const std::string& path) {
  const Camera camera = lensmap_camera(attributes, path);
  std::shared_ptr<const Spacetime> spacetime = lensmap_spacetime(attributes, mesh.motion, path);
  // Escaped vertices spread over the map, traced again: the traced values are only the map's if
  // these agree with what it stores (to the rounding of two builds' arithmetic).
  constexpr std::size_t kChecks = 64;
  constexpr double kAgreementRad = 1e-9;
  const std::size_t vertices = mesh.xy.size();
  for (std::size_t i = 0; i < kChecks && vertices > 0; ++i) {
    const std::size_t v = i * vertices / kChecks;
    if (!std::isfinite(mesh.direction[v][0])) continue;
    const TracedRay ray = spacetime->trace(camera.direction(mesh.xy[v][0], mesh.xy[v][1]));
    const double off = ray.status == RayStatus::escaped
                           ? vec::angle_between(ray.source_direction, mesh.direction[v])
                           : kInfinity;
    if (!(off <= kAgreementRad))
      throw_input_error(
          path, "/vertices/dir",
          "the vertex at pixel (" + std::to_string(mesh.xy[v][0]) + ", " +
              std::to_string(mesh.xy[v][1]) +
              ") does not hold its ray traced with the map's attributes "
              "(spacetime, r_obs, spin, inclination_deg, spin_pa_deg, "
              "observer_velocity): " +
              (std::isfinite(off) ? std::to_string(off) + " rad off" : "not escaped"));
  }
  mesh.traced_images = std::make_shared<const TracedImages>(std::move(spacetime), camera);
  mesh.order.assign(mesh.triangles.size(), 0);
  mesh.max_point_mu.resize(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    mesh.max_point_mu[t] = mesh.mu[t] * TracedImages::kMuMargin;
}

}  // namespace

void add_point_magnification(LensMesh& mesh, const LensmapAttributes& attributes,
                             const std::string& path) {
  if (attributes.spacetime == "kerr") {
    add_traced_images(mesh, attributes, path);
    return;
  }
  if (attributes.spacetime != "schwarzschild") {
    if (attributes.spacetime == "minkowski" && mesh.motion.moving()) add_flat_motion_bounds(mesh);
    return;
  }
  const Camera camera = lensmap_camera(attributes, path);
  const ObserverMotion& motion = mesh.motion;
  const Vec3 hole = lensmap_hole_direction(attributes, path);
  auto lens = std::make_shared<const schwarzschild::PointLens>(attributes.r_obs, hole);
  mesh.photon_ring = std::make_shared<const PhotonRing>(lens, camera, motion);
  const auto vertices = static_cast<std::int64_t>(mesh.xy.size());
  mesh.psi.assign(mesh.xy.size(), kNaN);
  std::vector<double> azimuth(mesh.xy.size(), kNaN), a_factor(mesh.xy.size(), kNaN);
  // The vertices' static directions (where the camera moves: the Doppler bounds).
  std::vector<Vec3> at_rest(motion.moving() ? mesh.xy.size() : 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < vertices; ++v) {
    if (!std::isfinite(mesh.direction[v][0])) continue;
    const Vec3 direction = motion.static_direction(camera.direction(mesh.xy[v][0], mesh.xy[v][1]));
    if (motion.moving()) at_rest[v] = direction;
    const double psi = lens->psi_of(direction);
    if (!(psi > lens->critical_angle())) continue;
    double slope = 0;
    lens->series().azimuth_and_derivative(psi, azimuth[v], slope);
    mesh.psi[v] = psi;
    a_factor[v] = std::sin(psi) / std::abs(slope);
  }
  const auto triangles = static_cast<std::int64_t>(mesh.triangles.size());
  mesh.order.assign(mesh.triangles.size(), 0);
  mesh.max_point_mu.assign(mesh.triangles.size(), kInfinity);
  if (motion.moving()) mesh.max_g.assign(mesh.triangles.size(), kInfinity);
  const Vec3 behind = vec::scaled(-1, hole);
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < triangles; ++t) {
    const auto& v = mesh.triangles[t];
    double motion_factor = 1;  // the largest 1 / D^2 over the triangle
    if (motion.moving()) {
      const DopplerRange d = doppler_range(motion, at_rest[v[0]], at_rest[v[1]], at_rest[v[2]]);
      motion_factor = d.low > 0 ? 1 / (d.low * d.low) : kInfinity;
      mesh.max_g[t] = lens->frequency_ratio() * d.high;
    }
    double mean_azimuth = 0, largest_a = 0, low_psi = kInfinity, high_psi = -kInfinity;
    bool usable = true;
    for (const std::uint32_t k : v) {
      usable = usable && std::isfinite(a_factor[k]);
      mean_azimuth += azimuth[k] / 3;
      largest_a = std::max(largest_a, a_factor[k]);
      low_psi = std::min(low_psi, mesh.psi[k]);
      high_psi = std::max(high_psi, mesh.psi[k]);
    }
    if (!usable) continue;  // a vertex at the shadow's edge: unbounded, order from the mean
    mesh.order[t] = static_cast<std::uint8_t>(
        std::clamp(std::floor(mean_azimuth / std::numbers::pi), 0.0, 255.0));
    const Vec3 &s0 = mesh.direction[v[0]], &s1 = mesh.direction[v[1]], &s2 = mesh.direction[v[2]];
    // |s x h| is 1-Lipschitz in s: within the longest edge chord of its vertices' smallest
    // value over the triangle, the cheap bound for all but the triangles near +-h.
    const double vertex_sin =
        std::min({vec::norm(vec::cross(s0, hole)), vec::norm(vec::cross(s1, hole)),
                  vec::norm(vec::cross(s2, hole))});
    const double chord = std::max({vec::norm(vec::minus(s0, s1)), vec::norm(vec::minus(s1, s2)),
                                   vec::norm(vec::minus(s2, s0))});
    const double sin_gamma = vertex_sin - chord >= 0.5 * vertex_sin
                                 ? vertex_sin - chord
                                 : std::min(sin_angle_to_spherical_triangle(hole, s0, s1, s2),
                                            sin_angle_to_spherical_triangle(behind, s0, s1, s2));
    if (sin_gamma > 0)
      mesh.max_point_mu[t] =
          largest_a * (1 + kBoundMargin + 2 * (high_psi - low_psi)) / sin_gamma * motion_factor;
  }
  mesh.point_lens = std::move(lens);
}

}  // namespace starlens::produce
