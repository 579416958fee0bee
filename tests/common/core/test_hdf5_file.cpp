// h5:: readers take from a file only what its format allows: a scalar attribute stored as an
// array, a string of the wrong class, a dataset declaring more rows than the file holds, and
// paths that are no file at all are InputErrors naming the file and the object.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/errors.h"
#include "core/hdf5_file.h"

namespace fs = std::filesystem;
using namespace starlens;

namespace {

struct Folder {
  fs::path path = fs::temp_directory_path() / ("starlens_hdf5_" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
};

// The InputError message of `read`, or "" when it throws none.
template <class Read>
std::string input_error(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A root attribute of `count` values of `type` (zeros), written with the raw HDF5 API.
void write_array_attribute(const h5::File& file, const char* name, hid_t type, hsize_t count) {
  h5::Handle space(H5Screate_simple(1, &count, nullptr));
  h5::Handle attribute(H5Acreate2(file.id(), name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  REQUIRE(attribute.valid());
  std::vector<unsigned char> zeros(count * H5Tget_size(type));
  REQUIRE(H5Awrite(attribute.get(), type, zeros.data()) >= 0);
}

}  // namespace

TEST_CASE("scalar attributes stored as arrays are refused, naming the file and attribute") {
  Folder folder;
  const std::string path = (folder.path / "arrays.h5").string();
  {
    const h5::File file = h5::create_file(path, path);
    write_array_attribute(file, "r_obs", H5T_NATIVE_DOUBLE, 3);
    write_array_attribute(file, "width", H5T_NATIVE_INT64, 4000);
    write_array_attribute(file, "one", H5T_NATIVE_DOUBLE, 1);  // a 1-element array is a value
    h5::Handle string_type(H5Tcopy(H5T_C_S1));
    H5Tset_size(string_type.get(), 8);
    write_array_attribute(file, "format", string_type.get(), 5);
    h5::write_attribute(file, "name", std::string("text"));
    h5::write_attribute(file, "count", std::int64_t{7});
    h5::write_attribute(file, "scale", 2.5);
  }
  const h5::File file = h5::open_file(path);
  CHECK(input_error([&] { h5::read_double_attribute(file, "r_obs"); }) ==
        path + ": attribute r_obs: is an array of 3 values, expected a scalar");
  CHECK(input_error([&] { h5::read_int_attribute(file, "width"); }) ==
        path + ": attribute width: is an array of 4000 values, expected a scalar");
  CHECK(input_error([&] { h5::read_string_attribute(file, "format"); }) ==
        path + ": attribute format: is an array of 5 values, expected a scalar");
  CHECK(h5::read_double_attribute(file, "one") == 0.0);
  // The type class is the documented one: no silent conversion between them.
  CHECK(input_error([&] {
          h5::read_int_attribute(file, "name");
        }).find("attribute name: not an integer") != std::string::npos);
  CHECK(input_error([&] { h5::read_string_attribute(file, "count"); }).find("not a string") !=
        std::string::npos);
  CHECK(input_error([&] { h5::read_int_attribute(file, "scale"); }).find("not an integer") !=
        std::string::npos);
  CHECK(input_error([&] {
          h5::read_double_attribute(file, "count");
        }).find("not a floating-point number") != std::string::npos);
  CHECK(h5::read_string_attribute(file, "name") == "text");
  CHECK(h5::read_int_attribute(file, "count") == 7);
  CHECK(h5::read_double_attribute(file, "scale") == 2.5);
}

TEST_CASE("a dataset declaring more rows than its file stores is refused before reading") {
  Folder folder;
  const std::string path = (folder.path / "huge.h5").string();
  {
    const h5::File file = h5::create_file(path, path);
    // 2^40 x 2 doubles (16 TiB) declared, chunked, no chunk written: a valid HDF5 file of a
    // few kilobytes whose shape alone would have a reader allocate 16 TiB.
    const hsize_t dims[2] = {hsize_t{1} << 40, 2}, chunk[2] = {1024, 2};
    h5::Handle space(H5Screate_simple(2, dims, nullptr));
    h5::Handle properties(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(properties.get(), 2, chunk);
    h5::Handle dataset(H5Dcreate2(file.id(), "/xy", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                  properties.get(), H5P_DEFAULT));
    REQUIRE(dataset.valid());
    const double rows[6] = {1, 2, 3, 4, 5, 6};
    h5::write_dataset(file, "/small", H5T_NATIVE_DOUBLE, rows, 3, 2);
  }
  const h5::File file = h5::open_file(path);
  const std::string error = input_error([&] { h5::dataset_shape(file, "/xy"); });
  CHECK_MESSAGE(error.starts_with(path + ": /xy: shape 1099511627776 x 2 of 8-byte values does "
                                         "not fit the 0 bytes stored for it"),
                error);
  CHECK(h5::dataset_shape(file, "/small") == std::vector<std::uint64_t>{3, 2});
}

TEST_CASE("a folder, a device or an empty file is reported as what it is") {
  Folder folder;
  const auto error_of = [](const std::string& path) {
    return input_error([&] { h5::open_file(path); });
  };
  CHECK(error_of(folder.path.string()) == folder.path.string() + ": is a folder, not a file");
  CHECK(error_of("/dev/null") == "/dev/null: is not a regular file (a device, FIFO or socket)");
  CHECK(error_of("/dev/zero") == "/dev/zero: is not a regular file (a device, FIFO or socket)");
  const std::string empty = (folder.path / "empty.h5").string();
  std::ofstream{empty};
  CHECK(error_of(empty) == empty + ": is empty");
  const std::string missing = (folder.path / "missing.h5").string();
  CHECK(error_of(missing) == missing + ": no such file");
}
