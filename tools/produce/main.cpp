// starlens-produce: the command line, and the run that turns a lens map and a catalogue into
// star events (docs/design.md section 5); the `scatter` subcommand is scatter_command.h's.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "catalog/store_reader.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/input_file.h"
#include "core/output_set.h"
#include "core/stopwatch.h"
#include "core/tool_main.h"
#include "event_sink.h"
#include "events/stream_layout.h"
#include "gpu_search.h"
#include "image_catalogue.h"
#include "input_checks.h"
#include "lens_mesh_input.h"
#include "manifest/background_file_hash.h"
#include "manifest/hash_pool.h"
#include "manifest/manifest.h"
#include "manifest/replay.h"
#include "manifest_base.h"
#include "optics/event_class.h"
#include "producer.h"
#include "run_record.h"
#include "scatter_command.h"

namespace starlens::produce {
namespace {

constexpr const char* kTool = "starlens-produce";

struct ProduceOptions {
  std::string lensmap;
  std::string catalog;
  std::string output;
  std::string manifest;
  std::string sink = "file";
  std::string colour = "table";
  std::string backend = "cpu";
  int gpu_device = 0;
  std::uint32_t chunk_events = 16384;
  std::uint64_t block_stars = 1 << 16;
  std::string cells;
  std::string sky_region;
  std::string triangles;
  std::string images;  // --images FILE.csv|FILE.fits
  std::uint64_t max_events = 0;
  PsfModel psf;
  CommonOptions common;
};

void check_produce_options(const ProduceOptions& options) {
  if (options.lensmap.empty()) throw_input_error("-l/--lensmap", "", "required");
  if (options.catalog.empty()) throw_input_error("-c/--catalog", "", "required");
  if (options.sink == "file" && options.output.empty())
    throw_input_error("-o/--output", "", "required with --sink file (- for standard output)");
  if (options.sink == "count" && options.output == "-")
    throw_input_error("-o/--output", "",
                      "--sink count writes a JSON report, not a stream: give a file");
  for (const auto& [path, flag] :
       {std::pair{options.lensmap, "-l/--lensmap"}, {options.catalog, "-c/--catalog"}})
    require_input_file(path, flag);
  if (!options.output.empty() && options.output != "-")
    check_output_path(options.output, options.common.force);
  if (!options.images.empty()) {
    image_format_of(options.images, "--images");  // never the stream's name: -o is .sle
    check_output_path(options.images, options.common.force);
  }
  if (const auto base = manifest_base(options.manifest, options.output))
    check_output_path(manifest_path_for(*base), options.common.force);
  StreamHeader header;
  header.chunk_capacity = options.chunk_events;
  header.width = header.height = 1;
  header.psf = options.psf;
  validate_stream_header(header, "PSF options");
}

int run_produce(const ProduceOptions& options, int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  check_produce_options(options);
  const int threads = apply_thread_count(options.common.threads);
  set_hash_threads(threads);
  // The inputs' hashes run on the hash pool while the stage works; the manifest joins them.
  auto lensmap_hash = std::make_unique<BackgroundFileHash>(options.lensmap);
  auto catalog_hash = std::make_unique<BackgroundFileHash>(options.catalog);
  // Every output locked before the run, committed with the manifest after it.
  OutputSet outputs(options.common.force);
  if (!options.output.empty() && options.output != "-") outputs.add(options.output);
  if (!options.images.empty()) outputs.add(options.images);
  const auto manifest_output = manifest_base(options.manifest, options.output);
  if (manifest_output) outputs.add_record(manifest_path_for(*manifest_output));
  PhaseTimes times;

  // Inputs: open and validate both before anything is written.
  std::optional<catalog::CatalogStore> store;
  std::optional<LensmapReader> lensmap;
  {
    ScopedPhase phase(times, "open_inputs");
    store.emplace(options.catalog);
    lensmap.emplace(options.lensmap);
    check_inputs_belong_together(*store);
  }
  RunBounds bounds;
  if (!options.cells.empty())
    bounds.cells = parse_index_range(options.cells, "--cells", store->cell_count());
  if (!options.sky_region.empty())
    bounds.sky_region = parse_sky_region(options.sky_region, "--sky-region");
  if (!options.triangles.empty())
    bounds.triangles =
        parse_index_range(options.triangles, "--triangles", lensmap->triangle_count());
  bounds.max_events = options.max_events;

  LensMesh mesh;
  {
    ScopedPhase phase(times, "load_lensmap");
    mesh = load_lens_mesh(*lensmap, options.lensmap, bounds.triangles);
  }
  std::optional<TriangleIndex> index;
  {
    ScopedPhase phase(times, "query");
    IndexSettings index_settings;
    index_settings.quiet = options.common.quiet;
    index.emplace(mesh, store->order(), index_settings);
  }
  // How the images' magnifications are found (point_magnification.h).
  const char* mesh_magnification = mesh.point_lens             ? "point lens"
                                   : mesh.traced_images        ? "traced rays"
                                   : mesh.max_point_mu.empty() ? "triangle"
                                                               : "flat-space motion";
  // The index holds what the run needs of the mesh; keep only its description.
  LensMesh description;
  description.width = mesh.width;
  description.height = mesh.height;
  description.projection = mesh.projection;
  description.first_triangle = mesh.first_triangle;
  description.file_triangle_count = mesh.file_triangle_count;
  const std::size_t triangles_in_bounds = mesh.triangle_count();
  mesh = std::move(description);

  const ColourMode colour_mode = options.colour == "exact" ? ColourMode::exact : ColourMode::table;
  const EventAssembler assembler(options.psf, store->band().wavelength_um, colour_mode);
  StreamHeader header;
  header.chunk_capacity = options.chunk_events;
  header.width = mesh.width;
  header.height = mesh.height;
  header.psf = options.psf;
  std::unique_ptr<EventSink> sink;
  StreamSink* stream = nullptr;
  if (options.sink == "file") {
    auto owned = std::make_unique<StreamSink>(outputs, options.output, header);
    stream = owned.get();
    sink = std::move(owned);
  } else {
    sink = std::make_unique<CountSink>();
  }

  // The GPU search: the index copied to the device once, before the first star.
  std::unique_ptr<GpuSearchBackend> gpu_search;
  if (options.backend == "gpu") {
    ScopedPhase phase(times, "gpu_setup");
    gpu_search = make_gpu_search(*index, options.gpu_device, static_cast<std::size_t>(threads));
  }

  std::optional<ImageCatalogueWriter> images;
  if (!options.images.empty())
    images.emplace(outputs, options.images, image_format_of(options.images, "--images"));

  ProducerSettings settings;
  settings.search = gpu_search.get();
  settings.images = images ? &*images : nullptr;
  settings.chunk_events = options.chunk_events;
  settings.block_stars = options.block_stars;
  settings.bounds = bounds;
  settings.first_triangle = mesh.first_triangle;
  settings.width = mesh.width;
  settings.height = mesh.height;
  settings.quiet = options.common.quiet;
  const ProducerResult result = run_producer(*index, *store, assembler, settings, *sink);
  {
    ScopedPhase phase(times, "finish_output");
    sink->finish();
    if (images) images->finish();
  }

  Manifest manifest(kTool, argc, argv);
  const catalog::ReadStatistics& read = result.catalog_reads;
  manifest.parameters() = {{"command", "produce"},
                           {"lensmap", options.lensmap},
                           {"catalog", options.catalog},
                           {"output", options.output},
                           {"images", options.images},
                           {"manifest", options.manifest},
                           {"sink", options.sink},
                           {"colour", options.colour},
                           {"backend", options.backend},
                           {"chunk_events", options.chunk_events},
                           {"block_stars", options.block_stars},
                           {"width", mesh.width},
                           {"height", mesh.height},
                           {"projection", mesh.projection},
                           {"catalog_order", store->order()},
                           {"band", store->band().name},
                           {"band_wavelength_um", store->band().wavelength_um},
                           {"psf_fwhm", options.psf.fwhm},
                           {"psf_beta", options.psf.beta},
                           {"psf_cache_radius", options.psf.cache_radius},
                           {"psf_phases", options.psf.phases},
                           {"psf_min_y", options.psf.min_y},
                           {"psf_relative_tail", options.psf.relative_tail},
                           {"psf_max_radius", options.psf.max_radius}};
  // The lens the events were made through, from the lens map's attributes
  // (docs/formats/lensmap.md).
  const LensmapAttributes& lens = lensmap->attributes();
  manifest.section("lens") = {{"spacetime", lens.spacetime},
                              {"r_obs", lens.r_obs},
                              {"observer", lens.observer},
                              {"observer_velocity", lens.observer_velocity},
                              {"magnification", mesh_magnification}};
  if (lens.spacetime == "kerr") {
    manifest.section("lens")["spin"] = lens.spin;
    manifest.section("lens")["inclination_deg"] = lens.inclination_deg;
    manifest.section("lens")["spin_pa_deg"] = lens.spin_pa_deg;
  }
  if (!lens.path.empty()) manifest.section("lens")["path_frame"] = lens.path_frame;
  if (gpu_search) {
    manifest.parameters()["gpu_device"] = options.gpu_device;
    const GpuSearchReport gpu = gpu_search->report();
    manifest.section("gpu") = {{"device", gpu.device.name},
                               {"device_index", gpu.device.index},
                               {"architecture", gpu.device.architecture},
                               {"platform", gpu.device.platform},
                               {"driver_version", gpu.device.driver_version},
                               {"runtime_version", gpu.device.runtime_version},
                               {"index_bytes", gpu.index_bytes},
                               {"device_bytes_peak", gpu.device_bytes_peak},
                               {"pinned_bytes_peak", gpu.pinned_bytes_peak},
                               {"stars_searched", gpu.queries},
                               {"kernel_launches", gpu.kernel_launches}};
  }
  // The stream does not depend on where the index was searched.
  for (const char* output_parameter : {"output", "images", "manifest", "backend", "gpu_device"})
    manifest.exclude_from_digest(output_parameter);
  manifest.set_threads(threads);
  {
    ScopedPhase phase(times, "hash_inputs");  // what is left of them after the run
    manifest.add_input(options.lensmap, "lensmap", std::move(lensmap_hash));
    manifest.add_input(options.catalog, "catalog", std::move(catalog_hash));
    manifest.wait_for_input_hashes();
  }
  if (stream)
    manifest.add_output_hashed(options.output, "events", stream->bytes(), stream->tree_sha256());
  if (images) {
    manifest.add_output(outputs, options.images, "images");
  }

  const IndexStatistics& index_statistics = index->statistics();
  manifest.counts() = class_counts(result.counts);
  manifest.counts()["chunks"] = sink->chunks();
  manifest.counts()["stream_bytes"] = sink->bytes();
  if (images) manifest.counts()["image_rows"] = images->rows();
  manifest.counts()["triangles"] = mesh.file_triangle_count;
  manifest.counts()["triangles_in_bounds"] = triangles_in_bounds;
  manifest.counts()["triangles_indexed"] = index_statistics.triangles_indexed;
  manifest.counts()["triangles_degenerate"] = index_statistics.triangles_degenerate;
  manifest.counts()["triangles_too_large"] = index_statistics.triangles_too_large;
  manifest.counts()["photon_ring"]["mesh_triangles_set_aside"] =
      index_statistics.triangles_of_point_lens_orders;
  manifest.counts()["triangles_with_events"] = result.counts.triangles_with_events;
  manifest.counts()["catalog_cells_read"] = read.cells_read;
  manifest.counts()["catalog_stars_read"] = read.stars_read;
  manifest.counts()["catalog_bytes_read"] = read.bytes_read;
  manifest.counts()["catalog_bytes_requested"] = read.bytes_requested;
  manifest.section("bounds") = bounds.to_json();
  manifest.section("coverage") = result.coverage;
  manifest.section("colour") = colour_section(colour_mode);
  manifest.section("chunk_statistics") = summarise_chunks(result.chunks);
  manifest.section("index") = index_section(*index);
  const double produce_seconds = result.wall_seconds;
  manifest.section("throughput") = throughput_section(result, threads);
  manifest.add_timings(times);
  for (const auto& [phase, seconds] : result.thread_times.all())
    manifest.timings()[phase] = seconds;
  manifest.timings()["produce_wall"] = produce_seconds;
  manifest.timings()["total"] = seconds_since(start);
  manifest.section("timings_note") =
      "read, mapping, colour and write are thread-seconds summed over the workers; produce_cpu is "
      "the workers' CPU time over the traversal";

  if (options.sink == "count") {
    const nlohmann::json report = {{"counts", manifest.counts()},
                                   {"timings_s", manifest.timings()},
                                   {"throughput", manifest.section("throughput")},
                                   {"chunk_statistics", manifest.section("chunk_statistics")},
                                   {"coverage", manifest.section("coverage")}};
    if (options.output.empty()) {
      std::cout << report.dump(2) << '\n';
    } else {
      write_json_output(outputs, options.output, report);
      manifest.add_output(outputs, options.output, "count_report");
    }
  }
  if (manifest_output)
    manifest.commit(outputs, *manifest_output);
  else
    outputs.commit();

  if (!options.common.quiet) {
    const auto& c = result.counts;
    std::fprintf(
        stderr,
        "%s: %llu events (%llu cache, %llu wing clip, %llu direct; %llu below min-Y) from %llu "
        "stars, %.3f s producing, %.3f s total\n",
        kTool, static_cast<unsigned long long>(c.events_written()),
        static_cast<unsigned long long>(c.events_by_class[1]),
        static_cast<unsigned long long>(c.events_by_class[2]),
        static_cast<unsigned long long>(c.events_by_class[3]),
        static_cast<unsigned long long>(c.events_by_class[0]),
        static_cast<unsigned long long>(c.stars_read), produce_seconds, seconds_since(start));
  }
  return kExitOk;
}

int run(int argc, char** argv) {
  ProduceOptions produce;
  ScatterOptions scatter;
  CLI::App app{
      "Star events from a lens map and a catalogue: every star image as one event record."};
  add_version_flag(app, kTool);
  app.add_option("-l,--lensmap", produce.lensmap, "Lens map (lensmap.h5, from starlens-trace)");
  app.add_option("-c,--catalog", produce.catalog,
                 "Catalogue store (catalog.h5, from starlens-catalog)");
  app.add_option(
         "-o,--output", produce.output,
         "Event stream (.sle), - for standard output; with --sink count, an optional JSON report")
      ->check(output_name("an event stream (a JSON report with --sink count)", {".sle", ".json"},
                          true));
  app.add_option(
      "--manifest", produce.manifest,
      "Manifest path, ending in .manifest.json (default: beside the output; none for -)");
  app.add_option("--sink", produce.sink,
                 "file: write the stream; count: produce fully, write nothing")
      ->check(CLI::IsMember({"file", "count"}));
  app.add_option("--colour", produce.colour,
                 "table: log-T colour table; exact: integrate every image")
      ->check(CLI::IsMember({"table", "exact"}));
  app.add_option("--backend", produce.backend,
                 "cpu | gpu: where the triangle index is searched (the stream is the same)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--gpu-device", produce.gpu_device, "GPU index (--backend gpu)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--chunk-events", produce.chunk_events, "Events per chunk")
      ->check(CLI::Range(1u, 1u << 24));
  app.add_option("--block-stars", produce.block_stars, "Stars per catalogue read (memory bound)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 32));
  app.add_option("--cells", produce.cells,
                 "Only catalogue cells A:B (HEALPix NESTED at the store's order)");
  app.add_option("--sky-region", produce.sky_region,
                 "Only stars within radius of ra,dec (degrees)");
  app.add_option("--triangles", produce.triangles, "Only lens-map triangles A:B");
  app.add_option("--images", produce.images,
                 "Also write the image catalogue, one row per event (star id, image order, x, y, "
                 "magnification, parity, g, flux, colour): FILE.csv or FILE.fits");
  app.add_option("--max-events", produce.max_events, "Stop after N events")
      ->check(CLI::PositiveNumber);
  app.add_option("--psf-fwhm", produce.psf.fwhm, "Moffat FWHM, px");
  app.add_option("--psf-beta", produce.psf.beta, "Moffat beta (> 1)");
  app.add_option("--psf-cache-radius", produce.psf.cache_radius, "Phase cache radius Rc, px");
  app.add_option("--psf-phases", produce.psf.phases, "Sub-pixel phases P per axis");
  app.add_option("--psf-min-y", produce.psf.min_y,
                 "Visibility floor: peak pixel value below it is discarded");
  app.add_option("--psf-relative-tail", produce.psf.relative_tail,
                 "Wings kept down to this fraction of min-Y");
  app.add_option("--psf-max-radius", produce.psf.max_radius, "Bound on direct supports, px");
  add_common_flags(app, produce.common, true);

  CLI::App* scatter_command = add_scatter_command(app, scatter);
  if (const int status = parse_command_line(app, argc, argv, kTool); status >= 0) return status;

  if (*scatter_command) return run_scatter(scatter, kTool, argc, argv);
  return run_produce(produce, argc, argv);
}

}  // namespace
}  // namespace starlens::produce

int main(int argc, char** argv) {
  return starlens::run_stage_main(starlens::produce::kTool, argc, argv, starlens::produce::run);
}
