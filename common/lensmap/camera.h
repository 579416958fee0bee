#pragma once
// The camera of docs/design.md section 3: a local orthonormal frame of the static observer
// (forward, right, up as ICRS unit vectors) and a projection between continuous pixel coordinates
// and ray directions. Pixel (i, j) covers [i, i+1) x [j, j+1); x grows right, y down.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "sky/frames.h"

namespace starlens {

enum class Projection { pinhole, equirect, fisheye };

// "pinhole", "equirect", "fisheye"; parse throws InputError naming --projection.
Projection parse_projection(const std::string& name);
std::string projection_name(Projection projection);
// The narrowest field of view, degrees (3.6 arcsec): a lens map's fov_deg below it is refused as
// corrupt, and trace does not write one.
inline constexpr double kMinFovDegrees = 1e-3;

// The field of view a projection uses when --fov is not given (equirect is always 360).
double default_fov_degrees(Projection projection);

struct CameraAxes {
  Vec3 forward, right, up;
};

// forward = look; up = `north` projected onto the plane normal to forward (`x_axis` instead
// when forward is within 1e-6 of the pole); right = forward x up (so with north up, east is
// to the left, as on the sky); then the arrows of right and up, as drawn on screen, turned
// counter-clockwise by roll (roll 90 degrees: north points left, the old right points up).
CameraAxes camera_axes(const Vec3& look, const Vec3& north, const Vec3& x_axis,
                       double roll_radians);

class Camera {
 public:
  // Throws InputError naming the flag when the size is zero or too large, or the field of
  // view is out of range for the projection (pinhole (0, 180), fisheye (0, 360],
  // equirect exactly 360).
  Camera(const CameraAxes& axes, Projection projection, double fov_degrees, std::uint32_t width,
         std::uint32_t height);

  // Unit ray direction at continuous pixel coordinates (x, y); pixel centres are at +0.5.
  Vec3 direction(double x, double y) const;
  // The inverse: pixel coordinates of a direction, or nullopt where the projection does not
  // see it (behind a pinhole camera). Fisheye: unique within pi of forward.
  std::optional<std::array<double, 2>> pixel(const Vec3& direction) const;

  const CameraAxes& axes() const { return axes_; }
  Projection projection() const { return projection_; }
  double fov_degrees() const { return fov_degrees_; }
  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  // Pixels per unit of tan(angle) (pinhole) or per radian (fisheye): F and F' of docs/design.md
  // section 3.
  double focal_length() const { return focal_; }

 private:
  CameraAxes axes_;
  Projection projection_;
  double fov_degrees_;
  std::uint32_t width_, height_;
  double focal_ = 0;
};

}  // namespace starlens
