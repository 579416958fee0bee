#pragma once
// lensmap.h5 (docs/design.md section 3): the traced image-plane mesh. Vertices carry pixel
// position, asymptotic source direction (ICRS), frequency ratio g and ray status; triangles carry
// three vertex indices wound positively in pixels, magnification mu and parity. Layout and
// attributes are documented in docs/formats/lensmap.md. Datasets are chunked along rows, so a
// reader of a row range touches only that range.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/hdf5_file.h"
#include "sky/frames.h"

namespace starlens {

inline constexpr char kLensmapFormat[] = "starlens-lensmap";
// 2: the vertex status as an HDF5 enum, units and descriptions on every dataset. Version 1
// maps (status as uint8) are still read.
inline constexpr std::int64_t kLensmapVersion = 2;

// Root attributes: what was traced, from where, with which camera and mesh.
struct LensmapAttributes {
  std::string spacetime;  // "minkowski" | "schwarzschild" | "kerr"
  double mass = 1;        // lengths are in units of M
  double r_obs = 0;
  // How the rays' azimuths were evaluated: "series", "closed-form" (also maps written before
  // the attribute existed) or "none" (Minkowski).
  std::string ray_azimuth = "closed-form";
  std::string bh_frame;  // "galactic" | "icrs": where the hole was placed, and "up"
  double bh_lon_deg = 0, bh_lat_deg = 0;  // in bh_frame
  double bh_ra_deg = 0, bh_dec_deg = 0;   // the same direction in ICRS
  double look_dlon_deg = 0, look_dlat_deg = 0;
  double look_ra_deg = 0, look_dec_deg = 0;  // the camera's forward direction in ICRS
  double roll_deg = 0;
  // The camera's motion (spacetime/observer_motion.h): "static" (also maps written before the
  // attributes existed), "infall", "orbit" or "velocity", and its velocity in units of c along
  // the ICRS axes of the static observer's frame.
  std::string observer = "static";
  Vec3 observer_velocity{0, 0, 0};
  // Kerr only (written for spacetime "kerr"): the spin a (units of M), the observer's
  // inclination from the spin axis and the position angle of the spin axis's projection on the
  // sky (from the placement frame's north through east), degrees. For Kerr the observer
  // "static" is at rest in Boyer-Lindquist coordinates, "zamo" the zero-angular-momentum
  // observer, and observer_velocity is measured by the ZAMO.
  double spin = 0, inclination_deg = 90, spin_pa_deg = 0;
  // Traced from a camera path (starlens-trace --path, docs/usage/animation.md): the path file's
  // text, the frame and the camera's proper time there (M); written only when path is not empty.
  std::string path;
  std::int64_t path_frame = 0;
  double path_time = 0;
  std::string projection;  // "pinhole" | "equirect" | "fisheye"
  double fov_deg = 0;
  std::int64_t width = 0, height = 0;
  double mesh_step = 0, mesh_tol = 0, mesh_max_source_deg = 0;
  std::int64_t mesh_max_depth = 0;
  // Triangles not written, by reason ("failed", "status", "orientation", "tolerance",
  // "source_size", "degenerate"), and the count of triangles inside the shadow (all three
  // vertices captured).
  std::map<std::string, std::int64_t> dropped;
  std::int64_t shadow_triangles = 0;
};

// The datasets, structure of arrays as stored: xy is N x 2, dir N x 3, v M x 3.
struct LensmapArrays {
  std::vector<double> xy, dir, g;
  std::vector<std::uint8_t> status;
  std::vector<std::uint32_t> triangle_vertices;
  std::vector<double> mu;
  std::vector<std::int8_t> parity;
  std::vector<std::uint8_t> depth;  // refinement depth of each triangle (0 = base grid)
  std::uint64_t vertex_count() const { return g.size(); }
  std::uint64_t triangle_count() const { return mu.size(); }
};

// Writes lensmap.h5 at `path` (the AtomicOutput's temporary path) in blocks of rows, so a map
// never has to be held whole in memory; messages name `display_path`. Deterministic bytes:
// no object timestamps. Every failure throws RunFailure.
class LensmapWriter {
 public:
  LensmapWriter(const std::filesystem::path& path, const std::string& display_path,
                std::uint64_t vertex_count, std::uint64_t triangle_count);
  // Rows [first, first + count): xy holds 2 values per row, dir 3, the others 1.
  void write_vertices(std::uint64_t first, std::uint64_t count, const double* xy, const double* dir,
                      const double* g, const std::uint8_t* status);
  void write_triangles(std::uint64_t first, std::uint64_t count, const std::uint32_t* v,
                       const double* mu, const std::int8_t* parity, const std::uint8_t* depth);
  // Writes the root attributes and flushes; call once, after every row.
  void finish(const LensmapAttributes& attributes);

 private:
  void write_block(const char* name, hid_t memory_type, std::uint64_t first, std::uint64_t count,
                   std::uint64_t columns, const void* data);
  h5::File file_;
};

// A whole map at once (tests, small maps).
void write_lensmap(const std::filesystem::path& path, const std::string& display_path,
                   const LensmapAttributes& attributes, const LensmapArrays& arrays);

// /vertices/status's type: an enum of uint8 {escaped 0, captured 1, failed 2} (RayStatus).
h5::Handle vertex_status_type();

struct LensmapVertex {
  double x = 0, y = 0;
  Vec3 direction{};  // NaN unless escaped
  double g = 0;
  std::uint8_t status = 0;  // 0 escaped, 1 captured, 2 failed (RayStatus)
};

struct LensmapTriangle {
  std::array<std::uint32_t, 3> v{};
  double mu = 0;
  std::int8_t parity = 0;
  std::uint8_t depth = 0;
};

// Reads lensmap.h5 by row ranges (what the producer uses). The constructor checks the format
// and version, that every dataset is there with consistent shapes, and reads the attributes;
// reads check indices, statuses and parities. Every problem is an InputError naming the file
// and the object.
class LensmapReader {
 public:
  explicit LensmapReader(const std::filesystem::path& path);

  const LensmapAttributes& attributes() const { return attributes_; }
  std::uint64_t vertex_count() const { return vertex_count_; }
  std::uint64_t triangle_count() const { return triangle_count_; }

  std::vector<LensmapVertex> read_vertices(std::uint64_t first, std::uint64_t count) const;
  std::vector<LensmapTriangle> read_triangles(std::uint64_t first, std::uint64_t count) const;

 private:
  h5::File file_;
  LensmapAttributes attributes_;
  std::uint64_t vertex_count_ = 0, triangle_count_ = 0;
  // The memory type /vertices/status is read as: uint8 (version 1) or the status enum.
  h5::Handle status_type_;
};

}  // namespace starlens
