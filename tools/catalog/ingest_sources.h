#pragma once
// The three catalogue readers of ingest, each turning its rows into stars (position,
// temperature from the colour, reference-band flux) for the external sorter.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/external_sorter.h"
#include "catalog/photometry.h"
#include "core/progress.h"
#include "csv_catalog.h"
#include "rejection_log.h"

namespace starlens::catalog {

// What a reader saw, for the manifest and the store's attributes.
struct IngestTally {
  std::uint64_t rows_read = 0;
  std::uint64_t stars = 0;
  TemperatureCounts temperatures;
  GaiaGvCounts gaia_g_to_v;  // band G: the G -> V conversions
  RejectionLog rejections;
  nlohmann::json sources =
      nlohmann::json::array();  // [{"path", "size", "hash", "sha256_tree", "rows"}]
  void add(const IngestTally& other);
};

// Stellarium stars_*.cat: band V, temperature from B-V (Ballesteros 2012).
void ingest_stellarium(const std::vector<std::string>& files, ExternalSorter& sorter,
                       IngestTally& tally, Progress& progress);

// 2MASS psc_*.gz, files read in parallel (OpenMP): `band` J, H or Ks is the reference band
// (a row whose band is not usable is rejected); temperature from J-Ks (Casagrande 2010)
// when both are usable, kDefaultTemperatureK otherwise.
void ingest_twomass(const std::vector<std::string>& files, const Band& band, ExternalSorter& sorter,
                    IngestTally& tally, Progress& progress);

// CSV ra,dec,mag,teff|bv in `band` (or the columns `columns` maps), or with `fits` FITS binary
// tables of the mapped columns; B-V through Ballesteros 2012, BP-RP through Mucciarelli et al.
// 2021. Band G (the columns must map bp_rp) is converted to V through the Gaia G-V relation.
// A star's id is its mapped id column, else its row number over all files. Returns the
// relations' names joined by '+' ("given" for temperatures the files give).
std::string ingest_csv(const std::vector<std::string>& files, const Band& band,
                       const CsvColumns& columns, bool fits, ExternalSorter& sorter,
                       IngestTally& tally, Progress& progress);

}  // namespace starlens::catalog
