#pragma once
// The reader API of catalog.h5 (docs/design.md section 4), for produce and info: open and validate
// a store, then read cell ranges [first, end) touching only the chunks that hold them.
// Not thread-safe (HDF5 is built serial): read blocks on one thread, process them in many.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/chunked_dataset.h"
#include "catalog/photometry.h"
#include "catalog/star_record.h"
#include "catalog/store_rows.h"
#include "core/hdf5_file.h"

namespace starlens::catalog {

// The stars of consecutive cells [first_cell, end_cell).
struct CellBlock {
  std::uint64_t first_cell = 0;
  std::uint64_t end_cell = 0;
  std::vector<std::uint64_t> offsets;  // end_cell - first_cell + 1 entries, offsets[0] == 0
  std::vector<CatalogStar> stars;
  std::span<const CatalogStar> cell(std::uint64_t cell_index) const {
    const std::uint64_t i = cell_index - first_cell;
    return std::span<const CatalogStar>(stars).subspan(offsets[i], offsets[i + 1] - offsets[i]);
  }
};

// Consecutive cells' rows as stored (degrees, unchecked): what read_stored_cells reads under
// HDF5, which is serial; decode_cells turns them into a CellBlock on any thread.
struct StoredCells {
  std::string path;  // of the store, for errors
  std::uint64_t first_cell = 0;
  std::uint64_t end_cell = 0;
  std::uint64_t first_row = 0;
  std::vector<std::uint64_t> offsets;  // as CellBlock::offsets
  std::vector<StoredStar> rows;        // /stars/table's rows
};

// What the reads touched so far.
struct ReadStatistics {
  std::uint64_t cells_read = 0;
  std::uint64_t stars_read = 0;
  // Bytes of the datasets' rows requested (24 per star of /stars/table, 12 of /stars/source,
  // offsets 8 per entry).
  std::uint64_t bytes_requested = 0;
  // Bytes of the file's chunks holding those rows, as stored: what HDF5 reads from disk for
  // them (file metadata aside). Chunks at the ends of a range are counted whole.
  std::uint64_t bytes_read = 0;
};

class CatalogStore {
 public:
  // Opens and validates: format, version, order, count, attributes, dataset shapes and
  // types, offsets[0] == 0 and offsets[last] == count. InputError naming the file otherwise.
  explicit CatalogStore(const std::filesystem::path& path);

  const std::string& path() const { return file_.path; }
  int order() const { return order_; }
  std::uint64_t cell_count() const { return cell_count_; }
  std::uint64_t star_count() const { return star_count_; }
  const Band& band() const { return band_; }
  const std::string& teff_relation() const { return teff_relation_; }
  const std::string& sources_json() const { return sources_json_; }
  const std::string& generator_json() const { return generator_json_; }

  // Offsets of cells [first, end]: end - first + 1 entries, absolute row numbers.
  std::vector<std::uint64_t> read_offsets(std::uint64_t first_cell, std::uint64_t end_cell);
  // Stars of cells [first, end). InputError on a range outside the store, inconsistent
  // offsets (decreasing, beyond the count), or a star that is not a position with a positive
  // finite temperature and flux.
  CellBlock read_cells(std::uint64_t first_cell, std::uint64_t end_cell);
  // read_cells in two steps: the reads (InputError on a range outside the store or
  // inconsistent offsets), then the stars' checks and conversion, which touch no HDF5 (so
  // other threads may decode while this one reads on).
  StoredCells read_stored_cells(std::uint64_t first_cell, std::uint64_t end_cell);
  static CellBlock decode_cells(StoredCells stored);
  // Reads [first, end) in blocks of whole cells holding at most `max_stars` stars each
  // (a single larger cell makes a block of its own) and hands each block to `visit`.
  void for_each_block(std::uint64_t first_cell, std::uint64_t end_cell, std::uint64_t max_stars,
                      const std::function<void(const CellBlock&)>& visit);
  // Only the temperatures and fluxes of rows [first_row, first_row + count) (histograms).
  void read_photometry(std::uint64_t first_row, std::uint64_t count, std::vector<float>& teff,
                       std::vector<float>& flux);
  // The ids and catalogue magnitudes of rows [first_row, first_row + count) (/stars/source).
  std::vector<StoredSource> read_sources(std::uint64_t first_row, std::uint64_t count);
  const std::string& id_scheme() const { return id_scheme_; }

  const ReadStatistics& statistics() const { return statistics_; }

 private:
  void check_range(std::uint64_t first_cell, std::uint64_t end_cell) const;
  // The rows of cells [first_cell, end_cell) from first_row on; `offsets` local to first_row.
  StoredCells read_rows_of_cells(std::uint64_t first_cell, std::uint64_t end_cell,
                                 std::uint64_t first_row, std::vector<std::uint64_t> offsets);

  h5::File file_;
  // The datasets, held open once the store is validated.
  struct Columns {
    StoredRows offsets;
    StoredRows table;
    StoredRows source;
  };
  std::optional<Columns> columns_;
  h5::Handle table_type_ = star_table_memory_type();
  h5::Handle photometry_type_ = star_photometry_memory_type();
  h5::Handle source_type_ = star_source_memory_type();
  int order_ = 0;
  std::uint64_t cell_count_ = 0;
  std::uint64_t star_count_ = 0;
  Band band_;
  std::string teff_relation_;
  std::string sources_json_;
  std::string generator_json_;
  std::string id_scheme_;
  ReadStatistics statistics_;
};

}  // namespace starlens::catalog
