#include "catalog/store_reader.h"

#include <cmath>

#include "catalog/chunked_dataset.h"
#include "catalog/sky_cells.h"
#include "catalog/store_format.h"
#include "core/errors.h"

namespace starlens::catalog {
namespace {

constexpr std::uint64_t kTableBytes = sizeof(StoredStar);
constexpr std::uint64_t kPhotometryBytes = 8;  // teff + flux
constexpr std::uint64_t kSourceBytes = 12;
constexpr std::uint64_t kOffsetBytes = 8;

h5::Handle dataset_type(const h5::File& file, const std::string& name) {
  h5::Handle dataset(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  if (!dataset.valid()) throw_input_error(file.path, name, "dataset cannot be opened");
  return h5::Handle(H5Dget_type(dataset.get()));
}

void check_type(const h5::File& file, const std::string& name, H5T_class_t expected_class,
                std::size_t expected_size, const std::string& expected) {
  const h5::Handle type = dataset_type(file, name);
  if (H5Tget_class(type.get()) != expected_class || H5Tget_size(type.get()) != expected_size)
    throw_input_error(file.path, name, "not " + expected);
}

// A compound dataset must hold exactly the documented fields, types and packing (the table's
// rows are then read without conversion).
void check_compound(const h5::File& file, const std::string& name, const h5::Handle& expected,
                    const std::string& description) {
  const h5::Handle type = dataset_type(file, name);
  if (H5Tequal(type.get(), expected.get()) <= 0)
    throw_input_error(file.path, name, "not the compound " + description);
}

void check_shape(const h5::File& file, const std::string& name,
                 std::vector<std::uint64_t> expected) {
  const auto shape = h5::dataset_shape(file, name);
  if (shape != expected) {
    auto text = [](const std::vector<std::uint64_t>& dims) {
      std::string out;
      for (auto d : dims) {
        if (!out.empty()) out.append(" x ");
        out.append(std::to_string(d));
      }
      return out;
    };
    throw_input_error(file.path, name, "shape " + text(shape) + ", expected " + text(expected));
  }
}

std::int64_t read_nonnegative(const h5::File& file, const std::string& name) {
  const std::int64_t value = h5::read_int_attribute(file, name);
  if (value < 0) throw_input_error(file.path, "attribute " + name, "negative");
  return value;
}

}  // namespace

CatalogStore::CatalogStore(const std::filesystem::path& path)
    : file_(h5::open_file(path.string())) {
  const std::string format = h5::read_string_attribute(file_, store::kAttrFormat);
  if (format != store::kFormat)
    throw_input_error(file_.path, "attribute format", "'" + format + "' is not " + store::kFormat);
  const std::int64_t version = h5::read_int_attribute(file_, store::kAttrVersion);
  if (version == 1)
    throw_input_error(file_.path, "attribute version",
                      "1: a store without star ids, written by an earlier starlens-catalog "
                      "(this build reads version " +
                          std::to_string(store::kVersion) + "; ingest the catalogue again)");
  if (version != store::kVersion)
    throw_input_error(file_.path, "attribute version",
                      std::to_string(version) + " unsupported (this build reads " +
                          std::to_string(store::kVersion) + ")");
  const std::int64_t order = read_nonnegative(file_, store::kAttrOrder);
  if (order > kMaxStoreOrder)
    throw_input_error(file_.path, "attribute order",
                      std::to_string(order) + " above " + std::to_string(kMaxStoreOrder));
  order_ = static_cast<int>(order);
  cell_count_ = 12ull << (2 * order_);
  star_count_ = static_cast<std::uint64_t>(read_nonnegative(file_, store::kAttrCount));
  if (h5::read_string_attribute(file_, store::kAttrScheme) != "NESTED")
    throw_input_error(file_.path, "attribute healpix_scheme", "not NESTED");
  if (h5::read_string_attribute(file_, store::kAttrAngleUnit) != "deg")
    throw_input_error(file_.path, "attribute ra_dec_unit", "not deg");
  band_.name = h5::read_string_attribute(file_, store::kAttrBand);
  if (band_.name != "V" && band_.name != "J" && band_.name != "H" && band_.name != "Ks" &&
      band_.name != "G")
    throw_input_error(file_.path, "attribute band", "'" + band_.name + "' is not V, J, H, Ks or G");
  band_.zero_point_jy = h5::read_double_attribute(file_, store::kAttrZeroPoint);
  band_.wavelength_um = h5::read_double_attribute(file_, store::kAttrWavelength);
  if (!(band_.zero_point_jy > 0) || !std::isfinite(band_.zero_point_jy))
    throw_input_error(file_.path, "attribute F0", "not a positive number");
  if (!(band_.wavelength_um > 0) || !std::isfinite(band_.wavelength_um))
    throw_input_error(file_.path, "attribute band_wavelength_um", "not a positive number");
  teff_relation_ = h5::read_string_attribute(file_, store::kAttrTeffRelation);
  sources_json_ = h5::read_string_attribute(file_, store::kAttrSources);
  generator_json_ = h5::read_string_attribute(file_, store::kAttrGenerator);
  id_scheme_ = h5::read_string_attribute(file_, store::kAttrIdScheme);

  check_shape(file_, store::kStarTable, {star_count_});
  check_shape(file_, store::kStarSource, {star_count_});
  check_shape(file_, store::kOffsets, {cell_count_ + 1});
  check_compound(file_, store::kStarTable, star_table_file_type(),
                 "{ra float64, dec float64, teff float32, flux float32}");
  check_compound(file_, store::kStarSource, star_source_file_type(), "{id int64, mag float32}");
  check_type(file_, store::kOffsets, H5T_INTEGER, 8, "64-bit integers");
  columns_.emplace(Columns{StoredRows(file_, store::kOffsets), StoredRows(file_, store::kStarTable),
                           StoredRows(file_, store::kStarSource)});
  std::uint64_t first = 1, last = 0;
  columns_->offsets.read(H5T_NATIVE_UINT64, &first, 0, 1);
  columns_->offsets.read(H5T_NATIVE_UINT64, &last, cell_count_, 1);
  if (first != 0 || last != star_count_)
    throw_input_error(file_.path, store::kOffsets,
                      "first/last entry " + std::to_string(first) + "/" + std::to_string(last) +
                          ", expected 0/" + std::to_string(star_count_));
}

void CatalogStore::check_range(std::uint64_t first_cell, std::uint64_t end_cell) const {
  if (first_cell > end_cell || end_cell > cell_count_)
    throw_input_error(file_.path, "cell range",
                      std::to_string(first_cell) + ":" + std::to_string(end_cell) +
                          " outside 0:" + std::to_string(cell_count_));
}

std::vector<std::uint64_t> CatalogStore::read_offsets(std::uint64_t first_cell,
                                                      std::uint64_t end_cell) {
  check_range(first_cell, end_cell);
  std::vector<std::uint64_t> offsets(end_cell - first_cell + 1);
  columns_->offsets.read(H5T_NATIVE_UINT64, offsets.data(), first_cell, offsets.size());
  statistics_.bytes_requested += offsets.size() * kOffsetBytes;
  statistics_.bytes_read += columns_->offsets.stored_bytes(first_cell, offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] > star_count_ || (i > 0 && offsets[i] < offsets[i - 1]))
      throw_input_error(file_.path, store::kOffsets,
                        "entry " + std::to_string(first_cell + i) + " = " +
                            std::to_string(offsets[i]) + " is decreasing or beyond the star count");
  }
  return offsets;
}

StoredCells CatalogStore::read_rows_of_cells(std::uint64_t first_cell, std::uint64_t end_cell,
                                             std::uint64_t first_row,
                                             std::vector<std::uint64_t> offsets) {
  StoredCells stored{file_.path, first_cell, end_cell, first_row, std::move(offsets), {}};
  const std::uint64_t count = stored.offsets.back();
  stored.rows.resize(count);
  columns_->table.read(table_type_.get(), stored.rows.data(), first_row, count);
  statistics_.bytes_read += columns_->table.stored_bytes(first_row, count);
  statistics_.bytes_requested += count * kTableBytes;
  statistics_.stars_read += count;
  statistics_.cells_read += end_cell - first_cell;
  return stored;
}

CellBlock CatalogStore::decode_cells(StoredCells stored) {
  CellBlock block;
  block.first_cell = stored.first_cell;
  block.end_cell = stored.end_cell;
  block.stars.resize(stored.offsets.back());
  for (std::uint64_t cell = stored.first_cell; cell < stored.end_cell; ++cell) {
    const std::uint64_t local = cell - stored.first_cell;
    for (std::uint64_t i = stored.offsets[local]; i < stored.offsets[local + 1]; ++i) {
      const StoredStar& row = stored.rows[i];
      const double ra = row.ra_deg, dec = row.dec_deg;
      const float teff = row.teff_k, flux = row.flux_jy;
      if (!(ra >= 0 && ra < 360) || !(dec >= -90 && dec <= 90))
        throw_input_error(stored.path, std::string(store::kStarTable) + " ra, dec",
                          "row " + std::to_string(stored.first_row + i) +
                              " is not a position (ra " + std::to_string(ra) + ", dec " +
                              std::to_string(dec) + ")");
      if (!(teff > 0) || !std::isfinite(teff) || !(flux > 0) || !std::isfinite(flux))
        throw_input_error(stored.path, std::string(store::kStarTable) + " teff, flux",
                          "row " + std::to_string(stored.first_row + i) +
                              " is not a positive temperature and flux");
      block.stars[i] = {ra * kDegree, dec * kDegree, teff, flux, cell};
    }
  }
  block.offsets = std::move(stored.offsets);
  return block;
}

void CatalogStore::read_photometry(std::uint64_t first_row, std::uint64_t count,
                                   std::vector<float>& teff, std::vector<float>& flux) {
  std::vector<float> pairs(2 * count);
  columns_->table.read(photometry_type_.get(), pairs.data(), first_row, count);
  teff.resize(count);
  flux.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    teff[i] = pairs[2 * i];
    flux[i] = pairs[2 * i + 1];
  }
  statistics_.bytes_requested += count * kPhotometryBytes;
  statistics_.bytes_read += columns_->table.stored_bytes(first_row, count);
}

std::vector<StoredSource> CatalogStore::read_sources(std::uint64_t first_row, std::uint64_t count) {
  std::vector<StoredSource> sources(count);
  columns_->source.read(source_type_.get(), sources.data(), first_row, count);
  statistics_.bytes_requested += count * kSourceBytes;
  statistics_.bytes_read += columns_->source.stored_bytes(first_row, count);
  return sources;
}

StoredCells CatalogStore::read_stored_cells(std::uint64_t first_cell, std::uint64_t end_cell) {
  std::vector<std::uint64_t> offsets = read_offsets(first_cell, end_cell);
  const std::uint64_t first_row = offsets.front();
  for (auto& offset : offsets) offset -= first_row;
  return read_rows_of_cells(first_cell, end_cell, first_row, std::move(offsets));
}

CellBlock CatalogStore::read_cells(std::uint64_t first_cell, std::uint64_t end_cell) {
  return decode_cells(read_stored_cells(first_cell, end_cell));
}

void CatalogStore::for_each_block(std::uint64_t first_cell, std::uint64_t end_cell,
                                  std::uint64_t max_stars,
                                  const std::function<void(const CellBlock&)>& visit) {
  check_range(first_cell, end_cell);
  // Offsets are read a slab at a time, so a whole-sky pass at a fine order stays bounded.
  constexpr std::uint64_t kOffsetSlab = 1 << 20;
  std::uint64_t cell = first_cell;
  while (cell < end_cell) {
    const std::uint64_t slab_end = std::min(end_cell, cell + kOffsetSlab);
    const std::vector<std::uint64_t> offsets = read_offsets(cell, slab_end);
    const std::uint64_t slab_first = cell;
    while (cell < slab_end) {
      std::uint64_t block_end = cell + 1;
      while (block_end < slab_end &&
             offsets[block_end + 1 - slab_first] - offsets[cell - slab_first] <= max_stars)
        ++block_end;
      const std::uint64_t first_row = offsets[cell - slab_first];
      std::vector<std::uint64_t> block_offsets;
      for (std::uint64_t c = cell; c <= block_end; ++c)
        block_offsets.push_back(offsets[c - slab_first] - first_row);
      visit(decode_cells(read_rows_of_cells(cell, block_end, first_row, std::move(block_offsets))));
      cell = block_end;
    }
  }
}

}  // namespace starlens::catalog
