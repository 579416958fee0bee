#include "synth_command.h"

#include <omp.h>
#include <zlib.h>

#include <cmath>
#include <exception>
#include <filesystem>
#include <memory>

#include "catalog/external_sorter.h"
#include "catalog/photometry.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "manifest/hash_pool.h"
#include "manifest/manifest.h"
#include "psc_format.h"
#include "star_batcher.h"
#include "store_command.h"
#include "synth_sampler.h"

namespace starlens::catalog {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kStarsPerPscFile = 5'000'000;

std::uint64_t block_count(std::uint64_t stars) {
  return (stars + SynthSampler::kBlockStars - 1) / SynthSampler::kBlockStars;
}

std::uint64_t stars_in_block(std::uint64_t stars, std::uint64_t block) {
  return std::min<std::uint64_t>(SynthSampler::kBlockStars,
                                 stars - block * SynthSampler::kBlockStars);
}

double band_magnitude(const SynthStar& star, int band) {
  return band == 0 ? star.j : band == 1 ? star.h : star.ks;
}

void check_options(const SynthOptions& options) {
  if (options.count == 0 || options.count > kMaxSynthStars)
    throw_input_error(
        "--count", "",
        std::to_string(options.count) + " outside 1.." + std::to_string(kMaxSynthStars));
  if (options.output.empty() == options.psc_dir.empty())
    throw_input_error("-o/--psc-dir", "",
                      "give exactly one: a store (-o) or a folder for psc_*.gz (--psc-dir)");
  if (options.psc_files < 0 || options.psc_files > 26 * 26 * 26)
    throw_input_error("--psc-files", "", std::to_string(options.psc_files) + " outside 1..17576");
  if (options.gzip_level < 1 || options.gzip_level > 9)
    throw_input_error("--gzip-level", "", std::to_string(options.gzip_level) + " outside 1..9");
  check_store_options(options.order, options.deflate);
}

nlohmann::json model_facts(const SynthSampler& sampler) {
  return {{"model",
           "exponential thin+thick disc, barred exponential bulge, power-law halo; "
           "Ks luminosity functions; dust disc; detection 1/(1+exp((Ks-14.3)/0.15))"},
          {"model_cells_order", SynthSampler::kModelOrder},
          {"expected_centre_pole_contrast", sampler.expected_centre_pole_contrast()}};
}

// The store path: blocks in parallel into the external sorter, then the store.
void synthesize_store(const SynthOptions& options, const SynthSampler& sampler, const Band& band,
                      Manifest& manifest, PhaseTimes& times) {
  const std::uint64_t memory_limit = parse_memory_size(options.memory_limit, "--memory-limit");
  // Both locked before the run, committed together after it.
  OutputSet outputs(options.common.force);
  outputs.add(options.output);
  outputs.add_record(manifest_path_for(options.output));
  ExternalSorter sorter(options.output, memory_limit);
  const int band_index = band.name == "J" ? 0 : band.name == "H" ? 1 : 2;
  const std::uint64_t blocks = block_count(options.count);
  std::exception_ptr failure;
  {
    ScopedPhase phase(times, "generate");
    Progress progress("synth", options.count, options.common.quiet);
#pragma omp parallel
    {
      std::vector<SynthStar> stars;
      StarBatcher batcher(sorter);
#pragma omp for schedule(dynamic, 1)
      for (std::uint64_t block = 0; block < blocks; ++block) {
        try {
          sampler.generate(options.seed, block, stars_in_block(options.count, block), stars);
          // The id is the star's running number in the catalogue, 1 for the first (its PSC
          // row's pts_key when --psc-dir writes it).
          std::int64_t id = static_cast<std::int64_t>(block * SynthSampler::kBlockStars);
          for (const SynthStar& star : stars) {
            const double mag = band_magnitude(star, band_index);
            batcher.add(star.ra_deg, star.dec_deg, star.teff_k, flux_density_jy(band, mag), ++id,
                        mag);
          }
          progress.advance(stars.size());
        } catch (...) {
#pragma omp critical
          if (!failure) failure = std::current_exception();
        }
      }
      try {
        batcher.flush();
      } catch (...) {
#pragma omp critical
        if (!failure) failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  StoreDescription description;
  description.band = band;
  description.teff_relation = "synthetic (model temperatures)";
  description.id_scheme = "synth star number (1 for the first star of the seed)";
  description.generator = {{"command", "synth"}, {"seed", options.seed}, {"count", options.count}};
  description.generator.update(model_facts(sampler));
  description.deflate = options.deflate;
  const StoreBuildResult result = build_store(sorter, outputs, options.output, options.order,
                                              description, times, options.common.quiet);
  manifest.add_output(outputs, options.output, "catalog");
  record_store(manifest, result, band);
  manifest.section("model") = model_facts(sampler);
  manifest.add_timings(times);
  manifest.commit(outputs, options.output);
}

// The text path: psc_*.gz files of consecutive stars, written in parallel.
void synthesize_psc(const SynthOptions& options, const SynthSampler& sampler, Manifest& manifest,
                    PhaseTimes& times) {
  std::error_code error;
  if (!fs::is_directory(options.psc_dir, error))
    throw_input_error(options.psc_dir, "--psc-dir", "is not an existing folder");
  const int files = static_cast<int>(std::min<std::uint64_t>(
      options.count, options.psc_files > 0
                         ? static_cast<std::uint64_t>(options.psc_files)
                         : (options.count + kStarsPerPscFile - 1) / kStarsPerPscFile));
  // Every file locked before the run, committed with the manifest after it.
  OutputSet outputs(options.common.force);
  std::vector<fs::path> paths;
  for (int f = 0; f < files; ++f) {
    paths.push_back(fs::path(options.psc_dir) / psc_file_name(f));
    outputs.add(paths.back());
  }
  const fs::path manifest_anchor = fs::path(options.psc_dir) / "psc";
  outputs.add_record(manifest_path_for(manifest_anchor));
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(files));
  {
    ScopedPhase phase(times, "generate_write");
    Progress progress("synth psc", options.count, options.common.quiet);
#pragma omp parallel for schedule(dynamic, 1)
    for (int f = 0; f < files; ++f) {
      try {
        // Stars [first_star, end_star) of the catalogue, whatever blocks they fall in.
        const std::uint64_t parts = static_cast<std::uint64_t>(files);
        const auto part = static_cast<std::uint64_t>(f);
        const std::uint64_t first_star =
            options.count / parts * part + std::min(part, options.count % parts);
        const std::uint64_t end_star =
            first_star + options.count / parts + (part < options.count % parts ? 1 : 0);
        const std::string temp = outputs.temp_path(paths[static_cast<std::size_t>(f)]).string();
        const std::string mode = "wb" + std::to_string(options.gzip_level);
        gzFile file = gzopen(temp.c_str(), mode.c_str());
        if (!file) throw_run_failure(paths[static_cast<std::size_t>(f)].string(), "cannot create");
        std::vector<SynthStar> stars;
        std::string text;
        bool written = true;
        constexpr std::uint64_t kBlock = SynthSampler::kBlockStars;
        for (std::uint64_t block = first_star / kBlock; block * kBlock < end_star && written;
             ++block) {
          const std::uint64_t first = std::max(first_star, block * kBlock) - block * kBlock;
          const std::uint64_t end = std::min(end_star, (block + 1) * kBlock) - block * kBlock;
          sampler.generate(options.seed, block, end, stars, first);
          text.clear();
          std::uint64_t row_id = block * kBlock + first;
          for (const SynthStar& star : stars) append_psc_row(text, star, ++row_id);
          written = gzwrite(file, text.data(), static_cast<unsigned>(text.size())) ==
                    static_cast<int>(text.size());
          progress.advance(stars.size());
        }
        if (gzclose(file) != Z_OK || !written)
          throw_run_failure(paths[static_cast<std::size_t>(f)].string(),
                            "cannot write (disk full?)");
      } catch (...) {
        failures[static_cast<std::size_t>(f)] = std::current_exception();
      }
    }
  }
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
  for (const fs::path& path : paths) manifest.add_output(outputs, path, "psc");
  manifest.counts()["psc_files"] = files;
  manifest.counts()["rows_written"] = options.count;
  manifest.section("model") = model_facts(sampler);
  manifest.add_timings(times);
  manifest.commit(outputs, manifest_anchor);
}

}  // namespace

std::string psc_file_name(int index) {
  std::string name = "psc_";
  name += static_cast<char>('a' + index / 676 % 26);
  name += static_cast<char>('a' + index / 26 % 26);
  name += static_cast<char>('a' + index % 26);
  return name + ".gz";
}

CLI::App* add_synth_command(CLI::App& app, SynthOptions& options) {
  CLI::App* command =
      app.add_subcommand("synth", "Generate a deterministic synthetic Milky Way (2MASS-like)");
  command
      ->add_option("--seed", options.seed,
                   "Random seed (the same seed and count give the same stars)")
      ->capture_default_str();
  command->add_option("--count", options.count, "Number of stars (up to 10^10)")->required();
  command->add_option("-o,--output", options.output, "Write the store catalog.h5 directly")
      ->check(output_name("HDF5", {".h5", ".hdf5"}));
  command->add_option("--psc-dir", options.psc_dir,
                      "Write 2MASS-format psc_*.gz files into this folder instead");
  command->add_option("--psc-files", options.psc_files,
                      "Number of psc files (default: one per 5 million stars)");
  command->add_option("--gzip-level", options.gzip_level, "gzip level of the psc files")
      ->capture_default_str();
  command->add_option("--band", options.band, "Reference band of the store: J, H or Ks")
      ->check(CLI::IsMember({"J", "H", "Ks"}))
      ->capture_default_str();
  add_store_options(*command, options.order, options.memory_limit, options.deflate);
  add_common_flags(*command, options.common, true);
  return command;
}

int run_synth(const SynthOptions& options, int argc, char** argv) {
  check_options(options);
  const Band& band = band_by_name(options.band, "--band");
  const int threads = apply_thread_count(options.common.threads);
  set_hash_threads(threads);
  Manifest manifest(kToolName, argc, argv);
  manifest.set_threads(threads);
  manifest.exclude_from_digest("output");
  manifest.exclude_from_digest("psc_dir");
  auto& parameters = manifest.parameters();
  parameters["command"] = "synth";
  parameters["seed"] = options.seed;
  parameters["count"] = options.count;
  parameters["band"] = band.name;
  parameters["order"] = options.order;
  parameters["memory_limit"] = options.memory_limit;
  parameters["deflate"] = options.deflate;
  parameters["output"] = options.output;
  parameters["psc_dir"] = options.psc_dir;
  parameters["psc_files"] = options.psc_files;
  parameters["gzip_level"] = options.gzip_level;
  PhaseTimes times;
  std::unique_ptr<SynthSampler> sampler;
  {
    ScopedPhase phase(times, "model_tables");
    sampler = std::make_unique<SynthSampler>();
  }
  if (!options.output.empty())
    synthesize_store(options, *sampler, band, manifest, times);
  else
    synthesize_psc(options, *sampler, manifest, times);
  return 0;
}

}  // namespace starlens::catalog
