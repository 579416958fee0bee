#pragma once
// docs/design.md section 3's pinhole camera, written out here for the tests (independently of the
// lens-map module's camera): forward f, up = ICRS north projected normal to f, right = f x u.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "sky/frames.h"

namespace starlens::produce::testing {

// docs/design.md section 3's pinhole camera looking along `forward`, with ICRS north up.
struct PinholeCamera {
  Vec3 forward;
  Vec3 right;
  Vec3 up;
  double focal;  // F = (W/2) / tan(fov/2), px
  std::uint32_t width;
  std::uint32_t height;

  PinholeCamera(const Vec3& look, double fov_deg, std::uint32_t w, std::uint32_t h)
      : forward(normalized(look)), width(w), height(h) {
    const Vec3 north{0, 0, 1};
    up = normalized(Vec3{north[0] - dot(north, forward) * forward[0],
                         north[1] - dot(north, forward) * forward[1],
                         north[2] - dot(north, forward) * forward[2]});
    right = cross(forward, up);
    focal = 0.5 * w / std::tan(0.5 * fov_deg * kDegree);
  }
  Vec3 ray(double x, double y) const {
    const double dx = (x - 0.5 * width) / focal;
    const double dy = (y - 0.5 * height) / focal;
    return normalized({forward[0] + dx * right[0] - dy * up[0],
                       forward[1] + dx * right[1] - dy * up[1],
                       forward[2] + dx * right[2] - dy * up[2]});
  }
  std::string projection_name() const { return "pinhole"; }
  double pinhole_focal_px() const { return focal; }
  // The pixel a direction projects to (its inverse).
  std::array<double, 2> project(const Vec3& d) const {
    const double depth = dot(d, forward);
    return {0.5 * width + focal * dot(d, right) / depth, 0.5 * height - focal * dot(d, up) / depth};
  }
};

}  // namespace starlens::produce::testing
