#pragma once
// A splat backend accumulates a validated event stream into a frame (docs/design.md section 6).
// main.cpp reads chunks and hands them over; backends own their parallelism.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "events/event_stream.h"
#include "frame/frame.h"
#include "optics/phase_cache.h"

namespace starlens {

struct SplatSettings {
  bool all_direct = false;                // --psf-direct: every event evaluated exactly
  int threads = 0;                        // CPU threads (0: all)
  int gpu_device = 0;                     // --gpu-device (a Vulkan device with --backend vulkan)
  std::string gpu_strategy = "adaptive";  // atomic | tile16 | tile32 | scatter16 | adaptive
                                          // (vulkan: atomic | tile16 | adaptive)
  bool quiet = false;
  std::uint64_t events_bound = 0;  // most events the input can hold (0: unknown, standard input)
};

class SplatBackend {
 public:
  virtual ~SplatBackend() = default;
  virtual std::string name() const = 0;
  // Called once before the first chunk; `cache` outlives the backend's use of it.
  virtual void begin(const StreamHeader& header, const PhaseCache& cache) = 0;
  // Accumulates one chunk. The span is valid only during the call.
  virtual void accumulate(std::span<const StarEvent> events) = 0;
  // Writes the accumulated frame (already sized width x height) and ends the run.
  virtual void finish(Frame& frame) = 0;
  // Counts (contributions, events by class) and per-phase seconds, for the manifest.
  virtual nlohmann::json statistics() const = 0;
  // Free text for the progress line (the GPU's submitted and completed batches); may be empty.
  virtual std::string progress_detail() const { return {}; }
};

std::unique_ptr<SplatBackend> make_cpu_backend(const SplatSettings& settings);
std::unique_ptr<SplatBackend> make_count_backend(const SplatSettings& settings);
// Defined in tools/splat/gpu/ when built with -Dgpu=cuda|hip; otherwise throws InputError
// ("this build has no GPU backend").
std::unique_ptr<SplatBackend> make_gpu_backend(const SplatSettings& settings);
// Defined in tools/splat/vulkan/ when built with the Vulkan headers and glslc (-Dvulkan);
// otherwise throws InputError ("this build has no vulkan backend").
std::unique_ptr<SplatBackend> make_vulkan_backend(const SplatSettings& settings);

}  // namespace starlens
