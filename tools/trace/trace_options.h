#pragma once
// starlens-trace's flags (docs/design.md section 3) and their resolution into an observer, a camera
// and mesh parameters, with every bad value reported as InputError naming the flag.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tool_main.h"
#include "lensmap/camera.h"
#include "lensmap/lensmap_file.h"
#include "mesh_refiner.h"
#include "spacetime/spacetime.h"

namespace starlens {

struct TraceOptions {
  std::string spacetime = "schwarzschild";
  double r_obs = 30;
  std::optional<double> bh_l, bh_b, bh_ra, bh_dec;
  double look_dlon = 0, look_dlat = 0, roll = 0;
  std::optional<double> fov;
  std::uint32_t width = 1920, height = 1080;
  std::string projection = "pinhole";
  std::string ray_azimuth = "series";
  std::string observer = "static";
  std::optional<double> orbit_pa;
  std::optional<std::string> orbit_direction;  // kerr orbits: prograde | retrograde
  std::vector<double> velocity;  // --velocity: toward the hole, north, east (units of c)
  std::optional<double> spin, inclination, spin_pa;  // Kerr: A, degrees, degrees
  double mesh_step = 4, mesh_tol = 0.01, mesh_max_source = 1;
  int mesh_max_depth = 12;
  std::string output;
  // --path/--frame (docs/usage/animation.md): the camera of one frame of a path file.
  std::string path;
  std::optional<std::int64_t> frame;
  // --orbit-map (orbit_map.h): this frame's map from another frame's of the same circular orbit.
  std::string orbit_map;
  CommonOptions common;
};

void add_trace_flags(CLI::App& app, TraceOptions& options);

struct TraceSetup {
  Observer observer;
  ObserverKind observer_kind = ObserverKind::at_rest;
  RayAzimuth ray_azimuth = RayAzimuth::series;
  CameraAxes axes;
  Projection projection = Projection::pinhole;
  double fov_degrees = 0;
  MeshParameters mesh;
  LensmapAttributes attributes;  // everything but the counts
};

// The flags a camera path sets, refused alongside --path.
const std::vector<std::string>& path_set_flags();
// Reads --path and sets the observer and camera flags to --frame's camera (InputError naming
// the path file and its field for a bad path, or the flag); the caller records the result in
// the lens map's attributes.
struct PathFrame {
  std::string text;
  std::int64_t frame = 0;
  double time = 0;
  double phi = 0;  // the camera's azimuth about the path's pole (radians)
  // A circular orbit whose camera keeps its orientation to the hole (no fixed look_at): every
  // frame's sky is another's turned about the path's pole (orbit_map.h).
  bool rigid_orbit = false;
  std::string sky_frame;  // the path's frame: "galactic" | "icrs"
};
PathFrame apply_camera_path(TraceOptions& options);

// Checks the values and places hole and camera on the sky.
TraceSetup resolve_trace_options(const TraceOptions& options);

}  // namespace starlens
