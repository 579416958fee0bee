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
  ra_dec_ = std::make_unique<AppendableDataset>(file_, store::kRaDec, H5T_IEEE_F64LE, 2,
                                                store::kStarChunkRows, deflate);
  teff_ = std::make_unique<AppendableDataset>(file_, store::kTeff, H5T_IEEE_F32LE, 0,
                                              store::kStarChunkRows, deflate);
  flux_ = std::make_unique<AppendableDataset>(file_, store::kFlux, H5T_IEEE_F32LE, 0,
                                              store::kStarChunkRows, deflate);
  offsets_ = std::make_unique<AppendableDataset>(file_, store::kOffsets, H5T_STD_U64LE, 0,
                                                 store::kOffsetChunkRows, deflate);
}

StoreWriter::~StoreWriter() = default;

void StoreWriter::advance_offsets_to(std::uint64_t cell) {
  // offsets[c] = the first row of cell c = the number of stars in cells before c.
  while (next_cell_ <= cell) {
    offsets_batch_.push_back(count_);
    ++next_cell_;
    if (offsets_batch_.size() >= (1u << 16)) flush_offsets();
  }
}

void StoreWriter::flush_offsets() {
  offsets_->append(offsets_batch_.data(), offsets_batch_.size());
  offsets_batch_.clear();
}

void StoreWriter::append(std::span<const StarRecord> stars) {
  ra_dec_batch_.clear();
  teff_batch_.clear();
  flux_batch_.clear();
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
    ra_dec_batch_.push_back(star.ra_deg);
    ra_dec_batch_.push_back(star.dec_deg);
    teff_batch_.push_back(star.teff_k);
    flux_batch_.push_back(star.flux_jy);
    ++count_;
  }
  ra_dec_->append(ra_dec_batch_.data(), teff_batch_.size());
  teff_->append(teff_batch_.data(), teff_batch_.size());
  flux_->append(flux_batch_.data(), flux_batch_.size());
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
  ra_dec_.reset();
  teff_.reset();
  flux_.reset();
  offsets_.reset();
  if (H5Fflush(file_.id(), H5F_SCOPE_GLOBAL) < 0)
    throw_run_failure(file_.path, hdf5_failure("cannot flush"));
  file_.handle.close();
  finished_ = true;
}

}  // namespace starlens::catalog
