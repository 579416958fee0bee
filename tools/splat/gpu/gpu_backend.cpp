// The GPU splat backend (docs/design.md section 6): counts events by class, hands them to the
// SplatEngine, and reports device, timings, contributions and the adaptive choices.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>

#include "backend.h"
#include "core/errors.h"
#include "splat_counts.h"
#include "splat_engine.h"

namespace starlens {
namespace {

// Tuning and test knobs from the environment (docs/gpu.md): small batches and small binning
// rounds exercise the streaming and the scratch splitting on small inputs.
std::uint32_t environment_count(const char* name, std::uint32_t fallback) {
  const char* text = std::getenv(name);
  if (!text) return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno || end == text || *end || value < 1 || value > (1ull << 30)) {
    std::string reason = "'";  // built step by step: GCC 12 warns (-Wrestrict) on a + chain
    reason += text;
    reason += "' is not a whole number from 1 to 2^30";
    throw_input_error(std::string("environment variable ") + name, "", reason);
  }
  return std::uint32_t(value);
}

GpuEngineOptions engine_options(const SplatSettings& settings) {
  GpuEngineOptions options;
  options.device = settings.gpu_device;
  options.strategy = parse_gpu_strategy(settings.gpu_strategy);
  options.all_direct = settings.all_direct;
  options.batch_events = batch_events_for(
      environment_count("STARLENS_GPU_BATCH_EVENTS", options.batch_events), settings.events_bound);
  options.tile_references =
      environment_count("STARLENS_GPU_TILE_REFERENCES", options.tile_references);
  options.scatter_segment =
      environment_count("STARLENS_GPU_SCATTER_SEGMENT", options.scatter_segment);
  return options;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::size_t(q * double(values.size() - 1) + 0.5)];
}

class GpuBackend final : public SplatBackend {
 public:
  explicit GpuBackend(const SplatSettings& settings)
      : settings_(settings), options_(engine_options(settings)), engine_(options_) {}

  std::string name() const override { return "gpu"; }

  void begin(const StreamHeader& header, const PhaseCache& cache) override {
    header_ = header;
    engine_.begin(header, cache);
  }

  void accumulate(std::span<const StarEvent> events) override {
    engine_.append(events);  // counts the classes as it summarises each batch
  }

  void finish(Frame& frame) override {
    frame = Frame();
    frame.width = header_.width;
    frame.height = header_.height;
    engine_.finish(frame.rgb);
  }

  std::string progress_detail() const override {
    return "gpu batches: " + std::to_string(engine_.batches_submitted()) + " submitted, " +
           std::to_string(engine_.batches_completed()) + " completed";
  }

  nlohmann::json statistics() const override {
    const GpuPhaseSeconds& seconds = engine_.phase_seconds();
    nlohmann::json statistics;
    // The stream's classes (stream_event_class: direct iff support > Rc; wing clips are not
    // distinguishable from cache splats once written).
    EventClassCounts counts;
    counts.by_class[int(EventClass::direct)] = engine_.events_stream_direct();
    counts.by_class[int(EventClass::cache)] = engine_.events() - engine_.events_stream_direct();
    statistics["counts"] = counts.to_json();
    statistics["counts"]["contributions_direct"] = engine_.contributions_direct();
    statistics["counts"]["contributions"] = engine_.contributions();
    statistics["counts"]["events_evaluated_direct"] = engine_.events_direct();
    statistics["timings_s"] = {{"upload", seconds.upload},
                               {"binning", seconds.binning},
                               {"accumulate", seconds.accumulate},
                               {"merge", seconds.merge},
                               {"accumulate_direct", seconds.direct},
                               {"download", seconds.download},
                               {"host_staging", seconds.host_staging},
                               {"host_wait", seconds.host_wait}};
    const GpuDeviceInfo& device = engine_.device();
    statistics["gpu"] = {{"device_index", device.index},
                         {"device_count", device.device_count},
                         {"name", device.name},
                         {"architecture", device.architecture},
                         {"platform", device.platform},
                         {"multiprocessors", device.multiprocessors},
                         {"global_memory_bytes", device.global_memory},
                         {"driver_version", device.driver_version},
                         {"runtime_version", device.runtime_version},
                         {"strategy", settings_.gpu_strategy},
                         {"batch_events", options_.batch_events},
                         {"tile_references_per_round",
                          options_.tile_references ? nlohmann::json(options_.tile_references)
                                                   : nlohmann::json("auto: one round a batch")},
                         {"scatter_segment", options_.scatter_segment},
                         {"batches_submitted", engine_.batches_submitted()},
                         {"batches_completed", engine_.batches_completed()},
                         {"device_memory_peak_bytes", engine_.device_memory_peak()},
                         {"pinned_memory_peak_bytes", engine_.pinned_memory_peak()},
                         {"strategy_choices", strategy_choices()}};
    return statistics;
  }

 private:
  // How often each strategy ran, the split batches, and the centre-tile densities seen.
  nlohmann::json strategy_choices() const {
    std::array<std::uint64_t, kGpuStrategyCount> chosen{};
    std::uint64_t split = 0;
    std::vector<double> densities;
    for (const GpuBatchRecord& batch : engine_.batches()) {
      ++chosen[int(batch.strategy)];
      split += batch.rounds > 1;
      densities.push_back(batch.density);
    }
    nlohmann::json choices;
    for (int k = 0; k < kGpuStrategyCount; ++k) choices[strategy_name(GpuStrategy(k))] = chosen[k];
    choices["batches_split_for_scratch"] = split;
    choices["centre_tile_density"] = {{"min", quantile(densities, 0)},
                                      {"p50", quantile(densities, 0.5)},
                                      {"p90", quantile(densities, 0.9)},
                                      {"max", quantile(densities, 1)}};
    choices["thresholds"] = {{"tile16_from", options_.thresholds.tile16_from},
                             {"tile32_from", options_.thresholds.tile32_from},
                             {"scatter16_from", options_.thresholds.scatter16_from}};
    return choices;
  }

  SplatSettings settings_;
  GpuEngineOptions options_;
  SplatEngine engine_;
  StreamHeader header_;
};

}  // namespace

std::unique_ptr<SplatBackend> make_gpu_backend(const SplatSettings& settings) {
  return std::make_unique<GpuBackend>(settings);
}

}  // namespace starlens
