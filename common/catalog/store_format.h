#pragma once
// Names and constants of catalog.h5 (docs/design.md section 4; docs/formats/catalog.md).
#include <cstdint>

namespace starlens::catalog::store {

constexpr const char* kFormat = "starlens-catalog";
constexpr std::int64_t kVersion = 1;

constexpr const char* kStarsGroup = "/stars";
constexpr const char* kCellsGroup = "/cells";
constexpr const char* kRaDec = "/stars/ra_dec";     // N x 2 float64, ICRS degrees
constexpr const char* kTeff = "/stars/teff";        // N float32, K
constexpr const char* kFlux = "/stars/flux";        // N float32, Jy in the reference band
constexpr const char* kOffsets = "/cells/offsets";  // 12 * 4^order + 1 uint64 (CSR)

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

// Rows per chunk of the star datasets (~1/16 of a cell-range read at 10^3 stars per cell
// of the default order is small; 16,384 rows = 256 KiB of ra_dec) and of the offsets.
constexpr std::uint64_t kStarChunkRows = 16384;
constexpr std::uint64_t kOffsetChunkRows = 4096;

}  // namespace starlens::catalog::store
