#pragma once
// Thin RAII over HDF5's C API, shared by the lens map and the catalogue store. HDF5's own
// error printing is silenced; failures become InputError/RunFailure naming file and object.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace starlens::h5 {

// Owns one hid_t and closes it with the matching H5*close.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& other) noexcept : id_(other.id_) { other.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { close(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void close();

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// An HDF5 file; `path` is kept for messages.
struct File {
  Handle handle;
  std::string path;
  hid_t id() const { return handle.get(); }
};

// File access properties for every file the tools write: format bounds of HDF5 1.10 (superblock
// version 3, version 2 object headers, checksummed B-trees, heaps and chunk indexes), so that
// libhdf5 verifies every metadata block's checksum before it parses it.
Handle checksummed_access_properties();
// Refuses (InputError naming `path`) a file whose metadata is not checksummed or is truncated:
// the superblock must be at offset 0, of version 2 or 3, its checksum must match and the end of
// file address it records must not lie past the file's size. Run before libhdf5 sees the file.
void require_checksummed_superblock(const std::string& path);
// Creates (truncating) a file for writing; throws RunFailure.
File create_file(const std::string& path, const std::string& display_path);
// Opens read-only; throws InputError when missing, not HDF5 or corrupt.
File open_file(const std::string& path);

Handle create_group(const File& file, const std::string& name);
bool has_object(const File& file, const std::string& name);

// Writes a row-major 1-D or 2-D dataset, chunked along rows and deflate-compressed when
// `chunk_rows` > 0. `type` is a native HDF5 type such as H5T_NATIVE_DOUBLE.
void write_dataset(const File& file, const std::string& name, hid_t type, const void* data,
                   std::uint64_t rows, std::uint64_t columns, std::uint64_t chunk_rows = 0);
// The shape of a dataset: {rows} or {rows, columns}; throws InputError if it is missing.
std::vector<std::uint64_t> dataset_shape(const File& file, const std::string& name);
// Reads rows [first, first+count) of a 1-D/2-D dataset converted to `type`. Only the
// selected rows are read (a hyperslab), so reads of a chunked dataset touch only its chunks.
void read_rows(const File& file, const std::string& name, hid_t type, void* out,
               std::uint64_t first, std::uint64_t count);
// The same from a dataset the caller holds open, of shape `shape` (readers that read it many
// times); `path` and `name` name it in errors.
void read_open_rows(hid_t dataset, const std::vector<std::uint64_t>& shape, const std::string& path,
                    const std::string& name, hid_t type, void* out, std::uint64_t first,
                    std::uint64_t count);

// A fixed-length UTF-8 string type (H5T_CSET_UTF8, null-padded) of `size` bytes (at least 1):
// fixed-length strings live in the checksummed object header, not in the unchecksummed
// global heap that variable-length strings need.
Handle utf8_string_type(std::size_t size);

// Root attributes; strings are written as utf8_string_type.
void write_attribute(const File& file, const std::string& name, const std::string& value);
void write_attribute(const File& file, const std::string& name, double value);
void write_attribute(const File& file, const std::string& name, std::int64_t value);
std::string read_string_attribute(const File& file, const std::string& name);
double read_double_attribute(const File& file, const std::string& name);
std::int64_t read_int_attribute(const File& file, const std::string& name);
bool has_attribute(const File& file, const std::string& name);

}  // namespace starlens::h5
