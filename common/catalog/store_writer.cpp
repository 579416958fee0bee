#include "catalog/store_writer.h"

#include <algorithm>

#include "catalog/store_format.h"
#include "core/errors.h"
#include "core/hdf5_error.h"

namespace starlens::catalog {

StoreWriter::StoreWriter(const std::filesystem::path& temp_path, const std::string& display_path,
                         int order, StoreDescription description)
    : file_(create_reproducible_file(temp_path.string(), display_path)),
      cells_(order),
      description_(std::move(description)) {
  create_reproducible_group(file_, store::kStarsGroup);
  create_reproducible_group(file_, store::kCellsGroup);
  const int deflate = description_.deflate;
  const h5::Handle table_file_type = star_table_file_type();
  const h5::Handle source_file_type = star_source_file_type();
  table_type_ = star_table_memory_type();
  source_type_ = star_source_memory_type();
  table_ =
      std::make_unique<AppendableDataset>(file_, store::kStarTable, table_file_type.get(),
                                          table_type_.get(), 0, store::kStarChunkRows, deflate);
  source_ =
      std::make_unique<AppendableDataset>(file_, store::kStarSource, source_file_type.get(),
                                          source_type_.get(), 0, store::kStarChunkRows, deflate);
  offsets_ = std::make_unique<AppendableDataset>(
      file_, store::kOffsets, H5T_STD_I64LE, H5T_NATIVE_INT64, 0, store::kOffsetChunkRows, deflate);
}

StoreWriter::~StoreWriter() = default;

void StoreWriter::advance_offsets_to(std::uint64_t cell) {
  // offsets[c] = the first row of cell c = the number of stars in cells before c.
  while (next_cell_ <= cell) {
    offsets_batch_.push_back(static_cast<std::int64_t>(count_));
    ++next_cell_;
    if (offsets_batch_.size() >= (1u << 16)) flush_offsets();
  }
}

void StoreWriter::flush_offsets() {
  offsets_->append(offsets_batch_.data(), offsets_batch_.size());
  offsets_batch_.clear();
}

void StoreWriter::append(std::span<const StarRecord> stars) {
  table_batch_.clear();
  source_batch_.clear();
  for (const StarRecord& star : stars) {
    if (star.key < last_key_)
      throw_run_failure(file_.path, "internal error: stars reached the writer out of key order");
    last_key_ = star.key;
    const std::uint64_t cell = cells_.cell_of_key(star.key);
    if (cell >= next_cell_) {
      // A new cell starts here: finish the statistics of the one before.
      if (current_cell_stars_ > 0) ++occupied_cells_;
      largest_cell_ = std::max(largest_cell_, current_cell_stars_);
      current_cell_stars_ = 0;
      advance_offsets_to(cell);
    }
    ++current_cell_stars_;
    table_batch_.push_back({star.ra_deg, star.dec_deg, star.teff_k, star.flux_jy});
    source_batch_.push_back({star.id, star.mag});
    ++count_;
  }
  table_->append(table_batch_.data(), table_batch_.size());
  source_->append(source_batch_.data(), source_batch_.size());
}

void StoreWriter::finish() {
  if (finished_) return;
  if (current_cell_stars_ > 0) ++occupied_cells_;
  largest_cell_ = std::max(largest_cell_, current_cell_stars_);
  advance_offsets_to(cells_.count());
  flush_offsets();
  using h5::write_attribute;
  write_attribute(file_, store::kAttrFormat, std::string(store::kFormat));
  write_attribute(file_, store::kAttrVersion, store::kVersion);
  write_attribute(file_, store::kAttrOrder, static_cast<std::int64_t>(cells_.order()));
  write_attribute(file_, store::kAttrCount, static_cast<std::int64_t>(count_));
  write_attribute(file_, store::kAttrScheme, std::string("NESTED"));
  write_attribute(file_, store::kAttrFrame, std::string("ICRS"));
  write_attribute(file_, store::kAttrAngleUnit, std::string("deg"));
  write_attribute(file_, store::kAttrBand, description_.band.name);
  write_attribute(file_, store::kAttrZeroPoint, description_.band.zero_point_jy);
  write_attribute(file_, store::kAttrWavelength, description_.band.wavelength_um);
  write_attribute(file_, store::kAttrTeffRelation, description_.teff_relation);
  write_attribute(file_, store::kAttrSources, description_.sources.dump());
  write_attribute(file_, store::kAttrGenerator, description_.generator.dump());
  write_attribute(file_, store::kAttrIdScheme, description_.id_scheme);
  table_.reset();
  source_.reset();
  offsets_.reset();
  h5::describe_table(file_, store::kStarTable, star_table_columns(description_.band.name));
  h5::describe_table(file_, store::kStarSource,
                     star_source_columns(description_.band.name, description_.id_scheme));
  h5::describe_dataset(file_, store::kOffsets, "",
                       "CSR: the stars of HEALPix NESTED cell c (order " +
                           std::to_string(cells_.order()) +
                           ") are the rows [offsets[c], offsets[c+1]) of /stars/table and "
                           "/stars/source");
  if (H5Fflush(file_.id(), H5F_SCOPE_GLOBAL) < 0)
    throw_run_failure(file_.path, hdf5_failure("cannot flush"));
  file_.handle.close();
  finished_ = true;
}

}  // namespace starlens::catalog
