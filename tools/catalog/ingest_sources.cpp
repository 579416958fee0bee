#include "ingest_sources.h"

#include <omp.h>

#include <exception>

#include "core/errors.h"
#include "csv_catalog.h"
#include "fits_catalog.h"
#include "gzip_lines.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/hash_scheme.h"
#include "star_batcher.h"
#include "stellarium_reader.h"
#include "twomass_psc.h"

namespace starlens::catalog {
namespace {

nlohmann::json hashed_source(const std::string& path, std::uint64_t rows) {
  std::error_code ignored;
  nlohmann::json source = {{"path", path}, {"size", std::filesystem::file_size(path, ignored)}};
  source.update(tree_hash_fields(block_tree_sha256_file(path)));
  source["rows"] = rows;
  return source;
}

// One 2MASS file: rows to stars, rejections logged with file:line.
IngestTally ingest_psc_file(const std::string& path, int band, ExternalSorter& sorter,
                            Progress& progress) {
  IngestTally tally;
  GzipLines lines(path);
  StarBatcher batcher(sorter);
  const auto& relation = casagrande2010_j_ks();
  const Band& reference = band_by_name(band == 0 ? "J" : band == 1 ? "H" : "Ks", "--band");
  constexpr int kJ = 0, kKs = 2;
  constexpr const char* kBandNames[3] = {"J", "H", "Ks"};
  std::string_view line;
  std::string detail;
  PscRow row;
  std::uint64_t reported_bytes = 0;
  while (lines.next(line)) {
    ++tally.rows_read;
    const std::string reason = parse_psc_row(line, row, detail);
    if (!reason.empty()) {
      tally.rejections.reject(reason, path, lines.line_number(), detail);
    } else if (!row.usable(band)) {
      tally.rejections.reject("reference_band_unusable", path, lines.line_number(),
                              std::string(kBandNames[band]) + " ph_qual '" +
                                  row.quality[static_cast<std::size_t>(band)] +
                                  "' (only A-E are used)");
    } else {
      const double teff =
          row.usable(kJ) && row.usable(kKs)
              ? temperature_from_colour(relation, row.mag[kJ] - row.mag[kKs], tally.temperatures)
              : (++tally.temperatures.without_colour, kDefaultTemperatureK);
      const double mag = row.mag[static_cast<std::size_t>(band)];
      batcher.add(row.ra_deg, row.dec_deg, teff, flux_density_jy(reference, mag), row.pts_key, mag);
      ++tally.stars;
    }
    if ((tally.rows_read & 0xfff) == 0) {
      progress.advance(lines.compressed_bytes_read() - reported_bytes);
      reported_bytes = lines.compressed_bytes_read();
    }
  }
  batcher.flush();
  progress.advance(lines.compressed_bytes_read() - reported_bytes);
  nlohmann::json source = {{"path", path}, {"size", lines.file_size()}};
  source.update(tree_hash_fields(lines.tree_sha256()));
  source["rows"] = tally.rows_read;
  tally.sources.push_back(source);
  return tally;
}

}  // namespace

void IngestTally::add(const IngestTally& other) {
  rows_read += other.rows_read;
  stars += other.stars;
  temperatures.add(other.temperatures);
  gaia_g_to_v.add(other.gaia_g_to_v);
  rejections.merge(other.rejections);
  for (const auto& source : other.sources) sources.push_back(source);
}

void ingest_stellarium(const std::vector<std::string>& files, ExternalSorter& sorter,
                       IngestTally& tally, Progress& progress) {
  // Every header is checked before any star is read.
  std::vector<StellariumCatalogue> catalogues;
  for (const auto& file : files) catalogues.emplace_back(file);
  const Band& band = band_by_name("V", "--band");
  const auto& relation = ballesteros2012_b_v();
  for (std::size_t i = 0; i < files.size(); ++i) {
    StarBatcher batcher(sorter);
    std::uint64_t rows = 0;
    catalogues[i].for_each_star([&](const StellariumStar& star) {
      ++rows;
      const double teff = temperature_from_colour(relation, star.b_v, tally.temperatures);
      batcher.add(star.ra_deg, star.dec_deg, teff, flux_density_jy(band, star.v_mag),
                  stellarium_star_id(catalogues[i].header().level, star), star.v_mag);
    });
    batcher.flush();
    tally.rows_read += rows;
    tally.stars += rows;
    tally.sources.push_back(hashed_source(files[i], rows));
    std::error_code ignored;
    progress.advance(std::filesystem::file_size(files[i], ignored));
  }
}

void ingest_twomass(const std::vector<std::string>& files, const Band& band, ExternalSorter& sorter,
                    IngestTally& tally, Progress& progress) {
  const int band_index = psc_band_index(band.name);
  if (band_index < 0) throw_input_error("--band", "", "2MASS has J, H and Ks, not " + band.name);
  std::vector<IngestTally> per_file(files.size());
  std::vector<std::exception_ptr> failures(files.size());
  const long file_count = static_cast<long>(files.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < file_count; ++i) {
    try {
      per_file[static_cast<std::size_t>(i)] =
          ingest_psc_file(files[static_cast<std::size_t>(i)], band_index, sorter, progress);
    } catch (...) {
      failures[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  // The first failing file in command-line order is reported, whatever the thread timing.
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
  for (const auto& file_tally : per_file) tally.add(file_tally);
}

std::string ingest_csv(const std::vector<std::string>& files, const Band& band,
                       const CsvColumns& columns, bool fits, ExternalSorter& sorter,
                       IngestTally& tally, Progress& progress) {
  const bool gaia_g = band.name == "G";
  if (gaia_g && mapped_colour(columns) != CsvColour::bp_rp)
    throw_input_error("--band", "G",
                      "needs the BP-RP colour for the G-V relation (--columns bp_rp=NAME)");
  bool seen[3] = {false, false, false};  // teff, bv, bp_rp
  std::int64_t id = 0;                   // the star's number over all files, in command-line order
  for (const auto& file : files) {
    StarBatcher batcher(sorter);
    std::uint64_t rows = 0;
    const auto reader = fits ? read_fits_catalogue : read_csv_catalogue;
    const CsvColour colour = reader(file, columns, [&](const CsvStar& star) {
      ++rows;
      double teff = star.teff_or_bv;
      if (star.colour == CsvColour::bv)
        teff = temperature_from_colour(ballesteros2012_b_v(), star.teff_or_bv, tally.temperatures);
      else if (star.colour == CsvColour::bp_rp)
        teff =
            temperature_from_colour(mucciarelli2021_bp_rp(), star.teff_or_bv, tally.temperatures);
      else
        ++tally.temperatures.given;
      // Band G: the flux is V's, from V = G - (G-V)(BP-RP); the catalogue magnitude stays G.
      const double flux_mag =
          gaia_g ? v_from_gaia_g(star.mag, star.teff_or_bv, tally.gaia_g_to_v) : star.mag;
      ++id;
      batcher.add(star.ra_deg, star.dec_deg, teff, flux_density_jy(band, flux_mag),
                  star.has_id ? star.id : id, star.mag);
    });
    batcher.flush();
    seen[static_cast<int>(colour)] = true;
    tally.rows_read += rows;
    tally.stars += rows;
    tally.sources.push_back(hashed_source(file, rows));
    std::error_code ignored;
    progress.advance(std::filesystem::file_size(file, ignored));
  }
  std::string relations;
  const std::string names[3] = {"given", ballesteros2012_b_v().name, mucciarelli2021_bp_rp().name};
  for (int kind = 0; kind < 3; ++kind) {
    if (!seen[kind]) continue;
    if (!relations.empty()) relations.push_back('+');
    relations.append(names[kind]);
  }
  return relations.empty() ? "given" : relations;
}

}  // namespace starlens::catalog
