#include "lensmap/camera.h"

#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "core/frame_limits.h"
#include "spacetime/vector_ops.h"

namespace starlens {
namespace {

Vec3 scaled_sum(double a, const Vec3& u, double b, const Vec3& v) {
  return {a * u[0] + b * v[0], a * u[1] + b * v[1], a * u[2] + b * v[2]};
}

// The part of v perpendicular to the unit vector n, normalised (length returned separately).
Vec3 perpendicular_part(const Vec3& v, const Vec3& n, double& length) {
  const Vec3 part = scaled_sum(1, v, -dot(v, n), n);
  length = norm(part);
  return {part[0] / length, part[1] / length, part[2] / length};
}

[[noreturn]] void bad_flag(const std::string& flag, const std::string& reason) {
  throw_input_error("(arguments)", flag, reason);
}

}  // namespace

Projection parse_projection(const std::string& name) {
  if (name == "pinhole") return Projection::pinhole;
  if (name == "equirect") return Projection::equirect;
  if (name == "fisheye") return Projection::fisheye;
  bad_flag("--projection", "unknown projection '" + name + "' (pinhole, equirect or fisheye)");
}

std::string projection_name(Projection projection) {
  switch (projection) {
    case Projection::pinhole:
      return "pinhole";
    case Projection::equirect:
      return "equirect";
    case Projection::fisheye:
      return "fisheye";
  }
  return "?";
}

double default_fov_degrees(Projection projection) {
  return projection == Projection::pinhole ? 60 : projection == Projection::fisheye ? 180 : 360;
}

CameraAxes camera_axes(const Vec3& look, const Vec3& north, const Vec3& x_axis,
                       double roll_radians) {
  CameraAxes axes;
  axes.forward = normalized(look);
  double length = 0;
  axes.up = perpendicular_part(north, axes.forward, length);
  if (length < 1e-6) axes.up = perpendicular_part(x_axis, axes.forward, length);
  axes.right = cross(axes.forward, axes.up);
  // The arrows of right and up, as drawn on screen, turn counter-clockwise by the roll: the
  // sky direction that was to the right appears above (--roll 90 puts north to the left).
  const double c = std::cos(roll_radians), s = std::sin(roll_radians);
  const Vec3 right = scaled_sum(c, axes.right, -s, axes.up);
  const Vec3 up = scaled_sum(s, axes.right, c, axes.up);
  axes.right = right;
  axes.up = up;
  return axes;
}

Camera::Camera(const CameraAxes& axes, Projection projection, double fov_degrees,
               std::uint32_t width, std::uint32_t height)
    : axes_(axes),
      projection_(projection),
      fov_degrees_(fov_degrees),
      width_(width),
      height_(height) {
  if (width == 0 || width > kMaxFrameSide)
    bad_flag("--width",
             "must be 1.." + std::to_string(kMaxFrameSide) + ", got " + std::to_string(width));
  if (height == 0 || height > kMaxFrameSide)
    bad_flag("--height",
             "must be 1.." + std::to_string(kMaxFrameSide) + ", got " + std::to_string(height));
  check_frame_size("(arguments)", "--width", "--height", width, height);
  const double fov = fov_degrees * kDegree;
  switch (projection) {
    case Projection::pinhole:
      if (!(fov_degrees >= kMinFovDegrees && fov_degrees < 180))
        bad_flag("--fov",
                 "pinhole needs 0.001 <= fov < 180 degrees, got " + std::to_string(fov_degrees));
      focal_ = (width / 2.0) / std::tan(fov / 2);
      break;
    case Projection::fisheye:
      if (!(fov_degrees >= kMinFovDegrees && fov_degrees <= 360))
        bad_flag("--fov",
                 "fisheye needs 0.001 <= fov <= 360 degrees, got " + std::to_string(fov_degrees));
      focal_ = (width / 2.0) / (fov / 2);
      break;
    case Projection::equirect:
      if (fov_degrees != 360)
        bad_flag("--fov",
                 "equirect always covers 360 x 180 degrees, got " + std::to_string(fov_degrees));
      focal_ = width / (2 * std::numbers::pi);
      break;
  }
}

Vec3 Camera::direction(double x, double y) const {
  const double dx = x - width_ / 2.0, dy = y - height_ / 2.0;
  const auto& [f, r, u] = axes_;
  switch (projection_) {
    case Projection::pinhole: {
      const Vec3 on_screen = scaled_sum(dx / focal_, r, -dy / focal_, u);
      return normalized({f[0] + on_screen[0], f[1] + on_screen[1], f[2] + on_screen[2]});
    }
    case Projection::equirect: {
      const double longitude = 2 * std::numbers::pi * dx / width_,
                   latitude = -std::numbers::pi * dy / height_;
      const Vec3 level = scaled_sum(std::cos(longitude), f, std::sin(longitude), r);
      return normalized(scaled_sum(std::cos(latitude), level, std::sin(latitude), u));
    }
    case Projection::fisheye: {
      const double radius = std::hypot(dx, dy);
      if (radius == 0) return f;
      const double angle = radius / focal_;
      const Vec3 across = scaled_sum(dx / radius, r, -dy / radius, u);
      return normalized(scaled_sum(std::cos(angle), f, std::sin(angle), across));
    }
  }
  return f;
}

std::optional<std::array<double, 2>> Camera::pixel(const Vec3& direction) const {
  const auto& [f, r, u] = axes_;
  // Inline dot products (the producer projects every point-lens image): the same arithmetic.
  const double along = vec::dot(direction, f), right = vec::dot(direction, r),
               up = vec::dot(direction, u);
  double dx = 0, dy = 0;
  switch (projection_) {
    case Projection::pinhole:
      if (along <= 0) return std::nullopt;
      dx = focal_ * right / along;
      dy = -focal_ * up / along;
      break;
    case Projection::equirect:
      dx = std::atan2(right, along) * width_ / (2 * std::numbers::pi);
      dy = -std::atan2(up, std::hypot(along, right)) * height_ / std::numbers::pi;
      break;
    case Projection::fisheye: {
      const double across = std::hypot(right, up);
      if (across > 0) {
        const double radius = focal_ * std::atan2(across, along);
        dx = radius * right / across;
        dy = -radius * up / across;
      }
      break;
    }
  }
  return std::array<double, 2>{width_ / 2.0 + dx, height_ / 2.0 + dy};
}

}  // namespace starlens
