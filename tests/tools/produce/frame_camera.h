#pragma once
// docs/design.md section 3's three projections (pinhole, equirect, fisheye), written out here
// for the tests independently of the lens-map module's camera: forward f, up = ICRS north
// projected normal to f (ICRS x if f is at a pole), right = f x u, no roll; dx = x - W/2,
// dy = y - H/2.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>

#include "sky/frames.h"

namespace starlens::produce::testing {

struct FrameCamera {
  enum class Kind { pinhole, equirect, fisheye };
  Kind kind;
  Vec3 forward;
  Vec3 right;
  Vec3 up;
  // Pinhole: F = (W/2) / tan(fov/2), px per unit of tan(angle); fisheye: F' = (W/2) / (fov/2),
  // px per radian from f; equirect: W / (2 pi), px per radian of longitude.
  double focal;
  std::uint32_t width;
  std::uint32_t height;

  FrameCamera(Kind projection, const Vec3& look, double fov_deg, std::uint32_t w, std::uint32_t h)
      : kind(projection), forward(normalized(look)), width(w), height(h) {
    Vec3 pole{0, 0, 1};
    if (norm(cross(pole, forward)) < 1e-6) pole = {1, 0, 0};
    up = normalized(Vec3{pole[0] - dot(pole, forward) * forward[0],
                         pole[1] - dot(pole, forward) * forward[1],
                         pole[2] - dot(pole, forward) * forward[2]});
    right = cross(forward, up);
    const double half_fov = 0.5 * fov_deg * kDegree;
    focal = kind == Kind::pinhole   ? 0.5 * w / std::tan(half_fov)
            : kind == Kind::fisheye ? 0.5 * w / half_fov
                                    : w / (2 * std::numbers::pi);
  }

  // The lens map's name of the projection (its `projection` attribute).
  static std::string name_of(Kind projection) {
    return projection == Kind::pinhole   ? "pinhole"
           : projection == Kind::fisheye ? "fisheye"
                                         : "equirect";
  }
  std::string projection_name() const { return name_of(kind); }
  double pinhole_focal_px() const { return kind == Kind::pinhole ? focal : 0; }

  // Unit ray direction at pixel coordinates (x, y).
  Vec3 ray(double x, double y) const {
    const double dx = x - 0.5 * width, dy = y - 0.5 * height;
    Vec3 d{};
    if (kind == Kind::pinhole) {
      for (int k = 0; k < 3; ++k) d[k] = forward[k] + dx / focal * right[k] - dy / focal * up[k];
    } else if (kind == Kind::fisheye) {
      const double radius = std::hypot(dx, dy);
      if (radius == 0) return forward;
      const double angle = radius / focal;
      for (int k = 0; k < 3; ++k)
        d[k] = std::cos(angle) * forward[k] +
               std::sin(angle) * (dx / radius * right[k] - dy / radius * up[k]);
    } else {
      const double longitude = 2 * std::numbers::pi * dx / width;
      const double latitude = -std::numbers::pi * dy / height;
      for (int k = 0; k < 3; ++k)
        d[k] = std::cos(latitude) *
                   (std::cos(longitude) * forward[k] + std::sin(longitude) * right[k]) +
               std::sin(latitude) * up[k];
    }
    return normalized(d);
  }

  // The pixel a direction projects to (ray's inverse); NaN behind a pinhole camera. Fisheye:
  // unique within pi of f; equirect: x in [0, W], x = 0 and x = W being the same longitude.
  std::array<double, 2> project(const Vec3& d) const {
    const double along = dot(d, forward), across_r = dot(d, right), across_u = dot(d, up);
    if (kind == Kind::pinhole) {
      if (!(along > 0)) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan};
      }
      return {0.5 * width + focal * across_r / along, 0.5 * height - focal * across_u / along};
    }
    if (kind == Kind::fisheye) {
      const double across = std::hypot(across_r, across_u);
      if (across == 0) return {0.5 * width, 0.5 * height};
      const double radius = focal * std::atan2(across, along);
      return {0.5 * width + radius * across_r / across, 0.5 * height - radius * across_u / across};
    }
    const double longitude = std::atan2(across_r, along);
    const double latitude = std::atan2(across_u, std::hypot(along, across_r));
    return {0.5 * width + width * longitude / (2 * std::numbers::pi),
            0.5 * height - height * latitude / std::numbers::pi};
  }

  // The largest angle one pixel spans anywhere in the frame, rad: at the centre for pinhole
  // (atan(1 / F)) and fisheye (1 / F' along a radius, less across it), along the equator for
  // equirect (2 pi / W across, pi / H up and down).
  double pixel_angle() const {
    if (kind == Kind::pinhole) return std::atan(1 / focal);
    if (kind == Kind::fisheye) return 1 / focal;
    return std::max(2 * std::numbers::pi / width, std::numbers::pi / height);
  }

  // Distance in pixels between two pixel positions; equirect's columns wrap (x and x + W are
  // the same longitude).
  double pixel_distance(double x0, double y0, double x1, double y1) const {
    double dx = std::abs(x0 - x1);
    if (kind == Kind::equirect) dx = std::min(dx, width - dx);
    return std::hypot(dx, y0 - y1);
  }
};

}  // namespace starlens::produce::testing
