// lensmap.h5: a written map reads back exactly (by ranges), its bytes are deterministic, and
// every kind of bad file is refused with an InputError naming the file and the object.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "core/errors.h"
#include "core/hdf5_file.h"
#include "lensmap/lensmap_file.h"

namespace fs = std::filesystem;
using namespace starlens;

namespace {

struct Folder {
  fs::path path = fs::temp_directory_path() / ("starlens_lensmap_" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
};

// Four vertices (one captured) and two triangles.
LensmapArrays sample_arrays() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  LensmapArrays a;
  a.xy = {0, 0, 4, 0, 0, 4, 4, 4};
  a.dir = {1, 0, 0, 0, 1, 0, 0, 0, 1, nan, nan, nan};
  a.g = {1.25, 1.25, 1.25, nan};
  a.status = {0, 0, 0, 1};
  a.triangle_vertices = {0, 1, 2, 2, 1, 0};
  a.mu = {0.5, 3.0};
  a.parity = {1, -1};
  a.depth = {0, 7};
  return a;
}

LensmapAttributes sample_attributes() {
  LensmapAttributes a;
  a.spacetime = "schwarzschild";
  a.r_obs = 30;
  a.bh_frame = "galactic";
  a.bh_ra_deg = 266.4;
  a.bh_dec_deg = -28.9;
  a.projection = "pinhole";
  a.fov_deg = 60;
  a.width = 8;
  a.height = 4;
  a.mesh_step = 4;
  a.mesh_tol = 0.01;
  a.mesh_max_source_deg = 1;
  a.mesh_max_depth = 10;
  a.dropped = {{"status", 3}, {"orientation", 2}};
  a.shadow_triangles = 9;
  return a;
}

fs::path write_sample(const fs::path& folder, const std::string& name) {
  const fs::path path = folder / name;
  write_lensmap(path, path.string(), sample_attributes(), sample_arrays());
  return path;
}

// Opens a written map for editing with the raw HDF5 API.
struct EditableFile {
  h5::File file;
  explicit EditableFile(const fs::path& path)
      : file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()} {
    REQUIRE(file.handle.valid());
  }
};

std::string input_error_of(const fs::path& path, bool read_everything = false) {
  try {
    const LensmapReader reader(path);
    if (read_everything) {
      reader.read_vertices(0, reader.vertex_count());
      reader.read_triangles(0, reader.triangle_count());
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a lens map reads back exactly, by row ranges") {
  Folder folder;
  const fs::path path = write_sample(folder.path, "map.h5");
  const LensmapReader reader(path);
  CHECK(reader.vertex_count() == 4);
  CHECK(reader.triangle_count() == 2);
  const auto& a = reader.attributes();
  CHECK(a.spacetime == "schwarzschild");
  CHECK(a.r_obs == 30);
  CHECK(a.bh_ra_deg == 266.4);
  CHECK(a.width == 8);
  CHECK(a.mesh_max_depth == 10);
  CHECK(a.dropped.at("status") == 3);
  CHECK(a.dropped.at("orientation") == 2);
  CHECK(a.dropped.at("tolerance") == 0);
  CHECK(a.shadow_triangles == 9);
  const auto vertices = reader.read_vertices(1, 3);
  REQUIRE(vertices.size() == 3);
  CHECK(vertices[0].x == 4);
  CHECK(vertices[0].direction[1] == 1);
  CHECK(vertices[0].g == 1.25);
  CHECK(vertices[2].status == 1);
  CHECK(std::isnan(vertices[2].direction[0]));
  const auto triangles = reader.read_triangles(1, 1);
  CHECK(triangles[0].v == std::array<std::uint32_t, 3>{2, 1, 0});
  CHECK(triangles[0].mu == 3.0);
  CHECK(triangles[0].parity == -1);
  CHECK(triangles[0].depth == 7);
  CHECK_THROWS_AS(reader.read_triangles(1, 2), InputError);  // beyond the rows
}

TEST_CASE("equal maps are written as equal bytes") {
  Folder folder;
  const auto read = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const fs::path a = write_sample(folder.path, "a.h5");
  ::usleep(1100000);  // object timestamps, were they stored, would now differ
  const fs::path b = write_sample(folder.path, "b.h5");
  CHECK(read(a) == read(b));
}

TEST_CASE("bad lens map files are refused, naming file and object") {
  Folder folder;
  CHECK(input_error_of(folder.path / "missing.h5").find("no such file") != std::string::npos);

  const fs::path text = folder.path / "text.h5";
  std::ofstream(text) << "not hdf5\n";
  CHECK(input_error_of(text).find("not an HDF5 file") != std::string::npos);

  const fs::path truncated = write_sample(folder.path, "truncated.h5");
  fs::resize_file(truncated, fs::file_size(truncated) / 2);
  CHECK(input_error_of(truncated, true).find("truncated.h5") != std::string::npos);

  const fs::path foreign = folder.path / "foreign.h5";
  { h5::File file = h5::create_file(foreign.string(), foreign.string()); }
  CHECK(input_error_of(foreign).find("attribute format") != std::string::npos);

  const fs::path other_format = write_sample(folder.path, "other.h5");
  h5::write_attribute(EditableFile(other_format).file, "format", std::string("starlens-catalog"));
  CHECK(input_error_of(other_format).find("is not starlens-lensmap") != std::string::npos);

  const fs::path future = write_sample(folder.path, "future.h5");
  h5::write_attribute(EditableFile(future).file, "version", std::int64_t{3});
  CHECK(input_error_of(future).find("3 is newer than this build reads (2)") != std::string::npos);

  const fs::path no_mu = write_sample(folder.path, "no_mu.h5");
  H5Ldelete(EditableFile(no_mu).file.id(), "/triangles/mu", H5P_DEFAULT);
  CHECK(input_error_of(no_mu).find("/triangles/mu: dataset missing") != std::string::npos);

  const fs::path no_attribute = write_sample(folder.path, "no_attribute.h5");
  H5Adelete(EditableFile(no_attribute).file.id(), "r_obs");
  CHECK(input_error_of(no_attribute).find("attribute r_obs") != std::string::npos);

  const fs::path short_g = write_sample(folder.path, "short_g.h5");
  {
    EditableFile edit(short_g);
    H5Ldelete(edit.file.id(), "/vertices/g", H5P_DEFAULT);
    const double g[3] = {1, 1, 1};
    h5::write_dataset(edit.file, "/vertices/g", H5T_NATIVE_DOUBLE, g, 3, 0);
  }
  CHECK(input_error_of(short_g).find("/vertices/g: has a different row count") !=
        std::string::npos);

  const fs::path float_indices = write_sample(folder.path, "float_indices.h5");
  {
    EditableFile edit(float_indices);
    H5Ldelete(edit.file.id(), "/triangles/v", H5P_DEFAULT);
    const double v[6] = {0, 1, 2, 2, 1, 0};
    h5::write_dataset(edit.file, "/triangles/v", H5T_NATIVE_DOUBLE, v, 2, 3);
  }
  CHECK(input_error_of(float_indices).find("/triangles/v: not an integer type") !=
        std::string::npos);

  const fs::path bad_index = write_sample(folder.path, "bad_index.h5");
  {
    EditableFile edit(bad_index);
    H5Ldelete(edit.file.id(), "/triangles/v", H5P_DEFAULT);
    const std::uint32_t v[6] = {0, 1, 2, 2, 1, 4};
    h5::write_dataset(edit.file, "/triangles/v", H5T_NATIVE_UINT32, v, 2, 3);
  }
  CHECK(input_error_of(bad_index, true).find("row 1: vertex 4 beyond the 4 vertices") !=
        std::string::npos);

  // Version 2 stores the status as an enum: plain integers, or an enum of other names, are
  // refused; a version 1 map's uint8 statuses are read and checked.
  const auto with_status = [&](const char* name, hid_t type, std::int64_t version,
                               const std::uint8_t(&status)[4]) {
    const fs::path path = write_sample(folder.path, name);
    EditableFile edit(path);
    H5Ldelete(edit.file.id(), "/vertices/status", H5P_DEFAULT);
    h5::write_dataset(edit.file, "/vertices/status", type, status, 4, 0);
    h5::write_attribute(edit.file, "version", version);
    return path;
  };
  CHECK(input_error_of(with_status("int_status.h5", H5T_NATIVE_UINT8, 2, {0, 0, 0, 1}))
            .find("/vertices/status: not an enum") != std::string::npos);
  h5::Handle renamed(H5Tenum_create(H5T_NATIVE_UINT8));
  const std::pair<const char*, std::uint8_t> members[] = {
      {"escaped", 0}, {"hit", 1}, {"failed", 2}};
  for (const auto& [member, value] : members) H5Tenum_insert(renamed.get(), member, &value);
  CHECK(input_error_of(with_status("renamed_status.h5", renamed.get(), 2, {0, 0, 0, 1}))
            .find("/vertices/status: not the enum {escaped 0, captured 1, failed 2}") !=
        std::string::npos);
  const fs::path version1 = with_status("version1.h5", H5T_NATIVE_UINT8, 1, {0, 0, 2, 1});
  {
    LensmapReader reader(version1);
    const auto vertices = reader.read_vertices(0, 4);
    CHECK(vertices[2].status == 2);
    CHECK(vertices[3].status == 1);
  }
  const fs::path bad_status = with_status("bad_status.h5", H5T_NATIVE_UINT8, 1, {0, 0, 7, 1});
  CHECK(input_error_of(bad_status, true).find("/vertices/status: row 2") != std::string::npos);
}

TEST_CASE("lens map datasets carry their units and description; statuses are named") {
  Folder folder;
  const fs::path path = write_sample(folder.path, "described.h5");
  const h5::File file = h5::open_file(path.string());
  const auto string_of = [&](const char* dataset, const char* attribute) {
    h5::Handle object(H5Dopen2(file.id(), dataset, H5P_DEFAULT));
    h5::Handle handle(H5Aopen(object.get(), attribute, H5P_DEFAULT));
    h5::Handle type(H5Aget_type(handle.get()));
    CHECK(H5Tget_cset(type.get()) == H5T_CSET_UTF8);
    std::string value(H5Tget_size(type.get()), '\0');
    REQUIRE(H5Aread(handle.get(), type.get(), value.data()) >= 0);
    return value.substr(0, value.find('\0'));
  };
  for (const char* dataset :
       {"/vertices/xy", "/vertices/dir", "/vertices/g", "/vertices/status", "/triangles/v",
        "/triangles/mu", "/triangles/parity", "/triangles/depth"})
    CHECK_MESSAGE(!string_of(dataset, "description").empty(), dataset);
  CHECK(string_of("/vertices/xy", "units") == "pixel");
  CHECK(string_of("/triangles/mu", "units").empty());
  h5::Handle status(H5Dopen2(file.id(), "/vertices/status", H5P_DEFAULT));
  h5::Handle type(H5Dget_type(status.get()));
  REQUIRE(H5Tget_class(type.get()) == H5T_ENUM);
  char name[16] = {};
  const std::uint8_t captured = 1;
  REQUIRE(H5Tenum_nameof(type.get(), &captured, name, sizeof name) >= 0);
  CHECK(std::string(name) == "captured");
  h5::Handle format(H5Aopen(file.id(), "format", H5P_DEFAULT));
  h5::Handle format_type(H5Aget_type(format.get()));
  CHECK(H5Tget_cset(format_type.get()) == H5T_CSET_UTF8);
}

TEST_CASE("a lens map without checksummed metadata is refused before libhdf5 parses it") {
  Folder folder;
  // A map written as these tools wrote before, with libhdf5's default format (superblock 0,
  // object headers without checksums), and its `format` attribute's dataspace then changed to
  // declare 2^40 more bytes: libhdf5 1.10.8, asked by H5Aexists, allocated and copied that much.
  const fs::path old = folder.path / "old.h5";
  {
    h5::File file{h5::Handle(H5Fcreate(old.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)),
                  old.string()};
    const hsize_t count = 0x5a5a;
    h5::Handle space(H5Screate_simple(1, &count, nullptr));
    h5::Handle attribute(
        H5Acreate2(file.id(), "format", H5T_NATIVE_UINT8, space.get(), H5P_DEFAULT, H5P_DEFAULT));
    const std::vector<unsigned char> zeros(count);
    REQUIRE(H5Awrite(attribute.get(), H5T_NATIVE_UINT8, zeros.data()) >= 0);
  }
  std::string bytes;
  {
    std::ifstream in(old, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string from("\x5a\x5a\0\0\0\0\0\0", 8), to("\x5a\x5a\0\0\0\1\0\0", 8);
  std::size_t patched = 0;
  for (auto at = bytes.find(from); at != std::string::npos;
       at = bytes.find(from, at + 8), ++patched)
    bytes.replace(at, 8, to);
  REQUIRE(patched >= 1);
  std::ofstream(old, std::ios::binary | std::ios::trunc) << bytes;
  CHECK(input_error_of(old) ==
        old.string() +
            ": superblock: version 0: its metadata carries no checksums (files are "
            "read from superblock version 2 on, as this program writes them)");
  // What the writer makes now is read.
  CHECK(input_error_of(write_sample(folder.path, "new.h5"), true) == "");
}

TEST_CASE("lens-map attributes outside their documented ranges are refused, naming the field") {
  Folder folder;
  int serial = 0;
  // The message of a sample map with one attribute rewritten by `edit`.
  const auto error_with = [&](auto edit) {
    const fs::path path = write_sample(folder.path, "edited" + std::to_string(serial++) + ".h5");
    {
      EditableFile file(path);
      edit(file.file);
    }
    return std::pair{path.string(), input_error_of(path)};
  };
  const auto with_int = [&](const char* name, std::int64_t value) {
    return error_with([&](const h5::File& file) { h5::write_attribute(file, name, value); });
  };
  const auto with_double = [&](const char* name, double value) {
    return error_with([&](const h5::File& file) { h5::write_attribute(file, name, value); });
  };

  // int64 sizes are judged before they are narrowed to the frame's 32 bits.
  auto [path, error] = with_int("height", std::numeric_limits<std::int64_t>::max());
  CHECK(error == path + ": attribute height: 9223372036854775807 is outside 1..65536 px");
  std::tie(path, error) = with_int("width", std::int64_t{1} << 32);
  CHECK(error == path + ": attribute width: 4294967296 is outside 1..65536 px");
  std::tie(path, error) = with_int("height", 0);
  CHECK(error == path + ": attribute height: 0 is outside 1..65536 px");
  std::tie(path, error) = error_with([](const h5::File& file) {
    h5::write_attribute(file, "width", std::int64_t{65536});
    h5::write_attribute(file, "height", std::int64_t{8192});
  });
  CHECK(error == path +
                     ": attribute width x attribute height: 65536 x 8192 = 536870912 pixels, more "
                     "than a frame may have (268435456 = 2^28)");

  std::tie(path, error) = with_double("fov_deg", 1e-308);
  CHECK(error == path + ": attribute fov_deg: 1e-308 is outside [0.001, 180) degrees (pinhole)");
  std::tie(path, error) = with_double("fov_deg", std::numeric_limits<double>::quiet_NaN());
  CHECK(error.find("attribute fov_deg: nan is outside") != std::string::npos);
  std::tie(path, error) = with_double("r_obs", 2.5);  // inside the photon sphere
  CHECK(error ==
        path + ": attribute r_obs: 2.5 is outside (3, 1e+15] M (outside the photon sphere)");
  std::tie(path, error) = with_double("mesh_step", -4);
  CHECK(error.find(": attribute mesh_step: -4 is outside (0, 4096] px") != std::string::npos);
  std::tie(path, error) = with_double("bh_dec_deg", 91);
  CHECK(error.find(": attribute bh_dec_deg: 91 is outside [-90, 90]") != std::string::npos);
  std::tie(path, error) = with_double("mass", 2);
  CHECK(error.find(": attribute mass: 2 is not 1") != std::string::npos);
  std::tie(path, error) = with_int("mesh_max_depth", 41);
  CHECK(error.find(": attribute mesh_max_depth: 41 is outside 0..40") != std::string::npos);
  std::tie(path, error) = with_int("dropped_status", -1);
  CHECK(error.find(": attribute dropped_status: negative") != std::string::npos);
  std::tie(path, error) = error_with(
      [](const h5::File& file) { h5::write_attribute(file, "projection", std::string("orbit")); });
  CHECK(error == path + ": attribute projection: 'orbit' is not one of pinhole, equirect, fisheye");

  // A scalar stored as an array: refused, not read over the one value the reader holds.
  std::tie(path, error) = error_with([](const h5::File& file) {
    H5Adelete(file.id(), "r_obs");
    const hsize_t count = 3;
    h5::Handle space(H5Screate_simple(1, &count, nullptr));
    h5::Handle attribute(
        H5Acreate2(file.id(), "r_obs", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, H5P_DEFAULT));
    const double values[3] = {30, 30, 30};
    REQUIRE(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, values) >= 0);
  });
  CHECK(error == path + ": attribute r_obs: is an array of 3 values, expected a scalar");
}

TEST_CASE("a camera path's text, frame and time read back; a map without them has none") {
  Folder folder;
  LensmapAttributes attributes = sample_attributes();
  // Longer than a short string, with the characters a JSON file has.
  attributes.path = std::string(R"({"fps": 24, "frames": 240, "worldline": {"type": "orbit"}})") +
                    "\n" + std::string(20000, ' ') + "\n";
  attributes.path_frame = 17;
  attributes.path_time = 11.77;
  const fs::path path = folder.path / "path.h5";
  write_lensmap(path, path.string(), attributes, sample_arrays());
  {
    const LensmapReader reader(path);
    CHECK(reader.attributes().path == attributes.path);
    CHECK(reader.attributes().path_frame == 17);
    CHECK(reader.attributes().path_time == 11.77);
    const LensmapReader plain(write_sample(folder.path, "plain.h5"));
    CHECK(plain.attributes().path.empty());
  }
  {
    EditableFile edit(path);
    H5Adelete(edit.file.id(), "path_frame");
    h5::write_attribute(edit.file, "path_frame", std::int64_t{-1});
  }
  try {
    LensmapReader bad(path);
    FAIL("a negative path_frame accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("attribute path_frame") != std::string::npos);
  }
}
