#pragma once
// Growable chunked HDF5 datasets for the store writer (rows appended in batches, so a
// store larger than memory is written without holding it), and the stored size of chunks
// for the reader's bytes-read accounting. Objects are created without timestamps, so a
// store's bytes depend only on its content.
#include <cstdint>
#include <string>

#include "core/hdf5_file.h"

namespace starlens::catalog {

// Creates a file whose objects carry no modification times; throws RunFailure.
h5::File create_reproducible_file(const std::string& path, const std::string& display_path);
void create_reproducible_group(const h5::File& file, const std::string& name);

class AppendableDataset {
 public:
  // `columns` 0: 1-D; otherwise rows x columns. `deflate` 0: uncompressed.
  AppendableDataset(const h5::File& file, const std::string& name, hid_t type,
                    std::uint64_t columns, std::uint64_t chunk_rows, int deflate);
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

// Bytes stored in the file for the chunks holding rows [first, first+count) of a chunked
// dataset (compressed size when filtered); the whole storage size when not chunked.
std::uint64_t stored_bytes_of_rows(const h5::File& file, const std::string& name,
                                   std::uint64_t first, std::uint64_t count);

}  // namespace starlens::catalog
