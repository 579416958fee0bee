#pragma once
// Growable chunked HDF5 datasets for the store writer (rows appended in batches, so a
// store larger than memory is written without holding it), and datasets held open for the
// reader, with the stored size of chunks for its bytes-read accounting. Objects are created without
// timestamps, so a store's bytes depend only on its content.
#include <cstdint>
#include <string>
#include <vector>

#include "core/hdf5_file.h"

namespace starlens::catalog {

// Creates a file whose objects carry no modification times; throws RunFailure.
h5::File create_reproducible_file(const std::string& path, const std::string& display_path);
void create_reproducible_group(const h5::File& file, const std::string& name);

class AppendableDataset {
 public:
  // Values of `file_type` in the file, appended from `memory_type`. `columns` 0: 1-D;
  // otherwise rows x columns. `deflate` 0: uncompressed.
  AppendableDataset(const h5::File& file, const std::string& name, hid_t file_type,
                    hid_t memory_type, std::uint64_t columns, std::uint64_t chunk_rows,
                    int deflate);
  void append(const void* rows_data, std::uint64_t rows);
  std::uint64_t rows() const { return rows_; }

 private:
  const h5::File& file_;
  std::string name_;
  hid_t type_;
  std::uint64_t columns_;
  std::uint64_t rows_ = 0;
  h5::Handle dataset_;
};

// A dataset of a store held open for many row reads, so that opening it and its layout are
// paid once, not per read. Unfiltered chunks skip HDF5's chunk cache (which would only copy
// them once more); filtered ones keep it (an edge chunk is then decompressed once).
class StoredRows {
 public:
  // InputError naming the file when it cannot be opened.
  StoredRows(const h5::File& file, const std::string& name);
  // Rows [first, first+count) of a 1-D/2-D dataset converted to `type`; only their chunks are
  // read. InputError beyond the dataset's rows or on a failed read.
  void read(hid_t type, void* out, std::uint64_t first, std::uint64_t count) const;
  // Bytes stored in the file for the chunks holding those rows (compressed size when
  // filtered); the whole storage size when not chunked.
  std::uint64_t stored_bytes(std::uint64_t first, std::uint64_t count) const;

 private:
  std::string path_;
  std::string name_;
  h5::Handle dataset_;
  std::vector<std::uint64_t> shape_;
  bool chunked_ = false;
  bool filtered_ = false;
  std::uint64_t chunk_rows_ = 1;
  std::uint64_t chunk_bytes_ = 0;  // as stored, when unfiltered
};

}  // namespace starlens::catalog
