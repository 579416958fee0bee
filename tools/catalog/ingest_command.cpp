#include "ingest_command.h"

#include <filesystem>

#include "catalog/external_sorter.h"
#include "catalog/photometry.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/input_file.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "ingest_sources.h"
#include "manifest/hash_pool.h"
#include "manifest/manifest.h"
#include "stellarium_reader.h"
#include "store_command.h"

namespace starlens::catalog {
namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string format_of(const std::string& path) {
  if (ends_with(path, ".cat")) return "stellarium";
  if (ends_with(path, ".gz")) return "2mass";
  if (ends_with(path, ".csv") || ends_with(path, ".ecsv")) return "csv";
  if (ends_with(path, ".fits") || ends_with(path, ".fit")) return "fits";
  throw_input_error(
      path, "",
      "cannot tell the format from the name (.cat, .gz, .csv, .ecsv, .fits); use --format");
}

// One format for all inputs: the named one or the one every file name implies.
std::string resolve_format(const IngestOptions& options) {
  if (options.format != "auto") return options.format;
  const std::string format = format_of(options.inputs.front());
  for (const auto& input : options.inputs)
    if (format_of(input) != format)
      throw_input_error(input, "",
                        "is " + format_of(input) + " but " + options.inputs.front() + " is " +
                            format + "; ingest one format at a time");
  return format;
}

const Band& resolve_band(const std::string& format, const std::string& requested) {
  if (format == "stellarium") {
    if (!requested.empty() && requested != "V")
      throw_input_error("--band", "", "Stellarium catalogues have V magnitudes, not " + requested);
    return band_by_name("V", "--band");
  }
  if (format == "2mass") return band_by_name(requested.empty() ? "J" : requested, "--band");
  if (requested.empty())
    throw_input_error("--band", "", "required for CSV (the band of its mag column)");
  return band_by_name(requested, "--band");
}

std::uint64_t total_size(const std::vector<std::string>& files) {
  std::uint64_t bytes = 0;
  for (const auto& file : files) {
    require_input_file(file, "", EmptyInput::allowed);
    std::error_code error;
    bytes += fs::file_size(file, error);
  }
  return bytes;
}

}  // namespace

CLI::App* add_ingest_command(CLI::App& app, IngestOptions& options) {
  CLI::App* command = app.add_subcommand(
      "ingest", "Build catalog.h5 from Stellarium .cat, 2MASS psc_*.gz or CSV files");
  command->add_option("inputs", options.inputs, "Catalogue files (one format)")->required();
  command->add_option("-o,--output", options.output, "The store to write (catalog.h5)")
      ->required()
      ->check(output_name("HDF5", {".h5", ".hdf5"}));
  command
      ->add_option(
          "--format", options.format,
          "auto (from the names), stellarium, 2mass, csv (CSV or ECSV) or fits (a binary table; "
          "--columns required)")
      ->check(CLI::IsMember({"auto", "stellarium", "2mass", "csv", "fits"}))
      ->capture_default_str();
  command->add_option(
      "--band", options.band,
      "Reference band: V (Stellarium), J (2MASS default), H, Ks; required for CSV and "
      "FITS, where G (Gaia G, with --columns bp_rp=...) is also known");
  command->add_option("--columns", options.columns,
                      "CSV, ECSV and FITS: the columns to read, key=NAME,... with keys ra, dec, "
                      "mag, one of teff, bv or bp_rp, id (NAME as in the file's header line, which "
                      "is then required)");
  add_store_options(*command, options.order, options.memory_limit, options.deflate);
  add_common_flags(*command, options.common, true);
  return command;
}

int run_ingest(const IngestOptions& options, int argc, char** argv) {
  check_store_options(options.order, options.deflate);
  const std::uint64_t memory_limit = parse_memory_size(options.memory_limit, "--memory-limit");
  const std::string format = resolve_format(options);
  const Band& band = resolve_band(format, options.band);
  if (!options.columns.empty() && format != "csv" && format != "fits")
    throw_input_error("--columns", "", "maps CSV and FITS columns; the inputs are " + format);
  if (options.columns.empty() && format == "fits")
    throw_input_error("--columns", "", "required for FITS tables (names the columns to read)");
  const CsvColumns columns =
      options.columns.empty() ? CsvColumns{} : parse_csv_columns(options.columns);
  const std::uint64_t input_bytes = total_size(options.inputs);
  const int threads = apply_thread_count(options.common.threads);
  set_hash_threads(threads);
  // Both locked before the run, committed together after it.
  OutputSet outputs(options.common.force);
  outputs.add(options.output);
  outputs.add_record(manifest_path_for(options.output));

  Manifest manifest(kToolName, argc, argv);
  manifest.set_threads(threads);
  manifest.exclude_from_digest("output");
  auto& parameters = manifest.parameters();
  parameters["command"] = "ingest";
  parameters["format"] = format;
  parameters["band"] = band.name;
  if (!columns.empty()) parameters["columns"] = columns;
  parameters["order"] = options.order;
  parameters["memory_limit_bytes"] = memory_limit;
  parameters["deflate"] = options.deflate;
  parameters["output"] = options.output;

  PhaseTimes times;
  ExternalSorter sorter(options.output, memory_limit);
  IngestTally tally;
  std::string teff_relation;
  {
    ScopedPhase phase(times, "read_parse");
    Progress progress("ingest " + format, input_bytes, options.common.quiet);
    if (format == "stellarium") {
      ingest_stellarium(options.inputs, sorter, tally, progress);
      teff_relation = ballesteros2012_b_v().name;
    } else if (format == "2mass") {
      ingest_twomass(options.inputs, band, sorter, tally, progress);
      teff_relation = casagrande2010_j_ks().name;
    } else {
      teff_relation =
          ingest_csv(options.inputs, band, columns, format == "fits", sorter, tally, progress);
    }
  }
  parameters["teff_relation"] = teff_relation;

  StoreDescription description;
  description.band = band;
  description.teff_relation = teff_relation;
  description.id_scheme =
      format == "stellarium" ? std::string(kStellariumIdScheme)
      : format == "2mass"    ? std::string("2MASS PSC pts_key")
      : columns.contains("id")
          ? (format == "fits" ? "FITS column " : "CSV column ") + columns.at("id")
          : std::string("row number (1 for the first star of the first file)");
  description.sources = tally.sources;
  description.generator = {{"command", "ingest"}, {"format", format}};
  description.deflate = options.deflate;
  const StoreBuildResult result = build_store(sorter, outputs, options.output, options.order,
                                              description, times, options.common.quiet);

  for (const auto& source : tally.sources)
    manifest.add_input_hashed(source["path"].get<std::string>(), format,
                              source["size"].get<std::uint64_t>(),
                              source["sha256_tree"].get<std::string>());
  manifest.add_output(outputs, options.output, "catalog");
  record_store(manifest, result, band);
  auto& counts = manifest.counts();
  counts["rows_read"] = tally.rows_read;
  counts["rows_rejected"] = tally.rejections.total();
  counts["teff_from_colour"] = tally.temperatures.from_colour;
  counts["teff_clamped_blue"] = tally.temperatures.clamped_blue;
  counts["teff_clamped_red"] = tally.temperatures.clamped_red;
  counts["teff_without_colour"] = tally.temperatures.without_colour;
  counts["teff_given"] = tally.temperatures.given;
  if (band.name == "G") {
    counts["g_to_v_converted"] = tally.gaia_g_to_v.converted;
    counts["g_to_v_clamped_blue"] = tally.gaia_g_to_v.clamped_blue;
    counts["g_to_v_clamped_red"] = tally.gaia_g_to_v.clamped_red;
  }
  manifest.section("rejections") = tally.rejections.to_json();
  manifest.add_timings(times);
  manifest.commit(outputs, options.output);
  if (!options.common.quiet)
    std::fprintf(stderr, "%s: %llu stars from %llu rows (%llu rejected) -> %s (order %d)\n",
                 kToolName, static_cast<unsigned long long>(result.count),
                 static_cast<unsigned long long>(tally.rows_read),
                 static_cast<unsigned long long>(tally.rejections.total()), options.output.c_str(),
                 result.order);
  return 0;
}

}  // namespace starlens::catalog
