#pragma once
// Stars on their way into the store (StarRecord: sorted by sky key) and out of it
// (CatalogStar: what the reader hands the producer).
#include <cstdint>
#include <tuple>

namespace starlens::catalog {

// One star as ingest and synth produce it. `key` is its HEALPix NESTED index at
// kKeyOrder (sky_cells.h); because NESTED indices are hierarchical, sorting by the key
// sorts by the cell at every coarser order, so the store's order can be chosen after all
// stars are known. 48 bytes, written as-is to temporary sort runs (`unused` is zero, so no
// byte of a run is indeterminate).
struct StarRecord {
  std::uint64_t key = 0;
  double ra_deg = 0;    // ICRS right ascension, [0, 360)
  double dec_deg = 0;   // ICRS declination, [-90, 90]
  std::int64_t id = 0;  // the star's identifier in its catalogue (docs/formats/catalog.md)
  float teff_k = 0;     // effective temperature, K
  float flux_jy = 0;    // reference-band flux density, Jy
  float mag = 0;        // the catalogue's magnitude in the reference band
  std::uint32_t unused = 0;
};
static_assert(sizeof(StarRecord) == 48);

// A total order (key, then every field), so the store's row order does not depend on the
// order the stars arrived in or on the thread count.
inline bool operator<(const StarRecord& a, const StarRecord& b) {
  return std::tie(a.key, a.ra_deg, a.dec_deg, a.teff_k, a.flux_jy, a.id, a.mag) <
         std::tie(b.key, b.ra_deg, b.dec_deg, b.teff_k, b.flux_jy, b.id, b.mag);
}

// One star as read back from a store: angles in radians (docs/design.md section 2: internal
// angles are radians; the file stores degrees).
struct CatalogStar {
  double ra = 0;           // rad
  double dec = 0;          // rad
  float teff_k = 0;        // K
  float flux_jy = 0;       // reference band, Jy
  std::uint64_t cell = 0;  // HEALPix NESTED cell at the store's order
};

}  // namespace starlens::catalog
