// starlens-splat: accumulates an event stream into a double-precision frame (docs/design.md section
// 6).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "backend.h"
#include "core/available_memory.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "core/tool_main.h"
#include "events/prefetching_reader.h"
#include "events/stream_layout.h"
#include "frame/fits_writer.h"
#include "frame/frame_io.h"
#include "frame_memory.h"
#include "lensmap/lensmap_metadata.h"
#include "manifest/hash_pool.h"
#include "manifest/manifest.h"
#include "manifest/replay.h"
#include "replay_check.h"
#include "tone_exposure.h"

namespace starlens {
namespace {

constexpr const char* kTool = "starlens-splat";

struct SplatOptions {
  std::string input;
  std::string output;
  std::string png;
  std::string fits;
  std::string lensmap;  // the camera and scene of the frame's header and WCS
  std::optional<std::int64_t> frame_number;
  double exposure = 0;  // 0: automatic
  std::string backend = "cpu";
  int repeat = 1;
  SplatSettings settings;
  CommonOptions common;
};

struct ReplayResult {
  Frame frame;
  nlohmann::json statistics;
  double read_seconds = 0;       // the reader thread's busy time
  double read_wait_seconds = 0;  // the consumer's wait for chunks (read not overlapped)
  double hash_seconds = 0;       // pool thread-seconds of the input's tree hash
  double total_seconds = 0;
  std::uint64_t chunks = 0;
  std::uint64_t bytes = 0;
  std::string tree_sha256;
  StreamHeader header;
};

std::unique_ptr<SplatBackend> make_backend(const std::string& name, const SplatSettings& settings) {
  if (name == "cpu") return make_cpu_backend(settings);
  if (name == "count") return make_count_backend(settings);
  if (name == "vulkan") return make_vulkan_backend(settings);
  return make_gpu_backend(settings);
}

// One timed pass over the stream: read and validate (on the reader's own thread, a few
// chunks ahead), accumulate.
ReplayResult replay(const SplatOptions& options, std::unique_ptr<PhaseCache>& cache) {
  const auto start = std::chrono::steady_clock::now();
  ReplayResult result;
  PrefetchingReader reader(options.input);
  result.header = reader.header();
  // The header's frame is within the format's limits; whether this machine can hold it is
  // judged here, before the cache, the frame or the backend's buffers are allocated.
  check_splat_memory(options.input == "-" ? "stdin" : options.input, result.header,
                     estimate_splat_memory(result.header, options.backend, !options.png.empty()),
                     available_memory_bytes());
  if (!cache) cache = std::make_unique<PhaseCache>(reader.header().psf);
  std::error_code ignored;
  const auto size = options.input == "-" ? 0 : std::filesystem::file_size(options.input, ignored);
  SplatSettings settings = options.settings;
  // Every event takes 56 bytes after the file header (chunk headers only add to the size).
  if (size > kFileHeaderBytes)
    settings.events_bound = (size - kFileHeaderBytes) / sizeof(StarEvent);
  auto backend = make_backend(options.backend, settings);
  backend->begin(reader.header(), *cache);
  Progress progress("splat " + options.backend, size, options.common.quiet);
  std::span<const StarEvent> events;
  ChunkInfo info;
  for (;;) {
    const auto wait_start = std::chrono::steady_clock::now();
    const std::uint64_t before = reader.bytes_read();
    const bool more = reader.next(events, info);
    result.read_wait_seconds += seconds_since(wait_start);
    if (!more) break;
    backend->accumulate(events);
    ++result.chunks;
    progress.set_detail(backend->progress_detail());
    progress.advance(reader.bytes_read() - before);
  }
  backend->finish(result.frame);
  progress.finish();
  result.statistics = backend->statistics();
  result.read_seconds = reader.reader_busy_seconds();
  result.hash_seconds = reader.hash_busy_seconds();
  result.bytes = reader.bytes_read();
  result.tree_sha256 = reader.tree_sha256();
  result.total_seconds = seconds_since(start);
  return result;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Median of each timing over the replays (docs/design.md section 6: --repeat K).
nlohmann::json median_timings(const std::vector<ReplayResult>& replays) {
  nlohmann::json timings;
  std::vector<double> totals, reads, waits, hashes;
  for (const auto& run : replays) {
    totals.push_back(run.total_seconds);
    reads.push_back(run.read_seconds);
    waits.push_back(run.read_wait_seconds);
    hashes.push_back(run.hash_seconds);
  }
  timings["total"] = median(totals);
  timings["read"] = median(reads);
  timings["read_wait"] = median(waits);
  timings["hash"] = median(hashes);
  const auto& first = replays.front().statistics;
  if (first.contains("timings_s")) {
    for (const auto& [phase, ignored] : first["timings_s"].items()) {
      std::vector<double> values;
      for (const auto& run : replays)
        values.push_back(run.statistics["timings_s"].value(phase, 0.0));
      timings[phase] = median(values);
    }
  }
  if (replays.size() > 1) timings["replays_total"] = totals;
  return timings;
}

void check_options(const SplatOptions& options) {
  if (options.backend != "count" && options.output.empty())
    throw_input_error("-o/--output", "", "required for the " + options.backend + " backend");
  if (options.repeat > 1 && options.input == "-")
    throw_input_error("--repeat", "", "replays need a file, not standard input");
  if (!options.png.empty() && options.backend == "count")
    throw_input_error("--png", "", "the count backend makes no frame");
  if (!options.fits.empty() && options.backend == "count")
    throw_input_error("--fits", "", "the count backend makes no frame");
  if (!options.fits.empty() && options.lensmap.empty())
    throw_input_error("--fits", "", "the WCS needs the camera: give the lens map (--lensmap)");
  if (!options.output.empty()) {
    check_output_path(options.output, options.common.force);
    check_output_path(manifest_path_for(options.output), options.common.force);
  }
  if (!options.png.empty()) check_output_path(options.png, options.common.force);
  if (!options.fits.empty()) check_output_path(options.fits, options.common.force);
  if (!options.lensmap.empty() && !std::filesystem::exists(options.lensmap))
    throw_input_error(options.lensmap, "", "no such file");
  if (options.input != "-" && !std::filesystem::exists(options.input))
    throw_input_error(options.input, "", "no such file");
}

int run(int argc, char** argv) {
  SplatOptions options;
  CLI::App app{"Accumulates a star event stream into a double-precision OpenEXR frame."};
  add_version_flag(app, kTool);
  app.add_option("-i,--input", options.input, "Event stream (.sle), or - for standard input")
      ->required();
  app.add_option("-o,--output", options.output, "Frame (.exr); with --backend count, a JSON report")
      ->check(output_name("OpenEXR (a JSON report with --backend count)", {".exr", ".json"}));
  app.add_option("--png", options.png, "Also write a tone-mapped PNG")
      ->check(output_name("PNG", {".png"}));
  app.add_option("--fits", options.fits,
                 "Also write a FITS cube (R, G, B, Y) with the camera's WCS (needs --lensmap)")
      ->check(output_name("FITS", {".fits", ".fit"}));
  app.add_option("--lensmap", options.lensmap,
                 "The lens map of the events: its camera and scene go into the frame's header");
  app.add_option("--frame-number", options.frame_number, "Frame number of a sequence, recorded")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(INT32_MAX)));
  app.add_option("--exposure", options.exposure,
                 "Luminance Y mapped to display white in the PNG and to 1 in the EXR's viewer "
                 "part (default: automatic, the 99.9th percentile of pixel Y)")
      ->check(CLI::PositiveNumber);
  app.add_option("--backend", options.backend, "cpu | gpu | vulkan | count")
      ->check(CLI::IsMember({"cpu", "gpu", "vulkan", "count"}));
  app.add_flag("--psf-direct", options.settings.all_direct,
               "Evaluate every event exactly (the accuracy reference)");
  app.add_option("--repeat", options.repeat, "Timed replays; the manifest reports medians")
      ->check(CLI::Range(1, 1000));
  app.add_option("--gpu-strategy", options.settings.gpu_strategy,
                 "atomic | tile16 | tile32 | scatter16 | adaptive (vulkan: atomic | tile16 | "
                 "adaptive)")
      ->check(CLI::IsMember({"atomic", "tile16", "tile32", "scatter16", "adaptive"}));
  app.add_option("--gpu-device", options.settings.gpu_device,
                 "GPU index (with --backend vulkan: the Vulkan device's index)")
      ->check(CLI::Range(0, 1 << 16));
  add_common_flags(app, options.common, true);
  if (const int status = parse_command_line(app, argc, argv, kTool); status >= 0) return status;

  check_options(options);
  options.settings.threads = apply_thread_count(options.common.threads);
  set_hash_threads(options.settings.threads);
  options.settings.quiet = options.common.quiet;
  // Every output locked before the run, committed with the manifest after it.
  OutputSet outputs(options.common.force);
  if (!options.output.empty()) {
    outputs.add(options.output);
    outputs.add_record(manifest_path_for(options.output));
  }
  if (!options.png.empty()) outputs.add(options.png);
  if (!options.fits.empty()) outputs.add(options.fits);

  Manifest manifest(kTool, argc, argv);
  FrameMetadata metadata;
  if (!options.lensmap.empty()) {
    describe_lensmap(options.lensmap, metadata);
    manifest.add_input(std::filesystem::path(options.lensmap), "lensmap");
  }
  metadata.frame_number = options.frame_number;
  std::unique_ptr<PhaseCache> cache;
  std::vector<ReplayResult> replays;
  for (int k = 0; k < options.repeat; ++k) {
    replays.push_back(replay(options, cache));
    if (k + 1 < options.repeat) replays.back().frame = Frame();  // keep one frame in memory
  }
  ReplayResult& last = replays.back();

  const PsfModel& psf = last.header.psf;
  manifest.parameters() = {{"input", options.input},
                           {"output", options.output},
                           {"png", options.png},
                           {"fits", options.fits},
                           {"lensmap", options.lensmap},
                           {"backend", options.backend},
                           {"psf_direct", options.settings.all_direct},
                           {"repeat", options.repeat},
                           {"width", last.header.width},
                           {"height", last.header.height},
                           {"psf_fwhm", psf.fwhm},
                           {"psf_beta", psf.beta},
                           {"psf_cache_radius", psf.cache_radius},
                           {"psf_phases", psf.phases},
                           {"psf_min_y", psf.min_y},
                           {"psf_relative_tail", psf.relative_tail},
                           {"psf_max_radius", psf.max_radius}};
  if (options.backend == "gpu" || options.backend == "vulkan") {
    manifest.parameters()["gpu_strategy"] = options.settings.gpu_strategy;
    manifest.parameters()["gpu_device"] = options.settings.gpu_device;
  }
  if (options.frame_number) manifest.parameters()["frame_number"] = *options.frame_number;
  for (const char* output_parameter : {"output", "png", "fits"})
    manifest.exclude_from_digest(output_parameter);
  manifest.set_threads(options.settings.threads);
  manifest.add_input_hashed(options.input, "events", last.bytes, last.tree_sha256);
  manifest.counts() = last.statistics.value("counts", nlohmann::json::object());
  manifest.counts()["chunks"] = last.chunks;
  manifest.timings() = median_timings(replays);
  for (const auto& [key, value] : last.statistics.items())
    if (key != "counts" && key != "timings_s") manifest.section(key) = value;

  PhaseTimes write_times;
  if (options.backend == "count") {
    const nlohmann::json report = {{"counts", manifest.counts()},
                                   {"timings_s", manifest.timings()}};
    if (options.output.empty()) {
      std::cout << report.dump(2) << '\n';
      return kExitOk;
    }
    write_json_output(outputs, options.output, report);
  } else {
    const double exposure =
        options.exposure > 0 ? options.exposure : automatic_exposure(last.frame);
    manifest.parameters()["exposure"] = exposure;
    metadata.exposure = exposure;
    metadata.run_digest = manifest.run_digest();
    // Writing (ZIP compression of the exact words, hashing) takes seconds at 1080p.
    const std::uint32_t files = 1 + !options.fits.empty() + !options.png.empty();
    Progress writing("splat write", std::uint64_t(files) * last.frame.height, options.common.quiet);
    const auto advance = [&](std::uint32_t rows) { writing.advance(rows); };
    {
      ScopedPhase phase(write_times, "write_exr");
      write_frame_exr(last.frame, outputs, options.output, metadata, advance);
    }
    manifest.add_output(outputs, options.output, "frame");
    if (!options.fits.empty()) {
      {
        ScopedPhase phase(write_times, "write_fits");
        write_frame_fits(last.frame, outputs, options.fits, metadata, advance);
      }
      manifest.add_output(outputs, options.fits, "fits");
    }
    if (!options.png.empty()) {
      {
        ScopedPhase phase(write_times, "write_png");
        write_frame_png(last.frame, outputs, options.png, exposure);
      }
      writing.advance(last.frame.height);
      manifest.add_output(outputs, options.png, "png");
    }
    writing.finish();
  }
  for (const auto& [phase, seconds] : write_times.all()) manifest.timings()[phase] = seconds;
  manifest.commit(outputs, options.output);

  const auto& counts = manifest.counts();
  const double accumulate = manifest.timings().value("accumulate", 0.0);
  if (!options.common.quiet)
    std::fprintf(stderr, "%s: %llu events, %llu contributions, %.3f s total, %.3f s accumulate\n",
                 kTool, static_cast<unsigned long long>(counts.value("events", 0ULL)),
                 static_cast<unsigned long long>(counts.value("contributions", 0ULL)),
                 manifest.timings().value("total", 0.0), accumulate);
  return kExitOk;
}

}  // namespace
}  // namespace starlens

int main(int argc, char** argv) {
  return starlens::run_stage_main(starlens::kTool, argc, argv, starlens::run, {},
                                  starlens::check_gpu_replay_output);
}
