#pragma once
// 2MASS All-Sky Point Source Catalog rows (psc_*.gz; CATALOG_FORMATS.md section 2): 60
// '|'-separated fields, null "\N". A row that cannot be used is not an error: it is
// rejected with a reason, counted and (for the first few) reported with file:line.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "catalog/photometry.h"

namespace starlens::catalog {

constexpr int kPscFieldCount = 60;

// The fields ingest uses, as parsed from one row.
struct PscRow {
  double ra_deg = 0;
  double dec_deg = 0;
  std::array<double, 3> mag{};    // J, H, Ks; NaN when null
  std::array<char, 3> quality{};  // ph_qual letters for J, H, Ks
  std::int64_t pts_key = 0;       // the PSC's unique source key (field 29)
  bool usable(int band) const;    // quality A-E and a magnitude present
};

// Parses a row. Returns an empty string when it parsed, otherwise the rejection reason
// (not_ascii, field_count, bad_ra, bad_dec, bad_ph_qual, bad_magnitude, bad_pts_key) with
// `detail` filled in;
// a row with a byte outside printable ASCII is not_ascii, so details hold only ASCII.
std::string parse_psc_row(std::string_view line, PscRow& row, std::string& detail);

// Index (0 J, 1 H, 2 Ks) of a 2MASS band name; -1 for another band.
int psc_band_index(const std::string& band_name);

}  // namespace starlens::catalog
