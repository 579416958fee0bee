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
  const Vec3 off_axis = std::abs(source[0]) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 e1 = vec::normalized(vec::cross(source, off_axis));
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
  // The Jacobian's components in the tangent plane, per px.
  const Vec3 along_x = vec::scaled(1 / step_px, vec::minus(right.source, centre.source));
  const Vec3 along_y = vec::scaled(1 / step_px, vec::minus(down.source, centre.source));
  const double j11 = vec::dot(e1, along_x), j12 = vec::dot(e1, along_y);
  const double j21 = vec::dot(e2, along_x), j22 = vec::dot(e2, along_y);
  const double det = j11 * j22 - j12 * j21;
  if (!(std::abs(det) > 0) || !std::isfinite(det)) return image;
  if (visible_mu > 0) {
    // mu at the start: the camera's solid angle per px^2 over the source's (det, per px^2).
    const double camera_area = vec::norm(vec::cross(vec::minus(right.camera, centre.camera),
                                                    vec::minus(down.camera, centre.camera))) /
                               (step_px * step_px);
    const double start_mu = camera_area / std::abs(det);  // det: the source's area per px^2
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
    const double step_x = -(j22 * r1 - j12 * r2) / det;
    const double step_y = -(-j21 * r1 + j11 * r2) / det;
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
  const PixelRay x_minus = ray_at(x - step_px, y), x_plus = ray_at(x + step_px, y);
  const PixelRay y_minus = ray_at(x, y - step_px), y_plus = ray_at(x, y + step_px);
  if (!(x_minus.escaped && x_plus.escaped && y_minus.escaped && y_plus.escaped)) return image;
  const double scale = 1 / (2 * step_px);
  const Vec3 ds_dx = vec::scaled(scale, vec::minus(x_plus.source, x_minus.source));
  const Vec3 ds_dy = vec::scaled(scale, vec::minus(y_plus.source, y_minus.source));
  const Vec3 dr_dx = vec::scaled(scale, vec::minus(x_plus.camera, x_minus.camera));
  const Vec3 dr_dy = vec::scaled(scale, vec::minus(y_plus.camera, y_minus.camera));
  const Vec3 mean_source = vec::normalized(vec::plus(vec::plus(x_minus.source, x_plus.source),
                                                     vec::plus(y_minus.source, y_plus.source)));
  const Vec3 mean_camera = vec::normalized(vec::plus(vec::plus(x_minus.camera, x_plus.camera),
                                                     vec::plus(y_minus.camera, y_plus.camera)));
  const double camera_area = vec::dot(vec::cross(dr_dx, dr_dy), mean_camera);
  const double source_area = vec::dot(vec::cross(ds_dx, ds_dy), mean_source);
  if (!(std::abs(source_area) > 0) || !std::isfinite(camera_area)) return image;
  image.found = true;
  image.x = x;
  image.y = y;
  image.mu = std::abs(camera_area / source_area);
  image.parity = camera_area * source_area > 0 ? 1 : -1;
  image.g = (x_minus.g + x_plus.g + y_minus.g + y_plus.g) / 4;
  return image;
}

}  // namespace starlens::produce
