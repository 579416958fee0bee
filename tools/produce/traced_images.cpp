#include "traced_images.h"

#include <cmath>
#include <utility>

#include "spacetime/vector_ops.h"

namespace starlens::produce {
namespace {

// The traced ray at a pixel: its camera direction and, escaped, its source direction and g.
struct PixelRay {
  bool escaped = false;
  Vec3 camera{};
  Vec3 source{};
  double g = 0;
};

}  // namespace

TracedImages::TracedImages(std::shared_ptr<const Spacetime> spacetime, const Camera& camera)
    : spacetime_(std::move(spacetime)), camera_(camera) {}

TracedImages::Image TracedImages::refine(const Vec3& source, double x0, double y0,
                                         double visible_mu) const {
  const auto ray_at = [&](double x, double y) {
    PixelRay ray;
    ray.camera = camera_.direction(x, y);
    const TracedRay traced = spacetime_->trace(ray.camera);
    if (traced.status != RayStatus::escaped) return ray;
    ray.escaped = true;
    ray.source = traced.source_direction;
    ray.g = traced.g;
    return ray;
  };
  // The plane tangent to the sky at the star: the residual's coordinates.
  const Vec3 helper = std::abs(source[0]) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 e1 = vec::normalized(vec::cross(source, helper));
  const Vec3 e2 = vec::cross(source, e1);
  Image image;
  const double pixel_rad =
      vec::norm(vec::minus(camera_.direction(x0 + 1, y0), camera_.direction(x0, y0)));
  const double step_px = kStepRad / pixel_rad;
  if (!(step_px > 0) || !std::isfinite(step_px)) return image;
  // Newton's method with the Jacobian of the start (forward differences): the start is within
  // ~0.01 px of the image, so the Jacobian there is the image's to ~1e-4 and each step gains
  // about four digits.
  double x = x0, y = y0;
  PixelRay centre = ray_at(x, y);
  const PixelRay right = ray_at(x + step_px, y), down = ray_at(x, y + step_px);
  if (!(centre.escaped && right.escaped && down.escaped)) return image;
  const double j11 = vec::dot(e1, right.source) - vec::dot(e1, centre.source);
  const double j12 = vec::dot(e1, down.source) - vec::dot(e1, centre.source);
  const double j21 = vec::dot(e2, right.source) - vec::dot(e2, centre.source);
  const double j22 = vec::dot(e2, down.source) - vec::dot(e2, centre.source);
  const double det = (j11 * j22 - j12 * j21) / (step_px * step_px);
  if (!(std::abs(det) > 0) || !std::isfinite(det)) return image;
  if (visible_mu > 0) {
    // mu at the start: the camera's solid angle per px^2 over the source's (det, per px^2).
    const double camera_area = vec::norm(vec::cross(vec::minus(right.camera, centre.camera),
                                                    vec::minus(down.camera, centre.camera))) /
                               (step_px * step_px);
    const double start_mu = camera_area / std::abs(det);
    if (start_mu * kStartMargin < visible_mu) {
      image.found = true;
      image.faint = true;
      image.mu = start_mu * kStartMargin;
      return image;
    }
  }
  bool settled = false;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    // A ray more than 90 degrees from the star is not the star's image.
    if (!(vec::dot(source, centre.source) > 0)) return image;
    const double r1 = vec::dot(e1, centre.source), r2 = vec::dot(e2, centre.source);
    const double step_x = -(j22 * r1 - j12 * r2) / (det * step_px);
    const double step_y = -(-j21 * r1 + j11 * r2) / (det * step_px);
    x += step_x;
    y += step_y;
    if (!(std::hypot(x - x0, y - y0) <= kMaxMovePx)) return image;
    if (std::hypot(step_x, step_y) < kSettledPx) {
      settled = true;
      break;
    }
    centre = ray_at(x, y);
    if (!centre.escaped) return image;
  }
  if (!settled) return image;
  // The Jacobian at the image by central differences; the centre's values as the mean of the
  // four (exact to the step's square).
  const PixelRay left = ray_at(x - step_px, y), far_right = ray_at(x + step_px, y);
  const PixelRay up = ray_at(x, y - step_px), far_down = ray_at(x, y + step_px);
  if (!(left.escaped && far_right.escaped && up.escaped && far_down.escaped)) return image;
  const double scale = 1 / (2 * step_px);
  const Vec3 ds_dx = vec::scaled(scale, vec::minus(far_right.source, left.source));
  const Vec3 ds_dy = vec::scaled(scale, vec::minus(far_down.source, up.source));
  const Vec3 dr_dx = vec::scaled(scale, vec::minus(far_right.camera, left.camera));
  const Vec3 dr_dy = vec::scaled(scale, vec::minus(far_down.camera, up.camera));
  const Vec3 mean_source = vec::normalized(
      vec::plus(vec::plus(left.source, far_right.source), vec::plus(up.source, far_down.source)));
  const Vec3 mean_camera = vec::normalized(
      vec::plus(vec::plus(left.camera, far_right.camera), vec::plus(up.camera, far_down.camera)));
  const double camera_area = vec::dot(vec::cross(dr_dx, dr_dy), mean_camera);
  const double source_area = vec::dot(vec::cross(ds_dx, ds_dy), mean_source);
  if (!(std::abs(source_area) > 0) || !std::isfinite(camera_area)) return image;
  image.found = true;
  image.x = x;
  image.y = y;
  image.mu = std::abs(camera_area / source_area);
  image.parity = camera_area * source_area > 0 ? 1 : -1;
  image.g = (left.g + far_right.g + up.g + far_down.g) / 4;
  return image;
}

}  // namespace starlens::produce
