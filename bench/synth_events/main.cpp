// starlens-synth-events: writes a synthetic event stream (uniform field, galactic-centre-like
// hot spot, or a mix with guaranteed direct events and wing clips) for tests and benchmarks
// of splat, with its manifest beside it. Streams chunk by chunk: memory is independent of
// --count.
#include <CLI/CLI.hpp>
#include <charconv>
#include <vector>

#include "core/errors.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "core/tool_main.h"
#include "events/event_stream.h"
#include "manifest/manifest.h"
#include "manifest/replay.h"
#include "synth_field.h"

namespace starlens::synth {
namespace {

constexpr const char* kTool = "starlens-synth-events";

struct SynthOptions {
  std::string distribution = "uniform";
  FieldOptions field;
  std::uint64_t count = 1'000'000;
  std::uint32_t chunk_events = 16384;
  std::string output;
  CommonOptions common;
};

// Unsigned options are checked as text first: CLI11 would wrap "-5" into a huge count.
CLI::Validator digits_only() {
  return CLI::Validator(
      [](const std::string& text) {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error == std::errc::invalid_argument || stop != end)
          return "must be a non-negative integer (got " + text + ")";
        if (error == std::errc::result_out_of_range) return "is out of range (got " + text + ")";
        return std::string();
      },
      "UINT");
}

void add_options(CLI::App& app, SynthOptions& o) {
  app.add_option("--distribution", o.distribution,
                 "uniform | hotspot (70% in a Gaussian around the frame centre) | mixed "
                 "(uniform with >= 2% direct events and >= 2% wing clips)")
      ->check(CLI::IsMember({"uniform", "hotspot", "mixed"}))
      ->capture_default_str();
  app.add_option("--count", o.count, "Events written (discarded candidates not included)")
      ->check(digits_only())
      ->capture_default_str();
  app.add_option("--width", o.field.width, "Frame width, px")
      ->check(digits_only())
      ->capture_default_str();
  app.add_option("--height", o.field.height, "Frame height, px")
      ->check(digits_only())
      ->capture_default_str();
  app.add_option("--seed", o.field.seed, "Random seed (same seed, same bytes)")
      ->check(digits_only())
      ->capture_default_str();
  app.add_option("--chunk-events", o.chunk_events, "Events per chunk (the stream's capacity)")
      ->check(digits_only())
      ->capture_default_str();
  PsfModel& psf = o.field.psf;
  app.add_option("--psf-fwhm", psf.fwhm, "Moffat FWHM, px")->capture_default_str();
  app.add_option("--psf-beta", psf.beta, "Moffat beta (> 1)")->capture_default_str();
  app.add_option("--psf-cache-radius", psf.cache_radius, "Phase cache radius Rc, px")
      ->capture_default_str();
  app.add_option("--psf-phases", psf.phases, "Sub-pixel phases P")->capture_default_str();
  app.add_option("--psf-min-y", psf.min_y, "Visibility floor (peak pixel Y)")
      ->capture_default_str();
  app.add_option("--psf-relative-tail", psf.relative_tail,
                 "Wings kept down to this fraction of the floor")
      ->capture_default_str();
  app.add_option("--psf-max-radius", psf.max_radius, "Bound on direct supports, px")
      ->capture_default_str();
  app.add_option("--flux-slope", o.field.flux_slope, "Power law dN/dF ~ F^-slope")
      ->capture_default_str();
  app.add_option("--flux-min", o.field.flux_min,
                 "Smallest flux drawn, Vega units (default: 0.8 x the visibility floor)");
  app.add_option("--flux-max", o.field.flux_max, "Largest flux drawn, Vega units")
      ->capture_default_str();
  app.add_option("--hotspot-fraction", o.field.hotspot_fraction,
                 "hotspot: share of events in the Gaussian")
      ->capture_default_str();
  app.add_option("--hotspot-sigma", o.field.hotspot_sigma,
                 "hotspot: Gaussian sigma as a fraction of the frame height")
      ->capture_default_str();
  app.add_option("--temperature-min", o.field.temperature_min, "Coolest star, K (log-uniform)")
      ->capture_default_str();
  app.add_option("--temperature-max", o.field.temperature_max, "Hottest star, K")
      ->capture_default_str();
  app.add_option("-o,--output", o.output,
                 "Event stream (.sle), or - for standard output (then no manifest is written)")
      ->required();
  add_common_flags(app, o.common, false);
}

nlohmann::json resolved_parameters(const SynthOptions& o, const SyntheticField& field) {
  const FieldOptions& f = field.options();
  const PsfModel& psf = f.psf;
  const FluxThresholds& t = field.thresholds();
  return {{"distribution", distribution_name(f.distribution)},
          {"count", o.count},
          {"width", f.width},
          {"height", f.height},
          {"seed", f.seed},
          {"chunk_events", o.chunk_events},
          {"psf",
           {{"fwhm", psf.fwhm},
            {"beta", psf.beta},
            {"cache_radius", psf.cache_radius},
            {"phases", psf.phases},
            {"min_y", psf.min_y},
            {"relative_tail", psf.relative_tail},
            {"max_radius", psf.max_radius}}},
          {"flux", {{"slope", f.flux_slope}, {"min", f.flux_min}, {"max", f.flux_max}}},
          {"flux_thresholds",
           {{"visibility_floor", t.visibility_floor},
            {"wing_clip_min", t.wing_clip_min},
            {"direct_min", t.direct_min}}},
          {"hotspot", {{"fraction", f.hotspot_fraction}, {"sigma", f.hotspot_sigma}}},
          {"temperature", {{"min", f.temperature_min}, {"max", f.temperature_max}}},
          {"output", o.output}};
}

nlohmann::json class_counts(const ClassCounts& counts, std::uint64_t chunks) {
  return {{"events", counts.written()},
          {"events_drawn", counts.drawn},
          {"events_discarded", counts.discarded},
          {"events_cache", counts.cache},
          {"events_wing_clip", counts.wing_clip},
          {"events_direct", counts.direct},
          {"events_direct_bounded_by_max", counts.bounded_by_max},
          {"chunks", chunks}};
}

int run(int argc, char** argv) {
  SynthOptions options;
  CLI::App app{"Writes a synthetic star event stream (events.sle) for tests and benchmarks."};
  add_version_flag(app, kTool);
  add_options(app, options);
  if (const int status = parse_command_line(app, argc, argv, kTool); status >= 0) return status;

  const auto start = std::chrono::steady_clock::now();
  options.field.distribution = options.distribution == "hotspot" ? Distribution::hotspot
                               : options.distribution == "mixed" ? Distribution::mixed
                                                                 : Distribution::uniform;
  if (options.chunk_events == 0) throw_input_error("--chunk-events", "", "must be > 0");
  SyntheticField field(options.field);
  const bool to_stdout = options.output == "-";
  // Both locked before the run, committed together after it.
  OutputSet outputs(options.common.force);
  if (!to_stdout) {
    outputs.add(options.output);
    outputs.add_record(manifest_path_for(options.output));
  }

  Manifest manifest(kTool, argc, argv);
  manifest.parameters() = resolved_parameters(options, field);
  StreamHeader header;
  header.chunk_capacity = options.chunk_events;
  header.width = options.field.width;
  header.height = options.field.height;
  header.psf = options.field.psf;
  EventWriter writer(outputs, options.output, header);

  PhaseTimes times;
  Progress progress("synth-events", options.count, options.common.quiet);
  std::vector<StarEvent> chunk(std::min<std::uint64_t>(options.chunk_events, options.count));
  for (std::uint64_t done = 0; done < options.count;) {
    const std::size_t size = std::min<std::uint64_t>(chunk.size(), options.count - done);
    {
      ScopedPhase phase(times, "generate");
      for (std::size_t i = 0; i < size; ++i) chunk[i] = field.next();
    }
    {
      ScopedPhase phase(times, "write");
      // Synthetic events come from no lens-map triangle: the triangle range is 0..0.
      writer.write_chunk({chunk.data(), size}, 0, 0);
    }
    done += size;
    progress.advance(size);
  }
  {
    ScopedPhase phase(times, "write");
    writer.finish();
  }
  progress.finish();
  times.add("total", seconds_since(start));

  if (to_stdout) return kExitOk;
  manifest.counts() = class_counts(field.counts(), writer.chunks_written());
  manifest.add_timings(times);
  manifest.add_output_hashed(options.output, "events", writer.bytes_written(),
                             writer.tree_sha256());
  manifest.commit(outputs, options.output);
  return kExitOk;
}

}  // namespace
}  // namespace starlens::synth

int main(int argc, char** argv) {
  return starlens::run_stage_main("starlens-synth-events", argc, argv, starlens::synth::run);
}
