#pragma once
// Builds a lens map the way starlens-trace does (mesh refinement, arrays, lensmap.h5 written
// and read back through the reader the producer uses), for the mesh tests.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "lensmap/camera.h"
#include "lensmap/lensmap_file.h"
#include "mesh_refiner.h"
#include "spacetime/spacetime.h"

namespace starlens::test {

struct MapSetup {
  std::string spacetime = "schwarzschild";
  double r_obs = 30;
  Vec3 hole{1, 0, 0};
  Vec3 look{1, 0, 0};
  double roll_degrees = 0;
  Projection projection = Projection::pinhole;
  double fov_degrees = 60;
  std::uint32_t width = 480, height = 270;
  MeshParameters mesh{4, 0.01, kDegree, 10};
};

struct TracedMap {
  std::unique_ptr<Spacetime> spacetime;
  std::unique_ptr<Camera> camera;
  RefinedMesh refined;
  std::vector<LensmapVertex> vertices;
  std::vector<LensmapTriangle> triangles;
};

TracedMap trace_map(const MapSetup& setup);

// A temporary folder removed at the end of the test.
struct TemporaryFolder {
  std::filesystem::path path;
  TemporaryFolder();
  ~TemporaryFolder();
};

}  // namespace starlens::test
