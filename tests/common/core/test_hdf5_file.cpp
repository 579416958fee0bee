// h5:: readers take from a file only what its format allows: a scalar attribute stored as an
// array, a string of the wrong class, a dataset declaring more rows than the file holds, and
// paths that are no file at all are InputErrors naming the file and the object.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
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

namespace {

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

// Replaces every occurrence (the dataspace's size and maximum size) of the 8-byte
// little-endian `from` by `to`.
void patch_u64(std::vector<char>& bytes, std::uint64_t from, std::uint64_t to) {
  char pattern[8], replacement[8];
  for (int i = 0; i < 8; ++i) {
    pattern[i] = static_cast<char>(from >> (8 * i));
    replacement[i] = static_cast<char>(to >> (8 * i));
  }
  int found = 0;
  for (auto at = std::search(bytes.begin(), bytes.end(), pattern, pattern + 8); at != bytes.end();
       at = std::search(at + 8, bytes.end(), pattern, pattern + 8), ++found)
    std::copy(replacement, replacement + 8, at);
  REQUIRE(found >= 1);
  REQUIRE(found <= 2);
}

// A root attribute of 23,130 bytes whose dataspace is then patched to declare 2^40 more values:
// libhdf5 allocates and copies what the dataspace declares when it decodes the attribute
// message (H5Aexists, opening the file), which in a file without checksums it does unchecked.
void write_inflated_attribute(const std::string& path, hid_t access) {
  {
    h5::File file{h5::Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access)), path};
    REQUIRE(file.handle.valid());
    write_array_attribute(file, "format_version", H5T_NATIVE_UINT8, 0x5a5a);
  }
  std::vector<char> bytes = file_bytes(path);
  patch_u64(bytes, 0x5a5a, 0x5a5a + (std::uint64_t{1} << 40));
  write_bytes(path, bytes);
}

}  // namespace

TEST_CASE("files are written with checksummed metadata and read only so") {
  Folder folder;
  const std::string path = (folder.path / "new.h5").string();
  { const h5::File file = h5::create_file(path, path); }
  const std::vector<char> bytes = file_bytes(path);
  REQUIRE(bytes.size() > 9);
  CHECK(bytes[8] >= 2);  // superblock version 2 or 3: every metadata block has a checksum
  CHECK_NOTHROW(h5::open_file(path));

  // The format libhdf5 writes by default (superblock 0, object headers without checksums), as
  // this program wrote before: refused by name, before libhdf5 parses any of it.
  const std::string old = (folder.path / "old.h5").string();
  {
    h5::File file{h5::Handle(H5Fcreate(old.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)), old};
  }
  CHECK(input_error([&] { h5::open_file(old); }) ==
        old +
            ": superblock: version 0: its metadata carries no checksums (files are read from "
            "superblock version 2 on, as this program writes them)");

  // One flipped bit of the superblock, and a truncated file.
  std::vector<char> flipped = bytes;
  flipped[20] ^= 0x10;
  const std::string corrupt = (folder.path / "corrupt.h5").string();
  write_bytes(corrupt, flipped);
  CHECK(input_error([&] { h5::open_file(corrupt); }) ==
        corrupt + ": superblock: checksum mismatch (corrupt file)");
  const std::string truncated = (folder.path / "truncated.h5").string();
  write_bytes(truncated, std::vector<char>(bytes.begin(), bytes.end() - 1));
  CHECK(input_error([&] { h5::open_file(truncated); }) ==
        truncated + ": superblock: truncated: end of file address " + std::to_string(bytes.size()) +
            ", file of " + std::to_string(bytes.size() - 1) + " bytes");
  const std::string other = (folder.path / "other.h5").string();
  write_bytes(other, std::vector<char>(64, 'x'));
  CHECK(input_error([&] { h5::open_file(other); }) ==
        other + ": superblock: not an HDF5 file (no signature at offset 0)");
}

TEST_CASE("a corrupt attribute message is refused, not decoded into a huge allocation") {
  Folder folder;
  // Written as this program writes: the corrupt object header fails its checksum.
  const std::string checked = (folder.path / "checked.h5").string();
  write_inflated_attribute(checked, h5::checksummed_access_properties().get());
  const std::string error = input_error([&] {
    const h5::File file = h5::open_file(checked);
    h5::read_int_attribute(file, "format_version");
  });
  CHECK_MESSAGE(error.starts_with(checked + ": "), error);
  // The default format: libhdf5 1.10.8 would allocate 8 TiB and read past the message (a
  // sanitizer abort); the file is refused before libhdf5 opens it.
  const std::string unchecked = (folder.path / "unchecked.h5").string();
  write_inflated_attribute(unchecked, H5P_DEFAULT);
  CHECK(input_error([&] {
          h5::open_file(unchecked);
        }).starts_with(unchecked + ": superblock: version 0: "));
}

TEST_CASE("a read that fails on another thread prints nothing of libhdf5's own") {
  Folder folder;
  const std::string path = (folder.path / "deflated.h5").string();
  haddr_t chunk_address = 0;
  hsize_t chunk_size = 0;
  {
    const h5::File file = h5::create_file(path, path);
    const hsize_t dims[1] = {4096}, chunk[1] = {4096};
    h5::Handle space(H5Screate_simple(1, dims, nullptr));
    h5::Handle properties(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(properties.get(), 1, chunk);
    H5Pset_deflate(properties.get(), 9);
    h5::Handle dataset(H5Dcreate2(file.id(), "/values", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                  properties.get(), H5P_DEFAULT));
    REQUIRE(dataset.valid());
    std::vector<double> values(4096);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::sin(double(i));
    REQUIRE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                     values.data()) >= 0);
    REQUIRE(H5Dflush(dataset.get()) >= 0);
    const hsize_t origin[1] = {0};
    REQUIRE(H5Dget_chunk_info_by_coord(dataset.get(), origin, nullptr, &chunk_address,
                                       &chunk_size) >= 0);
  }
  REQUIRE(chunk_size > 64);
  {  // the deflate stream's middle overwritten: the filter fails when the chunk is read
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(chunk_address + chunk_size / 2));
    const std::string garbage(16, '\xff');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const std::string log = (folder.path / "stderr.txt").string();
  std::string error;
  {
    // The thread's stderr (libhdf5 prints to the process's stderr) into `log` meanwhile.
    const int saved = ::dup(2);
    const int sink = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(saved >= 0);
    REQUIRE(sink >= 0);
    ::dup2(sink, 2);
    std::thread reader([&] {
      error = input_error([&] {
        const h5::File file = h5::open_file(path);
        std::vector<double> out(4096);
        h5::read_rows(file, "/values", H5T_NATIVE_DOUBLE, out.data(), 0, 4096);
      });
    });
    reader.join();
    ::dup2(saved, 2);
    ::close(sink);
    ::close(saved);
  }
  CHECK_MESSAGE(error == path + ": /values: read failed (corrupt or wrong type)", error);
  std::ifstream printed(log);
  const std::string text((std::istreambuf_iterator<char>(printed)), {});
  CHECK_MESSAGE(text.empty(), text);
}
