#include "mesh_fixture.h"

#include <unistd.h>

#include "lensmap_output.h"

namespace starlens::test {

TemporaryFolder::TemporaryFolder() {
  static int counter = 0;
  path = std::filesystem::temp_directory_path() /
         ("starlens_trace_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(path);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

TracedMap trace_map(const MapSetup& setup) {
  TracedMap map;
  map.spacetime = make_spacetime(setup.spacetime, {setup.r_obs, setup.hole});
  const CameraAxes axes =
      camera_axes(setup.look, {0, 0, 1}, {1, 0, 0}, setup.roll_degrees * kDegree);
  map.camera = std::make_unique<Camera>(axes, setup.projection, setup.fov_degrees, setup.width,
                                        setup.height);
  map.refined = refine_lens_mesh(*map.camera, *map.spacetime, setup.mesh, nullptr);
  LensmapAttributes attributes;
  attributes.spacetime = setup.spacetime;
  attributes.r_obs = setup.r_obs;
  attributes.bh_frame = "icrs";
  attributes.projection = projection_name(setup.projection);
  attributes.fov_deg = setup.fov_degrees;
  attributes.width = setup.width;
  attributes.height = setup.height;
  attributes.mesh_step = setup.mesh.step;
  attributes.mesh_tol = setup.mesh.tolerance;
  attributes.mesh_max_source_deg = setup.mesh.max_source_radians / kDegree;
  attributes.mesh_max_depth = setup.mesh.max_depth;
  TemporaryFolder folder;
  const auto file = folder.path / "lensmap.h5";
  write_refined_mesh(file, file.string(), attributes, map.refined);
  const LensmapReader reader(file);
  map.vertices = reader.read_vertices(0, reader.vertex_count());
  map.triangles = reader.read_triangles(0, reader.triangle_count());
  return map;
}

}  // namespace starlens::test
