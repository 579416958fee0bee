#include "catalog/chunked_dataset.h"

#include <algorithm>

#include "core/errors.h"
#include "core/hdf5_error.h"

namespace starlens::catalog {
namespace {

h5::Handle untimed_creation_properties(hid_t property_class) {
  h5::Handle properties(H5Pcreate(property_class));
  H5Pset_obj_track_times(properties.get(), false);
  return properties;
}

}  // namespace

h5::File create_reproducible_file(const std::string& path, const std::string& display_path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by the caller
  h5::Handle file_properties = untimed_creation_properties(H5P_FILE_CREATE);
  h5::File file{h5::Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_properties.get(),
                                     h5::checksummed_access_properties().get())),
                display_path};
  if (!file.handle.valid())
    throw_run_failure(display_path, hdf5_failure("cannot create HDF5 file"));
  return file;
}

void create_reproducible_group(const h5::File& file, const std::string& name) {
  h5::Handle properties = untimed_creation_properties(H5P_GROUP_CREATE);
  h5::Handle group(H5Gcreate2(file.id(), name.c_str(), H5P_DEFAULT, properties.get(), H5P_DEFAULT));
  if (!group.valid()) throw_run_failure(file.path, "cannot create group " + name);
}

AppendableDataset::AppendableDataset(const h5::File& file, const std::string& name, hid_t file_type,
                                     hid_t memory_type, std::uint64_t columns,
                                     std::uint64_t chunk_rows, int deflate)
    : file_(file), name_(name), type_(memory_type), columns_(columns) {
  const int rank = columns > 0 ? 2 : 1;
  const hsize_t dims[2] = {0, columns};
  const hsize_t max_dims[2] = {H5S_UNLIMITED, columns};
  h5::Handle space(H5Screate_simple(rank, dims, max_dims));
  h5::Handle properties = untimed_creation_properties(H5P_DATASET_CREATE);
  const hsize_t chunk[2] = {std::max<std::uint64_t>(1, chunk_rows), columns};
  H5Pset_chunk(properties.get(), rank, chunk);
  if (deflate > 0) {
    H5Pset_shuffle(properties.get());
    H5Pset_deflate(properties.get(), static_cast<unsigned>(deflate));
  }
  dataset_ = h5::Handle(H5Dcreate2(file.id(), name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                   properties.get(), H5P_DEFAULT));
  if (!dataset_.valid()) throw_run_failure(file.path, "cannot create dataset " + name);
}

void AppendableDataset::append(const void* rows_data, std::uint64_t rows) {
  if (rows == 0) return;
  const int rank = columns_ > 0 ? 2 : 1;
  const hsize_t new_dims[2] = {rows_ + rows, columns_};
  if (H5Dset_extent(dataset_.get(), new_dims) < 0)
    throw_run_failure(file_.path, "cannot extend dataset " + name_);
  h5::Handle file_space(H5Dget_space(dataset_.get()));
  const hsize_t start[2] = {rows_, 0};
  const hsize_t extent[2] = {rows, columns_};
  H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
  h5::Handle memory_space(H5Screate_simple(rank, extent, nullptr));
  if (H5Dwrite(dataset_.get(), type_, memory_space.get(), file_space.get(), H5P_DEFAULT,
               rows_data) < 0)
    throw_run_failure(file_.path, hdf5_failure("cannot write dataset " + name_));
  rows_ += rows;
}

StoredRows::StoredRows(const h5::File& file, const std::string& name)
    : path_(file.path), name_(name), shape_(h5::dataset_shape(file, name)) {
  h5::Handle probe(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  if (!probe.valid()) throw_input_error(path_, name, "dataset cannot be opened");
  h5::Handle creation(H5Dget_create_plist(probe.get()));
  chunked_ = H5Pget_layout(creation.get()) == H5D_CHUNKED;
  filtered_ = H5Pget_nfilters(creation.get()) > 0;
  if (chunked_) {
    hsize_t chunk[2] = {1, 1};
    H5Pget_chunk(creation.get(), 2, chunk);
    h5::Handle type(H5Dget_type(probe.get()));
    chunk_rows_ = chunk[0];
    chunk_bytes_ = chunk[0] * (shape_.size() == 2 ? chunk[1] : 1) * H5Tget_size(type.get());
  }
  if (!chunked_ || filtered_) {
    dataset_ = std::move(probe);
    return;
  }
  h5::Handle access(H5Pcreate(H5P_DATASET_ACCESS));
  H5Pset_chunk_cache(access.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
  probe.close();
  dataset_ = h5::Handle(H5Dopen2(file.id(), name.c_str(), access.get()));
  if (!dataset_.valid()) throw_input_error(path_, name, "dataset cannot be opened");
}

void StoredRows::read(hid_t type, void* out, std::uint64_t first, std::uint64_t count) const {
  h5::read_open_rows(dataset_.get(), shape_, path_, name_, type, out, first, count);
}

std::uint64_t StoredRows::stored_bytes(std::uint64_t first, std::uint64_t count) const {
  if (count == 0) return 0;
  if (!chunked_) return H5Dget_storage_size(dataset_.get());
  const std::uint64_t first_chunk = first / chunk_rows_;
  const std::uint64_t last_chunk = (first + count - 1) / chunk_rows_;
  // Unfiltered chunks are stored whole, edge chunks too.
  if (!filtered_) return (last_chunk - first_chunk + 1) * chunk_bytes_;
  std::uint64_t bytes = 0;
  for (std::uint64_t index = first_chunk; index <= last_chunk; ++index) {
    const hsize_t offset[2] = {index * chunk_rows_, 0};
    unsigned filter_mask = 0;
    haddr_t address = 0;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(dataset_.get(), offset, &filter_mask, &address, &size) < 0)
      throw_input_error(path_, name_, "chunk " + std::to_string(index) + " unreadable");
    bytes += size;
  }
  return bytes;
}

}  // namespace starlens::catalog
