#pragma once
// Names and constants of catalog.h5 (docs/design.md section 4; docs/formats/catalog.md).
#include <cstdint>

namespace starlens::catalog::store {

constexpr const char* kFormat = "starlens-catalog";
// 2: the star table and the sources as compound datasets, int64 offsets, units and
// descriptions on every dataset. Version 1 stores are refused by name.
constexpr std::int64_t kVersion = 2;

constexpr const char* kStarsGroup = "/stars";
constexpr const char* kCellsGroup = "/cells";
// N rows {ra float64 deg, dec float64 deg, teff float32 K, flux float32 Jy}: what produce reads.
constexpr const char* kStarTable = "/stars/table";
// N rows {id int64, mag float32}: each star's catalogue identifier and magnitude, apart from
// the table so that produce's reads do not grow.
constexpr const char* kStarSource = "/stars/source";
constexpr const char* kOffsets = "/cells/offsets";  // 12 * 4^order + 1 int64 (CSR)

// Root attributes.
constexpr const char* kAttrFormat = "format";
constexpr const char* kAttrVersion = "version";
constexpr const char* kAttrOrder = "order";
constexpr const char* kAttrCount = "count";
constexpr const char* kAttrScheme = "healpix_scheme";  // "NESTED"
constexpr const char* kAttrFrame = "frame";            // "ICRS"
constexpr const char* kAttrAngleUnit = "ra_dec_unit";  // "deg"
constexpr const char* kAttrBand = "band";
constexpr const char* kAttrZeroPoint = "F0";  // Jy
constexpr const char* kAttrWavelength = "band_wavelength_um";
constexpr const char* kAttrTeffRelation = "teff_relation";
constexpr const char* kAttrSources =
    "sources";  // JSON: [{"path", "size", "hash", "sha256_tree", "rows"}]
constexpr const char* kAttrGenerator = "generator";  // JSON: how the stars were made
constexpr const char* kAttrIdScheme = "id_scheme";   // what /stars/source's id is

// Rows per chunk of the star datasets (~1/16 of a cell-range read at 10^3 stars per cell
// of the default order is small; 16,384 rows = 384 KiB of the star table) and of the offsets.
constexpr std::uint64_t kStarChunkRows = 16384;
constexpr std::uint64_t kOffsetChunkRows = 4096;

}  // namespace starlens::catalog::store
