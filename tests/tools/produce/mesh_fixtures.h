#pragma once
// Lens meshes for the producer's tests, made here from docs/design.md section 3's formulas (not
// from the trace stage): a camera (pinhole_camera.h, frame_camera.h), a regular grid of two
// triangles per cell, and each vertex's source direction from a spacetime.
#include <cmath>
#include <functional>

#include "frame_camera.h"
#include "lens_mesh.h"
#include "pinhole_camera.h"
#include "sky/frames.h"
#include "spacetime/spacetime.h"

namespace starlens::produce::testing {

// Solid angle of the spherical triangle (a, b, c) (Van Oosterom and Strackee 1983), signed.
inline double signed_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double numerator = dot(a, cross(b, c));
  const double denominator = 1 + dot(a, b) + dot(b, c) + dot(c, a);
  return 2 * std::atan2(numerator, denominator);
}

// A grid mesh of `step` px over the frame of `camera` (PinholeCamera or FrameCamera); vertices
// traced through `spacetime`; triangles kept when all three vertices escaped and their source
// directions lie within `max_source_rad` of each other (trace's --mesh-max-source).
template <class CameraModel>
LensMesh grid_mesh(const CameraModel& camera, const Spacetime& spacetime, double step,
                   double max_source_rad = 1.0 * kDegree) {
  LensMesh mesh;
  mesh.width = camera.width;
  mesh.height = camera.height;
  mesh.projection = camera.projection_name();
  mesh.pinhole_focal_px = camera.pinhole_focal_px();
  const auto columns = static_cast<std::uint32_t>(std::ceil(camera.width / step)) + 1;
  const auto rows = static_cast<std::uint32_t>(std::ceil(camera.height / step)) + 1;
  std::vector<Vec3> rays;
  for (std::uint32_t j = 0; j < rows; ++j)
    for (std::uint32_t i = 0; i < columns; ++i) {
      const double x = std::min(i * step, double(camera.width));
      const double y = std::min(j * step, double(camera.height));
      const Vec3 ray = camera.ray(x, y);
      const TracedRay traced = spacetime.trace(ray);
      mesh.xy.push_back({x, y});
      mesh.direction.push_back(traced.source_direction);
      mesh.g.push_back(traced.g);
      rays.push_back(ray);
    }
  const auto vertex = [&](std::uint32_t i, std::uint32_t j) { return j * columns + i; };
  const auto escaped = [&](std::uint32_t v) { return std::isfinite(mesh.direction[v][0]); };
  const auto add = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (!escaped(a) || !escaped(b) || !escaped(c)) return;
    const auto& d = mesh.direction;
    const auto angle = [](const Vec3& p, const Vec3& q) {
      return std::atan2(norm(cross(p, q)), dot(p, q));
    };
    if (angle(d[a], d[b]) > max_source_rad || angle(d[b], d[c]) > max_source_rad ||
        angle(d[c], d[a]) > max_source_rad)
      return;
    const double image = signed_solid_angle(rays[a], rays[b], rays[c]);
    const double source = signed_solid_angle(d[a], d[b], d[c]);
    mesh.triangles.push_back({a, b, c});
    mesh.mu.push_back(std::abs(image / source));
    mesh.parity.push_back(static_cast<std::int8_t>(image * source > 0 ? 1 : -1));
  };
  // Wound as lensmap.h5's: (x1-x0)(y2-y0) - (x2-x0)(y1-y0) > 0 in pixels.
  for (std::uint32_t j = 0; j + 1 < rows; ++j)
    for (std::uint32_t i = 0; i + 1 < columns; ++i) {
      add(vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1));
      add(vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1));
    }
  mesh.file_triangle_count = mesh.triangles.size();
  return mesh;
}

}  // namespace starlens::produce::testing
