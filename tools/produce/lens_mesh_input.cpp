#include "lens_mesh_input.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "point_magnification.h"

namespace starlens::produce {
namespace {

constexpr std::uint64_t kRowsPerRead = 1 << 18;

}  // namespace

LensMesh load_lens_mesh(const LensmapReader& reader, const std::string& path,
                        const std::optional<IndexRange>& triangles) {
  const LensmapAttributes& attributes = reader.attributes();
  LensMesh mesh;
  mesh.width = static_cast<std::uint32_t>(attributes.width);
  mesh.height = static_cast<std::uint32_t>(attributes.height);
  mesh.projection = attributes.projection;
  if (mesh.projection == "pinhole")
    mesh.pinhole_focal_px = 0.5 * mesh.width / std::tan(0.5 * attributes.fov_deg * kDegree);

  const std::uint64_t vertices = reader.vertex_count();
  mesh.xy.reserve(vertices);
  mesh.direction.reserve(vertices);
  mesh.g.reserve(vertices);
  std::vector<std::uint8_t> escaped;
  escaped.reserve(vertices);
  for (std::uint64_t first = 0; first < vertices; first += kRowsPerRead) {
    for (const LensmapVertex& v :
         reader.read_vertices(first, std::min(kRowsPerRead, vertices - first))) {
      mesh.xy.push_back({v.x, v.y});
      mesh.direction.push_back(v.direction);
      mesh.g.push_back(v.g);
      escaped.push_back(v.status == 0);
    }
  }

  mesh.file_triangle_count = reader.triangle_count();
  if (mesh.file_triangle_count > UINT32_MAX)  // chunk headers number triangles in 32 bits
    throw_input_error(path, "/triangles/v", "more than 2^32 - 1 triangles");
  const IndexRange range = triangles.value_or(IndexRange{0, reader.triangle_count()});
  mesh.first_triangle = static_cast<std::uint32_t>(range.first);
  for (std::uint64_t first = range.first; first < range.end; first += kRowsPerRead) {
    const std::uint64_t count = std::min(kRowsPerRead, range.end - first);
    const std::vector<LensmapTriangle> rows = reader.read_triangles(first, count);
    for (std::uint64_t i = 0; i < count; ++i) {
      const LensmapTriangle& t = rows[i];
      for (const std::uint32_t v : t.v)
        if (!escaped[v])
          throw_input_error(path, "/triangles/v",
                            "row " + std::to_string(first + i) + ": kept triangle with vertex " +
                                std::to_string(v) + " that did not escape");
      mesh.triangles.push_back(t.v);
      mesh.mu.push_back(t.mu);
      mesh.parity.push_back(t.parity);
    }
  }
  mesh.motion = ObserverMotion(attributes.observer_velocity, "observer_vx/vy/vz");
  add_point_magnification(mesh, attributes, path);
  // The ring's images belong to no triangle: a run over part of the map (a replay of its
  // triangles) keeps the mesh's images of every order instead.
  if (triangles) mesh.photon_ring.reset();
  return mesh;
}

}  // namespace starlens::produce
