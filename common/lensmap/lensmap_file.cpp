#include "lensmap/lensmap_file.h"

#include <charconv>
#include <cmath>

#include "core/errors.h"
#include "core/frame_limits.h"
#include "core/hdf5_description.h"
#include "core/hdf5_error.h"
#include "lensmap/camera.h"

namespace starlens {
namespace {

constexpr std::uint64_t kChunkRows = 1 << 16;
const char* const kDropReasons[] = {"failed",    "status",      "orientation",
                                    "tolerance", "source_size", "degenerate"};

// Object-creation properties without timestamps, so equal maps give equal bytes.
h5::Handle untimed(hid_t property_class) {
  h5::Handle properties(H5Pcreate(property_class));
  H5Pset_obj_track_times(properties.get(), false);
  return properties;
}

void write_group(const h5::File& file, const std::string& name) {
  const h5::Handle properties = untimed(H5P_GROUP_CREATE);
  h5::Handle group(H5Gcreate2(file.id(), name.c_str(), H5P_DEFAULT, properties.get(), H5P_DEFAULT));
  if (!group.valid()) throw_run_failure(file.path, "cannot create group " + name);
}

// A row-chunked dataset (uncompressed: deflate would cost more time than the map takes to
// trace, and reads of a row range stay cheap) of `columns` (0: 1-D) values per row.
void create_rows(const h5::File& file, const std::string& name, hid_t file_type, std::uint64_t rows,
                 std::uint64_t columns) {
  const int rank = columns > 0 ? 2 : 1;
  const hsize_t dims[2] = {rows, columns};
  h5::Handle space(H5Screate_simple(rank, dims, nullptr));
  h5::Handle properties = untimed(H5P_DATASET_CREATE);
  if (rows > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(kChunkRows, rows), columns};
    H5Pset_chunk(properties.get(), rank, chunk);
  }
  h5::Handle dataset(H5Dcreate2(file.id(), name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                properties.get(), H5P_DEFAULT));
  if (!dataset.valid()) throw_run_failure(file.path, "cannot create dataset " + name);
}

void write_attributes(const h5::File& file, const LensmapAttributes& a) {
  h5::write_attribute(file, "format", std::string(kLensmapFormat));
  h5::write_attribute(file, "version", kLensmapVersion);
  h5::write_attribute(file, "spacetime", a.spacetime);
  const std::pair<const char*, double> numbers[] = {{"mass", a.mass},
                                                    {"r_obs", a.r_obs},
                                                    {"bh_lon_deg", a.bh_lon_deg},
                                                    {"bh_lat_deg", a.bh_lat_deg},
                                                    {"bh_ra_deg", a.bh_ra_deg},
                                                    {"bh_dec_deg", a.bh_dec_deg},
                                                    {"look_dlon_deg", a.look_dlon_deg},
                                                    {"look_dlat_deg", a.look_dlat_deg},
                                                    {"look_ra_deg", a.look_ra_deg},
                                                    {"look_dec_deg", a.look_dec_deg},
                                                    {"roll_deg", a.roll_deg},
                                                    {"fov_deg", a.fov_deg},
                                                    {"mesh_step", a.mesh_step},
                                                    {"mesh_tol", a.mesh_tol},
                                                    {"mesh_max_source_deg", a.mesh_max_source_deg}};
  for (const auto& [name, value] : numbers) h5::write_attribute(file, name, value);
  h5::write_attribute(file, "bh_frame", a.bh_frame);
  h5::write_attribute(file, "projection", a.projection);
  h5::write_attribute(file, "ray_azimuth", a.ray_azimuth);
  h5::write_attribute(file, "observer", a.observer);
  h5::write_attribute(file, "observer_vx", a.observer_velocity[0]);
  h5::write_attribute(file, "observer_vy", a.observer_velocity[1]);
  h5::write_attribute(file, "observer_vz", a.observer_velocity[2]);
  if (a.spacetime == "kerr") {
    h5::write_attribute(file, "spin", a.spin);
    h5::write_attribute(file, "inclination_deg", a.inclination_deg);
    h5::write_attribute(file, "spin_pa_deg", a.spin_pa_deg);
  }
  if (!a.path.empty()) {
    h5::write_attribute(file, "path", a.path);
    h5::write_attribute(file, "path_frame", a.path_frame);
    h5::write_attribute(file, "path_time", a.path_time);
  }
  h5::write_attribute(file, "width", a.width);
  h5::write_attribute(file, "height", a.height);
  h5::write_attribute(file, "mesh_max_depth", a.mesh_max_depth);
  h5::write_attribute(file, "shadow_triangles", a.shadow_triangles);
  for (const char* reason : kDropReasons) {
    const auto found = a.dropped.find(reason);
    h5::write_attribute(file, std::string("dropped_") + reason,
                        found == a.dropped.end() ? std::int64_t{0} : found->second);
  }
}

// Shortest text that reads back as the same double.
std::string number_text(double value) {
  char text[40];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

void require(const h5::File& file, bool condition, const std::string& name,
             const std::string& reason) {
  if (!condition) throw_input_error(file.path, "attribute " + name, reason);
}

// A finite double in [low, high] (each end open when its flag says so).
void require_range(const h5::File& file, const std::string& name, double value, double low,
                   double high, bool open_low = false, bool open_high = false,
                   const std::string& unit = "") {
  const bool inside = std::isfinite(value) && (open_low ? value > low : value >= low) &&
                      (open_high ? value < high : value <= high);
  require(file, inside, name,
          number_text(value) + " is outside " + (open_low ? "(" : "[") + number_text(low) + ", " +
              number_text(high) + (open_high ? ")" : "]") + unit);
}

void require_one_of(const h5::File& file, const std::string& name, const std::string& value,
                    std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* option : allowed) {
    if (value == option) return;
    list += (list.empty() ? "" : ", ") + std::string(option);
  }
  require(file, false, name, "'" + value + "' is not one of " + list);
}

// The documented range of every root attribute (docs/formats/lensmap.md, "Limits"): what trace
// can write, so that a corrupt value is refused here, naming it, rather than surfacing later
// as an invalid event or a frame no one can allocate.
void check_attributes(const h5::File& file, const LensmapAttributes& a) {
  require_one_of(file, "spacetime", a.spacetime, {"minkowski", "schwarzschild", "kerr"});
  require_one_of(file, "ray_azimuth", a.ray_azimuth, {"series", "closed-form", "none"});
  require_one_of(file, "bh_frame", a.bh_frame, {"galactic", "icrs"});
  require_one_of(file, "projection", a.projection, {"pinhole", "equirect", "fisheye"});
  require(file, a.mass == 1, "mass", number_text(a.mass) + " is not 1 (lengths are in units of M)");
  if (a.spacetime == "schwarzschild")
    require_range(file, "r_obs", a.r_obs, 3, 1e15, true, false, " M (outside the photon sphere)");
  else
    require_range(file, "r_obs", a.r_obs, 0, 1e15, true, false, " M");
  require_range(file, "bh_lon_deg", a.bh_lon_deg, -360, 360);
  require_range(file, "bh_lat_deg", a.bh_lat_deg, -90, 90);
  require_range(file, "bh_ra_deg", a.bh_ra_deg, 0, 360);
  require_range(file, "bh_dec_deg", a.bh_dec_deg, -90, 90);
  require_range(file, "look_dlon_deg", a.look_dlon_deg, -360, 360);
  require_range(file, "look_dlat_deg", a.look_dlat_deg, -180, 180);
  require_range(file, "look_ra_deg", a.look_ra_deg, 0, 360);
  require_range(file, "look_dec_deg", a.look_dec_deg, -90, 90);
  require_range(file, "roll_deg", a.roll_deg, -360, 360);
  if (a.projection == "pinhole")
    require_range(file, "fov_deg", a.fov_deg, kMinFovDegrees, 180, false, true,
                  " degrees (pinhole)");
  else if (a.projection == "fisheye")
    require_range(file, "fov_deg", a.fov_deg, kMinFovDegrees, 360, false, false,
                  " degrees (fisheye)");
  else
    require(file, a.fov_deg == 360, "fov_deg", number_text(a.fov_deg) + " is not 360 (equirect)");
  check_frame_size(file.path, "attribute width", "attribute height", a.width, a.height);
  require_range(file, "mesh_step", a.mesh_step, 0, 4096, true, false, " px");
  require_range(file, "mesh_tol", a.mesh_tol, 0, 4096, false, false, " px");
  require_range(file, "mesh_max_source_deg", a.mesh_max_source_deg, 0, 180, true);
  require(file, a.mesh_max_depth >= 0 && a.mesh_max_depth <= 40, "mesh_max_depth",
          std::to_string(a.mesh_max_depth) + " is outside 0..40");
  require(file, a.shadow_triangles >= 0, "shadow_triangles", "negative");
  for (const auto& [reason, count] : a.dropped)
    require(file, count >= 0, "dropped_" + reason, "negative");
}

LensmapAttributes read_attributes(const h5::File& file) {
  LensmapAttributes a;
  a.spacetime = h5::read_string_attribute(file, "spacetime");
  const std::pair<const char*, double*> numbers[] = {
      {"mass", &a.mass},
      {"r_obs", &a.r_obs},
      {"bh_lon_deg", &a.bh_lon_deg},
      {"bh_lat_deg", &a.bh_lat_deg},
      {"bh_ra_deg", &a.bh_ra_deg},
      {"bh_dec_deg", &a.bh_dec_deg},
      {"look_dlon_deg", &a.look_dlon_deg},
      {"look_dlat_deg", &a.look_dlat_deg},
      {"look_ra_deg", &a.look_ra_deg},
      {"look_dec_deg", &a.look_dec_deg},
      {"roll_deg", &a.roll_deg},
      {"fov_deg", &a.fov_deg},
      {"mesh_step", &a.mesh_step},
      {"mesh_tol", &a.mesh_tol},
      {"mesh_max_source_deg", &a.mesh_max_source_deg}};
  for (const auto& [name, value] : numbers) *value = h5::read_double_attribute(file, name);
  a.bh_frame = h5::read_string_attribute(file, "bh_frame");
  a.projection = h5::read_string_attribute(file, "projection");
  if (h5::has_attribute(file, "ray_azimuth"))
    a.ray_azimuth = h5::read_string_attribute(file, "ray_azimuth");
  if (h5::has_attribute(file, "observer")) {
    a.observer = h5::read_string_attribute(file, "observer");
    if (a.observer != "static" && a.observer != "zamo" && a.observer != "infall" &&
        a.observer != "orbit" && a.observer != "velocity")
      throw_input_error(file.path, "attribute observer",
                        "'" + a.observer + "' is not static, zamo, infall, orbit or velocity");
    const char* components[] = {"observer_vx", "observer_vy", "observer_vz"};
    for (int k = 0; k < 3; ++k)
      a.observer_velocity[k] = h5::read_double_attribute(file, components[k]);
    double speed_sq = 0;
    for (const double c : a.observer_velocity) speed_sq += c * c;
    if (!(speed_sq < 1))
      throw_input_error(file.path, "attribute observer_vx/vy/vz",
                        "the camera's speed is not below the speed of light");
  }
  if (a.spacetime == "kerr") {
    a.spin = h5::read_double_attribute(file, "spin");
    a.inclination_deg = h5::read_double_attribute(file, "inclination_deg");
    a.spin_pa_deg = h5::read_double_attribute(file, "spin_pa_deg");
    if (!(std::abs(a.spin) < 1))
      throw_input_error(file.path, "attribute spin", "must satisfy |spin| < 1");
  }
  if (h5::has_attribute(file, "path")) {
    a.path = h5::read_string_attribute(file, "path");
    a.path_frame = h5::read_int_attribute(file, "path_frame");
    a.path_time = h5::read_double_attribute(file, "path_time");
    if (a.path_frame < 0) throw_input_error(file.path, "attribute path_frame", "negative");
    if (!std::isfinite(a.path_time))
      throw_input_error(file.path, "attribute path_time", "must be finite");
  }
  a.width = h5::read_int_attribute(file, "width");
  a.height = h5::read_int_attribute(file, "height");
  a.mesh_max_depth = h5::read_int_attribute(file, "mesh_max_depth");
  a.shadow_triangles = h5::read_int_attribute(file, "shadow_triangles");
  for (const char* reason : kDropReasons)
    a.dropped[reason] = h5::read_int_attribute(file, std::string("dropped_") + reason);
  check_attributes(file, a);
  return a;
}

// Rows of a dataset, checking its rank, columns and stored type class.
std::uint64_t checked_rows(const h5::File& file, const std::string& name, std::uint64_t columns,
                           H5T_class_t type_class) {
  const auto shape = h5::dataset_shape(file, name);
  const std::uint64_t want_rank = columns > 0 ? 2 : 1;
  if (shape.size() != want_rank || (columns > 0 && shape[1] != columns))
    throw_input_error(file.path, name,
                      columns > 0 ? "expected " + std::to_string(columns) + " columns"
                                  : "expected a 1-D dataset");
  h5::Handle dataset(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  h5::Handle type(H5Dget_type(dataset.get()));
  if (H5Tget_class(type.get()) != type_class)
    throw_input_error(file.path, name,
                      type_class == H5T_FLOAT  ? "not floating point"
                      : type_class == H5T_ENUM ? "not an enum (version 2 stores statuses as one)"
                                               : "not an integer type");
  return shape[0];
}

// Every dataset's `units` and `description` (docs/formats/lensmap.md, "Layout").
struct DatasetDescription {
  const char* name;
  const char* units;
  const char* description;
};
constexpr DatasetDescription kDatasetDescriptions[] = {
    {"/vertices/xy", "pixel",
     "image-plane position (x right, y down; pixel (i, j) covers [i, i+1) x [j, j+1))"},
    {"/vertices/dir", "",
     "asymptotic source direction, ICRS unit vector (x, y, z); NaN unless escaped"},
    {"/vertices/g", "",
     "frequency ratio nu_obs / nu_source for a source at rest at infinity; NaN unless escaped"},
    {"/vertices/status", "", "ray status: escaped, captured or failed"},
    {"/triangles/v", "", "rows of /vertices, wound positively in pixels"},
    {"/triangles/mu", "", "magnification Omega_image / Omega_source of the triangle"},
    {"/triangles/parity", "",
     "+1 where the source triangle keeps the winding of the unlensed map, -1 where mirrored"},
    {"/triangles/depth", "", "bisections below the base grid (0: a base-grid triangle)"}};

[[noreturn]] void bad_row(const h5::File& file, const std::string& name, std::uint64_t row,
                          const std::string& reason) {
  throw_input_error(file.path, name, "row " + std::to_string(row) + ": " + reason);
}

}  // namespace

h5::Handle vertex_status_type() {
  h5::Handle type(H5Tenum_create(H5T_NATIVE_UINT8));
  const std::pair<const char*, std::uint8_t> members[] = {
      {"escaped", 0}, {"captured", 1}, {"failed", 2}};
  for (const auto& [name, value] : members) H5Tenum_insert(type.get(), name, &value);
  return type;
}

LensmapWriter::LensmapWriter(const std::filesystem::path& path, const std::string& display_path,
                             std::uint64_t vertex_count, std::uint64_t triangle_count) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const h5::Handle file_properties = untimed(H5P_FILE_CREATE);
  file_ = h5::File{h5::Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_properties.get(),
                                        h5::checksummed_access_properties().get())),
                   display_path};
  if (!file_.handle.valid())
    throw_run_failure(display_path, hdf5_failure("cannot create HDF5 file"));
  const std::uint64_t n = vertex_count, m = triangle_count;
  const h5::Handle status = vertex_status_type();
  write_group(file_, "/vertices");
  create_rows(file_, "/vertices/xy", H5T_IEEE_F64LE, n, 2);
  create_rows(file_, "/vertices/dir", H5T_IEEE_F64LE, n, 3);
  create_rows(file_, "/vertices/g", H5T_IEEE_F64LE, n, 0);
  create_rows(file_, "/vertices/status", status.get(), n, 0);
  write_group(file_, "/triangles");
  create_rows(file_, "/triangles/v", H5T_STD_U32LE, m, 3);
  create_rows(file_, "/triangles/mu", H5T_IEEE_F64LE, m, 0);
  create_rows(file_, "/triangles/parity", H5T_STD_I8LE, m, 0);
  create_rows(file_, "/triangles/depth", H5T_STD_U8LE, m, 0);
  for (const auto& [name, units, description] : kDatasetDescriptions)
    h5::describe_dataset(file_, name, units, description);
}

void LensmapWriter::write_block(const char* name, hid_t memory_type, std::uint64_t first,
                                std::uint64_t count, std::uint64_t columns, const void* data) {
  if (count == 0) return;
  h5::Handle dataset(H5Dopen2(file_.id(), name, H5P_DEFAULT));
  h5::Handle file_space(H5Dget_space(dataset.get()));
  const int rank = columns > 0 ? 2 : 1;
  const hsize_t start[2] = {first, 0};
  const hsize_t extent[2] = {count, columns};
  h5::Handle memory_space(H5Screate_simple(rank, extent, nullptr));
  if (!dataset.valid() ||
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr) < 0 ||
      H5Dwrite(dataset.get(), memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT,
               data) < 0)
    throw_run_failure(file_.path, hdf5_failure(std::string("cannot write dataset ") + name));
}

void LensmapWriter::write_vertices(std::uint64_t first, std::uint64_t count, const double* xy,
                                   const double* dir, const double* g, const std::uint8_t* status) {
  write_block("/vertices/xy", H5T_NATIVE_DOUBLE, first, count, 2, xy);
  write_block("/vertices/dir", H5T_NATIVE_DOUBLE, first, count, 3, dir);
  write_block("/vertices/g", H5T_NATIVE_DOUBLE, first, count, 0, g);
  const h5::Handle status_type = vertex_status_type();
  write_block("/vertices/status", status_type.get(), first, count, 0, status);
}

void LensmapWriter::write_triangles(std::uint64_t first, std::uint64_t count,
                                    const std::uint32_t* v, const double* mu,
                                    const std::int8_t* parity, const std::uint8_t* depth) {
  write_block("/triangles/v", H5T_NATIVE_UINT32, first, count, 3, v);
  write_block("/triangles/mu", H5T_NATIVE_DOUBLE, first, count, 0, mu);
  write_block("/triangles/parity", H5T_NATIVE_INT8, first, count, 0, parity);
  write_block("/triangles/depth", H5T_NATIVE_UINT8, first, count, 0, depth);
}

void LensmapWriter::finish(const LensmapAttributes& attributes) {
  write_attributes(file_, attributes);
  if (H5Fflush(file_.id(), H5F_SCOPE_GLOBAL) < 0)
    throw_run_failure(file_.path, hdf5_failure("cannot flush HDF5 file"));
}

void write_lensmap(const std::filesystem::path& path, const std::string& display_path,
                   const LensmapAttributes& attributes, const LensmapArrays& arrays) {
  LensmapWriter writer(path, display_path, arrays.vertex_count(), arrays.triangle_count());
  writer.write_vertices(0, arrays.vertex_count(), arrays.xy.data(), arrays.dir.data(),
                        arrays.g.data(), arrays.status.data());
  writer.write_triangles(0, arrays.triangle_count(), arrays.triangle_vertices.data(),
                         arrays.mu.data(), arrays.parity.data(), arrays.depth.data());
  writer.finish(attributes);
}

LensmapReader::LensmapReader(const std::filesystem::path& path) : file_(h5::open_file(path)) {
  if (!h5::has_attribute(file_, "format"))
    throw_input_error(file_.path, "attribute format", "missing: not a starlens lens map");
  const std::string format = h5::read_string_attribute(file_, "format");
  if (format != kLensmapFormat)
    throw_input_error(file_.path, "attribute format", "'" + format + "' is not " + kLensmapFormat);
  const std::int64_t version = h5::read_int_attribute(file_, "version");
  if (version > kLensmapVersion)
    throw_input_error(file_.path, "attribute version",
                      std::to_string(version) + " is newer than this build reads (" +
                          std::to_string(kLensmapVersion) + ")");
  if (version < 1) throw_input_error(file_.path, "attribute version", "invalid");
  attributes_ = read_attributes(file_);
  status_type_ = version >= 2 ? vertex_status_type() : h5::Handle(H5Tcopy(H5T_NATIVE_UINT8));
  vertex_count_ = checked_rows(file_, "/vertices/xy", 2, H5T_FLOAT);
  triangle_count_ = checked_rows(file_, "/triangles/v", 3, H5T_INTEGER);
  const std::pair<const char*, std::uint64_t> expected[] = {
      {"/vertices/dir", vertex_count_},       {"/vertices/g", vertex_count_},
      {"/vertices/status", vertex_count_},    {"/triangles/mu", triangle_count_},
      {"/triangles/parity", triangle_count_}, {"/triangles/depth", triangle_count_}};
  for (const auto& [name, rows] : expected) {
    const std::string dataset = name;
    const bool floating =
        dataset == "/vertices/dir" || dataset == "/vertices/g" || dataset == "/triangles/mu";
    const std::uint64_t columns = dataset == "/vertices/dir" ? 3 : 0;
    const bool status = dataset == "/vertices/status" && version >= 2;
    const H5T_class_t type_class = floating ? H5T_FLOAT : status ? H5T_ENUM : H5T_INTEGER;
    if (checked_rows(file_, dataset, columns, type_class) != rows)
      throw_input_error(
          file_.path, dataset,
          "has a different row count than " +
              std::string(dataset.starts_with("/vertices") ? "/vertices/xy" : "/triangles/v"));
  }
  if (version >= 2) {
    h5::Handle dataset(H5Dopen2(file_.id(), "/vertices/status", H5P_DEFAULT));
    h5::Handle type(H5Dget_type(dataset.get()));
    if (H5Tequal(type.get(), status_type_.get()) <= 0)
      throw_input_error(file_.path, "/vertices/status",
                        "not the enum {escaped 0, captured 1, failed 2} of uint8");
  }
  if (vertex_count_ > std::uint64_t{UINT32_MAX})
    throw_input_error(file_.path, "/vertices/xy", "more vertices than uint32 indices address");
}

std::vector<LensmapVertex> LensmapReader::read_vertices(std::uint64_t first,
                                                        std::uint64_t count) const {
  std::vector<double> xy(2 * count), dir(3 * count), g(count);
  std::vector<std::uint8_t> status(count);
  h5::read_rows(file_, "/vertices/xy", H5T_NATIVE_DOUBLE, xy.data(), first, count);
  h5::read_rows(file_, "/vertices/dir", H5T_NATIVE_DOUBLE, dir.data(), first, count);
  h5::read_rows(file_, "/vertices/g", H5T_NATIVE_DOUBLE, g.data(), first, count);
  h5::read_rows(file_, "/vertices/status", status_type_.get(), status.data(), first, count);
  std::vector<LensmapVertex> vertices(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    LensmapVertex& v = vertices[i];
    v = {xy[2 * i], xy[2 * i + 1], {dir[3 * i], dir[3 * i + 1], dir[3 * i + 2]}, g[i], status[i]};
    if (!std::isfinite(v.x) || !std::isfinite(v.y))
      bad_row(file_, "/vertices/xy", first + i, "not finite");
    if (v.status > 2) bad_row(file_, "/vertices/status", first + i, "not 0, 1 or 2");
    if (v.status == 0 && !(std::abs(norm(v.direction) - 1) < 1e-9))
      bad_row(file_, "/vertices/dir", first + i, "escaped vertex without a unit direction");
    if (v.status == 0 && !(std::isfinite(v.g) && v.g > 0))
      bad_row(file_, "/vertices/g", first + i, "escaped vertex without a positive g");
  }
  return vertices;
}

std::vector<LensmapTriangle> LensmapReader::read_triangles(std::uint64_t first,
                                                           std::uint64_t count) const {
  std::vector<std::uint32_t> v(3 * count);
  std::vector<double> mu(count);
  std::vector<std::int8_t> parity(count);
  std::vector<std::uint8_t> depth(count);
  h5::read_rows(file_, "/triangles/v", H5T_NATIVE_UINT32, v.data(), first, count);
  h5::read_rows(file_, "/triangles/mu", H5T_NATIVE_DOUBLE, mu.data(), first, count);
  h5::read_rows(file_, "/triangles/parity", H5T_NATIVE_INT8, parity.data(), first, count);
  h5::read_rows(file_, "/triangles/depth", H5T_NATIVE_UINT8, depth.data(), first, count);
  std::vector<LensmapTriangle> triangles(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    LensmapTriangle& t = triangles[i];
    t = {{v[3 * i], v[3 * i + 1], v[3 * i + 2]}, mu[i], parity[i], depth[i]};
    for (std::uint32_t index : t.v)
      if (index >= vertex_count_)
        bad_row(file_, "/triangles/v", first + i,
                "vertex " + std::to_string(index) + " beyond the " + std::to_string(vertex_count_) +
                    " vertices");
    if (t.parity != 1 && t.parity != -1) bad_row(file_, "/triangles/parity", first + i, "not +-1");
    if (!(std::isfinite(t.mu) && t.mu > 0))
      bad_row(file_, "/triangles/mu", first + i, "not a positive finite magnification");
  }
  return triangles;
}

}  // namespace starlens
