#pragma once
// The rows of catalog.h5's two compound datasets as they are in memory and in the file
// (docs/formats/catalog.md): the star table, which produce reads, and the stars' sources.
#include <cstdint>
#include <vector>

#include "core/hdf5_description.h"
#include "core/hdf5_file.h"

namespace starlens::catalog {

// One row of /stars/table: 24 bytes, the file's layout (so a read converts nothing).
struct StoredStar {
  double ra_deg = 0;
  double dec_deg = 0;
  float teff_k = 0;
  float flux_jy = 0;
};
static_assert(sizeof(StoredStar) == 24);

// One row of /stars/source (12 bytes packed in the file).
struct StoredSource {
  std::int64_t id = 0;
  float mag = 0;
};

// The file types (little-endian, packed) and the memory types of those rows.
h5::Handle star_table_file_type();
h5::Handle star_table_memory_type();
h5::Handle star_source_file_type();
h5::Handle star_source_memory_type();
// Only teff and flux of a /stars/table row, read into two consecutive floats.
h5::Handle star_photometry_memory_type();

// The columns' names, units and descriptions, for the datasets' attributes.
std::vector<h5::TableColumn> star_table_columns(const std::string& band);
std::vector<h5::TableColumn> star_source_columns(const std::string& band,
                                                 const std::string& id_scheme);

}  // namespace starlens::catalog
