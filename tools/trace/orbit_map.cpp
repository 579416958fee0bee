#include "orbit_map.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "core/errors.h"

namespace starlens {
namespace {

constexpr std::uint64_t kBlockRows = 1 << 20;

std::string text_of(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace

void check_orbit_map_source(const LensmapAttributes& source, const LensmapAttributes& expected,
                            const std::string& file) {
  const auto same = [&](const char* field, const auto& have, const auto& want) {
    if (have == want) return;
    std::ostringstream why;
    why.precision(17);
    why << "is " << have << ", this frame's trace has " << want
        << " (--orbit-map takes a frame of the same path traced with the same flags)";
    throw_input_error(file, field, why.str());
  };
  if (source.path != expected.path)
    throw_input_error(file, "path",
                      "is not this path's file (--orbit-map takes a frame of the same path)");
  same("spacetime", source.spacetime, expected.spacetime);
  same("spin", text_of(source.spin), text_of(expected.spin));
  same("ray_azimuth", source.ray_azimuth, expected.ray_azimuth);
  same("projection", source.projection, expected.projection);
  same("fov_deg", text_of(source.fov_deg), text_of(expected.fov_deg));
  same("width", source.width, expected.width);
  same("height", source.height, expected.height);
  same("mesh_step", text_of(source.mesh_step), text_of(expected.mesh_step));
  same("mesh_tol", text_of(source.mesh_tol), text_of(expected.mesh_tol));
  same("mesh_max_source_deg", text_of(source.mesh_max_source_deg),
       text_of(expected.mesh_max_source_deg));
  same("mesh_max_depth", source.mesh_max_depth, expected.mesh_max_depth);
  // The camera follows from the path and the frame: on an orbit, the same in every frame.
  same("r_obs", text_of(source.r_obs), text_of(expected.r_obs));
  same("observer", source.observer, expected.observer);
  same("inclination_deg", text_of(source.inclination_deg), text_of(expected.inclination_deg));
  same("look_dlon_deg", text_of(source.look_dlon_deg), text_of(expected.look_dlon_deg));
  same("look_dlat_deg", text_of(source.look_dlat_deg), text_of(expected.look_dlat_deg));
  same("roll_deg", text_of(source.roll_deg), text_of(expected.roll_deg));
}

Vec3 rotate_about(const Vec3& v, const Vec3& axis, double angle) {
  if (angle == 0) return v;
  const double c = std::cos(angle), s = std::sin(angle);
  const Vec3 k = cross(axis, v);
  const double along = dot(axis, v) * (1 - c);
  return {v[0] * c + k[0] * s + axis[0] * along, v[1] * c + k[1] * s + axis[1] * along,
          v[2] * c + k[2] * s + axis[2] * along};
}

RotatedMapCounts write_rotated_lensmap(const LensmapReader& source, const Vec3& axis, double angle,
                                       const std::filesystem::path& path,
                                       const std::string& display_path,
                                       LensmapAttributes attributes) {
  attributes.dropped = source.attributes().dropped;
  attributes.shadow_triangles = source.attributes().shadow_triangles;
  RotatedMapCounts counts;
  counts.vertices = source.vertex_count();
  counts.triangles = source.triangle_count();
  LensmapWriter writer(path, display_path, counts.vertices, counts.triangles);
  std::vector<double> xy, dir, g;
  std::vector<std::uint8_t> status;
  for (std::uint64_t first = 0; first < counts.vertices; first += kBlockRows) {
    const std::uint64_t count = std::min(kBlockRows, counts.vertices - first);
    const std::vector<LensmapVertex> rows = source.read_vertices(first, count);
    xy.resize(2 * count);
    dir.resize(3 * count);
    g.resize(count);
    status.resize(count);
    for (std::uint64_t k = 0; k < count; ++k) {
      const LensmapVertex& v = rows[k];
      xy[2 * k] = v.x;
      xy[2 * k + 1] = v.y;
      const Vec3 turned = rotate_about(v.direction, axis, angle);
      std::copy(turned.begin(), turned.end(), dir.begin() + std::ptrdiff_t(3 * k));
      g[k] = v.g;
      status[k] = v.status;
    }
    writer.write_vertices(first, count, xy.data(), dir.data(), g.data(), status.data());
  }
  std::vector<std::uint32_t> vertices;
  std::vector<double> mu;
  std::vector<std::int8_t> parity;
  std::vector<std::uint8_t> depth;
  counts.mu_min = std::numeric_limits<double>::infinity();
  counts.mu_max = -counts.mu_min;
  for (std::uint64_t first = 0; first < counts.triangles; first += kBlockRows) {
    const std::uint64_t count = std::min(kBlockRows, counts.triangles - first);
    const std::vector<LensmapTriangle> rows = source.read_triangles(first, count);
    vertices.resize(3 * count);
    mu.resize(count);
    parity.resize(count);
    depth.resize(count);
    for (std::uint64_t k = 0; k < count; ++k) {
      const LensmapTriangle& t = rows[k];
      std::copy(t.v.begin(), t.v.end(), vertices.begin() + std::ptrdiff_t(3 * k));
      mu[k] = t.mu;
      parity[k] = t.parity;
      depth[k] = t.depth;
      counts.mirrored_triangles += t.parity < 0;
      counts.mu_min = std::min(counts.mu_min, t.mu);
      counts.mu_max = std::max(counts.mu_max, t.mu);
    }
    writer.write_triangles(first, count, vertices.data(), mu.data(), parity.data(), depth.data());
  }
  writer.finish(attributes);
  return counts;
}

}  // namespace starlens
