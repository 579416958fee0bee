#include "core/hdf5_file.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/input_file.h"
#include "core/utf8.h"

namespace starlens::h5 {
namespace {

// HDF5 closes what is still open from an exit handler of its own; after a write failed (a full
// disk), the file's close fails and that handler crashed the process (segmentation fault in
// H5F__close_cb) after the tool had reported the error. Every file here is closed by its
// Handle, so the handler is not installed (H5dont_atexit must precede the library's start:
// this runs before main).
const bool kNoExitHandler = [] {
  H5dont_atexit();
  return true;
}();

// Per thread: a thread-safe libhdf5 keeps the automatic error printing of each thread apart,
// and the store's cells are read on reader threads.
void silence_hdf5_errors() {
  thread_local const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

[[noreturn]] void input_failure(const File& file, const std::string& object,
                                const std::string& why) {
  throw_input_error(file.path, object, why);
}

// Bob Jenkins' lookup3 hash (hashlittle, initial value 0), the checksum HDF5 stores after every
// metadata block of the 1.8 and later formats (superblock 2 and 3, object header 2, v2 B-trees,
// fractal heaps, chunk indexes).
std::uint32_t rotate(std::uint32_t x, int k) {
  return (x << k) | (x >> (32 - k));
}

std::uint32_t lookup3(const unsigned char* key, std::size_t length) {
  std::uint32_t a = 0xdeadbeef + static_cast<std::uint32_t>(length);
  std::uint32_t b = a, c = a;
  const auto word = [](const unsigned char* k, std::size_t available) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(available, 4); ++i)
      value |= std::uint32_t{k[i]} << (8 * i);
    return value;
  };
  while (length > 12) {
    a += word(key, 4);
    b += word(key + 4, 4);
    c += word(key + 8, 4);
    a -= c, a ^= rotate(c, 4), c += b;
    b -= a, b ^= rotate(a, 6), a += c;
    c -= b, c ^= rotate(b, 8), b += a;
    a -= c, a ^= rotate(c, 16), c += b;
    b -= a, b ^= rotate(a, 19), a += c;
    c -= b, c ^= rotate(b, 4), b += a;
    length -= 12;
    key += 12;
  }
  if (length == 0) return c;
  // The last 1..12 bytes, zero-padded (hashlittle's byte-wise tail).
  a += word(key, length);
  if (length > 4) b += word(key + 4, length - 4);
  if (length > 8) c += word(key + 8, length - 8);
  c ^= b, c -= rotate(b, 14);
  a ^= c, a -= rotate(c, 11);
  b ^= a, b -= rotate(a, 25);
  c ^= b, c -= rotate(b, 16);
  a ^= c, a -= rotate(c, 4);
  b ^= a, b -= rotate(a, 14);
  c ^= b, c -= rotate(b, 24);
  return c;
}

std::uint64_t little_endian(const unsigned char* bytes, std::size_t size) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < size; ++i) value |= std::uint64_t{bytes[i]} << (8 * i);
  return value;
}

}  // namespace

Handle checksummed_access_properties() {
  Handle properties(H5Pcreate(H5P_FILE_ACCESS));
  if (!properties.valid() ||
      H5Pset_libver_bounds(properties.get(), H5F_LIBVER_V110, H5F_LIBVER_V110) < 0)
    throw_run_failure("HDF5", "cannot set the file format bounds");
  return properties;
}

void require_checksummed_superblock(const std::string& path) {
  require_input_file(path);
  static constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  std::ifstream in(path, std::ios::binary);
  // Signature, version, 3 sizes and flags, 4 addresses of at most 8 bytes, the checksum.
  std::array<unsigned char, 8 + 4 + 4 * 8 + 4> block{};
  in.read(reinterpret_cast<char*>(block.data()), block.size());
  const auto have = static_cast<std::size_t>(in.gcount());
  if (have < 12 || std::memcmp(block.data(), kSignature, 8) != 0)
    throw_input_error(path, "superblock", "not an HDF5 file (no signature at offset 0)");
  const unsigned version = block[8];
  if (version < 2)
    throw_input_error(path, "superblock",
                      "version " + std::to_string(version) +
                          ": its metadata carries no checksums (files are read from superblock "
                          "version 2 on, as this program writes them)");
  if (version > 3)
    throw_input_error(path, "superblock",
                      "version " + std::to_string(version) + " is not known (2 or 3 are read)");
  const std::size_t offset_size = block[9];
  if (offset_size != 2 && offset_size != 4 && offset_size != 8)
    throw_input_error(path, "superblock",
                      "size of offsets " + std::to_string(offset_size) + " is not 2, 4 or 8");
  const std::size_t checked = 12 + 4 * offset_size;
  if (have < checked + 4) throw_input_error(path, "superblock", "truncated");
  const std::uint32_t stored = static_cast<std::uint32_t>(little_endian(&block[checked], 4));
  if (lookup3(block.data(), checked) != stored)
    throw_input_error(path, "superblock", "checksum mismatch (corrupt file)");
  const std::uint64_t base = little_endian(&block[12], offset_size);
  const std::uint64_t end = little_endian(&block[12 + 2 * offset_size], offset_size);
  if (base != 0)
    throw_input_error(path, "superblock", "base address " + std::to_string(base) + " is not 0");
  std::error_code error;
  const std::uint64_t size = std::filesystem::file_size(path, error);
  if (!error && end > size)
    throw_input_error(path, "superblock",
                      "truncated: end of file address " + std::to_string(end) + ", file of " +
                          std::to_string(size) + " bytes");
}

namespace {}  // namespace

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    close();
    id_ = other.id_;
    other.id_ = H5I_INVALID_HID;
  }
  return *this;
}

void Handle::close() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE:
      H5Fclose(id_);
      break;
    case H5I_GROUP:
      H5Gclose(id_);
      break;
    case H5I_DATASET:
      H5Dclose(id_);
      break;
    case H5I_DATASPACE:
      H5Sclose(id_);
      break;
    case H5I_DATATYPE:
      H5Tclose(id_);
      break;
    case H5I_ATTR:
      H5Aclose(id_);
      break;
    case H5I_GENPROP_LST:
      H5Pclose(id_);
      break;
    default:
      break;
  }
  id_ = H5I_INVALID_HID;
}

File create_file(const std::string& path, const std::string& display_path) {
  silence_hdf5_errors();
  File file{Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT,
                             checksummed_access_properties().get())),
            display_path};
  if (!file.handle.valid()) throw_run_failure(display_path, "cannot create HDF5 file");
  return file;
}

File open_file(const std::string& path) {
  silence_hdf5_errors();
  require_checksummed_superblock(path);
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw_input_error(path, "", "not an HDF5 file (or truncated/corrupt)");
  File file{Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)), path};
  if (!file.handle.valid()) throw_input_error(path, "", "HDF5 file cannot be opened (corrupt?)");
  return file;
}

Handle create_group(const File& file, const std::string& name) {
  Handle group(H5Gcreate2(file.id(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!group.valid()) throw_run_failure(file.path, "cannot create group " + name);
  return group;
}

bool has_object(const File& file, const std::string& name) {
  // Check each path component so that a missing parent group is not an HDF5 error.
  std::string prefix;
  std::size_t position = 0;
  while (position != std::string::npos) {
    const std::size_t next = name.find('/', position + 1);
    prefix = name.substr(0, next);
    if (!prefix.empty() && prefix != "/" && H5Lexists(file.id(), prefix.c_str(), H5P_DEFAULT) <= 0)
      return false;
    position = next;
  }
  return true;
}

void write_dataset(const File& file, const std::string& name, hid_t type, const void* data,
                   std::uint64_t rows, std::uint64_t columns, std::uint64_t chunk_rows) {
  const int rank = columns > 0 ? 2 : 1;
  const hsize_t dims[2] = {rows, columns};
  Handle space(H5Screate_simple(rank, dims, nullptr));
  Handle properties(H5Pcreate(H5P_DATASET_CREATE));
  if (chunk_rows > 0 && rows > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(chunk_rows, rows), columns};
    H5Pset_chunk(properties.get(), rank, chunk);
    H5Pset_deflate(properties.get(), 1);
  }
  Handle dataset(H5Dcreate2(file.id(), name.c_str(), type, space.get(), H5P_DEFAULT,
                            properties.get(), H5P_DEFAULT));
  if (!dataset.valid()) throw_run_failure(file.path, "cannot create dataset " + name);
  if (rows > 0 && H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw_run_failure(file.path, "cannot write dataset " + name + " (disk full?)");
}

namespace {

// Bytes deflate can expand to at most: its largest ratio is 1032:1 (RFC 1951 blocks).
constexpr std::uint64_t kMaxDeflateRatio = 1032;

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text;
  for (const std::uint64_t extent : shape)
    text += (text.empty() ? "" : " x ") + std::to_string(extent);
  return text;
}

// A dataset's declared shape must be one the file can hold: its values take at most what is
// stored for it (unfiltered: every row is written, so all of it; deflated: 1032 times it), and
// what is stored lies in the file. A few corrupt bytes of a dataspace must not make a reader
// allocate for rows that are not there.
void check_stored_size(const File& file, const std::string& name, hid_t dataset,
                       const std::vector<std::uint64_t>& shape) {
  Handle type(H5Dget_type(dataset));
  const std::uint64_t value_bytes = type.valid() ? H5Tget_size(type.get()) : 0;
  if (value_bytes == 0) input_failure(file, name, "unreadable value type");
  double logical = static_cast<double>(value_bytes);  // no overflow; exact far past any file
  for (const std::uint64_t extent : shape) logical *= static_cast<double>(extent);
  if (logical == 0) return;
  std::error_code error;
  const std::uint64_t file_bytes = std::filesystem::file_size(file.path, error);
  const std::uint64_t stored = H5Dget_storage_size(dataset);
  Handle creation(H5Dget_create_plist(dataset));
  const bool filtered = creation.valid() && H5Pget_nfilters(creation.get()) > 0;
  const double holdable = static_cast<double>(stored) * (filtered ? kMaxDeflateRatio : 1);
  if ((!error && stored > file_bytes) || logical > holdable)
    input_failure(
        file, name,
        "shape " + shape_text(shape) + " of " + std::to_string(value_bytes) +
            "-byte values does not fit the " + std::to_string(stored) + " bytes stored for it" +
            (error ? std::string() : " (file of " + std::to_string(file_bytes) + " bytes)"));
}

}  // namespace

std::vector<std::uint64_t> dataset_shape(const File& file, const std::string& name) {
  if (!has_object(file, name)) input_failure(file, name, "dataset missing");
  Handle dataset(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  if (!dataset.valid()) input_failure(file, name, "dataset cannot be opened");
  Handle space(H5Dget_space(dataset.get()));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2) input_failure(file, name, "unexpected rank " + std::to_string(rank));
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  std::vector<std::uint64_t> shape(dims, dims + rank);
  check_stored_size(file, name, dataset.get(), shape);
  return shape;
}

void read_rows(const File& file, const std::string& name, hid_t type, void* out,
               std::uint64_t first, std::uint64_t count) {
  silence_hdf5_errors();
  const auto shape = dataset_shape(file, name);
  Handle dataset(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  read_open_rows(dataset.get(), shape, file.path, name, type, out, first, count);
}

void read_open_rows(hid_t dataset, const std::vector<std::uint64_t>& shape, const std::string& path,
                    const std::string& name, hid_t type, void* out, std::uint64_t first,
                    std::uint64_t count) {
  silence_hdf5_errors();
  if (first + count > shape[0])
    throw_input_error(path, name,
                      "rows " + std::to_string(first) + "+" + std::to_string(count) +
                          " beyond its " + std::to_string(shape[0]) + " rows");
  if (count == 0) return;
  Handle file_space(H5Dget_space(dataset));
  const int rank = static_cast<int>(shape.size());
  const hsize_t start[2] = {first, 0};
  const hsize_t extent[2] = {count, rank == 2 ? shape[1] : 1};
  H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
  Handle memory_space(H5Screate_simple(rank, extent, nullptr));
  if (H5Dread(dataset, type, memory_space.get(), file_space.get(), H5P_DEFAULT, out) < 0)
    throw_input_error(path, name, "read failed (corrupt or wrong type)");
}

namespace {

void write_attribute_raw(const File& file, const std::string& name, hid_t type, const void* value) {
  H5Adelete(file.id(), name.c_str());
  Handle space(H5Screate(H5S_SCALAR));
  Handle attribute(
      H5Acreate2(file.id(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!attribute.valid() || H5Awrite(attribute.get(), type, value) < 0)
    throw_run_failure(file.path, "cannot write attribute " + name);
}

// Opens a single-valued attribute: its dataspace must be scalar (or a simple space of one
// element) and its type of `expected` class. An attribute stored as an array would otherwise be
// read, all of it, into the one value the caller holds.
Handle open_attribute(const File& file, const std::string& name, H5T_class_t expected) {
  const std::string field = "attribute " + name;
  if (H5Aexists(file.id(), name.c_str()) <= 0) input_failure(file, field, "missing");
  Handle attribute(H5Aopen(file.id(), name.c_str(), H5P_DEFAULT));
  if (!attribute.valid()) input_failure(file, field, "cannot be opened");
  Handle space(H5Aget_space(attribute.get()));
  const H5S_class_t space_class =
      space.valid() ? H5Sget_simple_extent_type(space.get()) : H5S_NO_CLASS;
  if (space_class == H5S_NULL)
    input_failure(file, field, "holds no value (null dataspace), expected a scalar");
  if (space_class == H5S_SIMPLE) {
    const hssize_t values = H5Sget_simple_extent_npoints(space.get());
    if (values != 1)
      input_failure(file, field,
                    "is an array of " + std::to_string(values) + " values, expected a scalar");
  } else if (space_class != H5S_SCALAR) {
    input_failure(file, field, "unreadable dataspace");
  }
  Handle type(H5Aget_type(attribute.get()));
  const H5T_class_t type_class = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  if (type_class != expected)
    input_failure(file, field,
                  expected == H5T_STRING  ? "not a string"
                  : expected == H5T_FLOAT ? "not a floating-point number"
                                          : "not an integer");
  return attribute;
}

}  // namespace

Handle utf8_string_type(std::size_t size) {
  Handle type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.get(), std::max<std::size_t>(size, 1));
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

void write_attribute(const File& file, const std::string& name, const std::string& value) {
  const Handle type = utf8_string_type(value.size());
  write_attribute_raw(file, name, type.get(), value.c_str());
}

void write_attribute(const File& file, const std::string& name, double value) {
  write_attribute_raw(file, name, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(const File& file, const std::string& name, std::int64_t value) {
  write_attribute_raw(file, name, H5T_NATIVE_INT64, &value);
}

bool has_attribute(const File& file, const std::string& name) {
  return H5Aexists(file.id(), name.c_str()) > 0;
}

std::string read_string_attribute(const File& file, const std::string& name) {
  Handle attribute = open_attribute(file, name, H5T_STRING);
  Handle type(H5Aget_type(attribute.get()));
  const std::string field = "attribute " + name;
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    Handle memory_type(H5Tcopy(H5T_C_S1));
    H5Tset_size(memory_type.get(), H5T_VARIABLE);
    if (H5Aread(attribute.get(), memory_type.get(), &text) < 0 || text == nullptr)
      input_failure(file, field, "unreadable");
    std::string value(text);
    H5free_memory(text);
    require_utf8(value, file.path, "attribute " + name);  // it may reach a manifest (JSON)
    return value;
  }
  // A fixed-length string is stored in the attribute's header message, inside the file.
  const std::size_t size = H5Tget_size(type.get());
  std::error_code error;
  const std::uint64_t file_bytes = std::filesystem::file_size(file.path, error);
  if (size == 0 || (!error && size > file_bytes))
    input_failure(file, field,
                  "declares a string of " + std::to_string(size) + " bytes in a file of " +
                      std::to_string(file_bytes));
  std::string value(size, '\0');
  if (H5Aread(attribute.get(), type.get(), value.data()) < 0)
    input_failure(file, field, "unreadable");
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  require_utf8(value, file.path, "attribute " + name);  // it may reach a manifest (JSON)
  return value;
}

double read_double_attribute(const File& file, const std::string& name) {
  Handle attribute = open_attribute(file, name, H5T_FLOAT);
  double value = 0;
  if (H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value) < 0)
    input_failure(file, "attribute " + name, "unreadable");
  return value;
}

std::int64_t read_int_attribute(const File& file, const std::string& name) {
  Handle attribute = open_attribute(file, name, H5T_INTEGER);
  std::int64_t value = 0;
  if (H5Aread(attribute.get(), H5T_NATIVE_INT64, &value) < 0)
    input_failure(file, "attribute " + name, "unreadable");
  return value;
}

}  // namespace starlens::h5
