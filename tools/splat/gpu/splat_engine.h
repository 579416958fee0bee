#pragma once
// The GPU side of the splat backend, behind a plain C++ interface (no GPU runtime types, no
// JSON, no OpenEXR) so host code compiled by the C++ compiler can drive it. Events are
// staged into two pinned host slots; each full slot is uploaded on a copy stream and
// accumulated on a compute stream into a frame that stays on the device until finish().
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "events/event_stream.h"
#include "gpu/gpu_device.h"
#include "gpu_strategy.h"
#include "optics/phase_cache.h"

namespace starlens {

struct GpuEngineOptions {
  int device = 0;
  std::optional<GpuStrategy> strategy;  // nullopt: adaptive
  AdaptiveThresholds thresholds = default_adaptive_thresholds();
  bool all_direct = false;
  // 2^22: the per-batch scan, the kernels' tails and the per-work-item set-up of the tile
  // kernels are amortised over more events (docs/gpu.md, "Measured choices"). Memory: 2 pinned
  // slots of 2^22 events and direct indices, and the device buffers (docs/gpu.md, "Memory").
  std::uint32_t batch_events = 1 << 22;  // events per GPU batch (several stream chunks)
  // Tile references per binning round (raised to the tile count if below it); batches
  // with more are split into rounds. 0: as many as a full batch can make at the bound per
  // cached event of the window, up to 2^27 (2^26 for tile16 at the default sizes: every batch
  // is one round).
  std::uint32_t tile_references = 0;
  // References per scatter16 work item: tiles with longer lists are split into partial sums.
  // 2048 rather than 1024: half the partial-sum slots (0.4 GB less device memory at the default
  // batch) at the same speed (2 x 10^7 events on the H200: uniform +0.4-0.9%, hot spot equal;
  // 4096 lost 6% on the hot spot; docs/gpu.md).
  std::uint32_t scatter_segment = 2048;
};

// Events per batch for an input of at most `events_bound` events (0: unknown, standard input):
// never more than the input holds, so that a short replay does not allocate a full batch's
// buffers (4,096 events held 2.5 GB of device and 0.5 GB of pinned memory).
inline std::uint32_t batch_events_for(std::uint32_t configured, std::uint64_t events_bound) {
  if (events_bound == 0 || events_bound >= configured) return configured;
  return std::uint32_t(events_bound);
}

// Device seconds per phase (from GPU events), and host seconds spent staging into pinned
// memory and waiting for a free slot.
struct GpuPhaseSeconds {
  double upload = 0, binning = 0, accumulate = 0, merge = 0, download = 0;
  double direct = 0;  // the direct events' kernel (all strategies)
  double host_staging = 0, host_wait = 0;
};

struct GpuBatchRecord {
  double density;        // event centres per occupied 32 px centre tile
  GpuStrategy strategy;  // what ran
  std::uint32_t rounds;  // binning rounds (>1 when the batch was split to fit the scratch)
};

class SplatEngine {
 public:
  // Selects and checks the device; RunFailure ("gpu device: ...") when there is none or the
  // index is out of range.
  explicit SplatEngine(const GpuEngineOptions& options);
  ~SplatEngine();
  SplatEngine(const SplatEngine&) = delete;
  SplatEngine& operator=(const SplatEngine&) = delete;

  // Allocates the frame and buffers and uploads the phase cache (once).
  void begin(const StreamHeader& header, const PhaseCache& phase_cache);
  // Stages events; full slots are submitted. Returns once the events are copied.
  void append(std::span<const StarEvent> events);
  // Submits what is staged, waits for all work, downloads the frame (width x height x 3).
  void finish(std::vector<double>& rgb);

  const GpuDeviceInfo& device() const;
  const GpuPhaseSeconds& phase_seconds() const;
  std::uint64_t contributions() const;         // valid after finish()
  std::uint64_t contributions_direct() const;  // of them, by direct events
  std::uint64_t events() const;                // all events appended
  std::uint64_t events_stream_direct() const;  // support > Rc: the stream's direct class
  std::uint64_t batches_submitted() const;
  std::uint64_t batches_completed() const;
  std::uint64_t events_direct() const;
  const std::vector<GpuBatchRecord>& batches() const;
  // The most device and pinned host memory the run's buffers held at once, in bytes.
  std::uint64_t device_memory_peak() const;
  std::uint64_t pinned_memory_peak() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace starlens
