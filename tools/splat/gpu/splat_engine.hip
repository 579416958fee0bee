// The GPU splat engine's two-slot streaming pipeline (docs/design.md section 6): events are staged
// into one pinned slot while the other's batch is uploaded and accumulated; batch_dispatch.h
// queues each batch's kernels, gpu_device.h picks the device.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include "batch_dispatch.h"
#include "batch_slot.h"
#include "batch_summary.h"
#include "core/errors.h"
#include "core/stopwatch.h"
#include "gpu/device_memory.h"
#include "gpu/gpu_device.h"
#include "splat_engine.h"
#include "splat_kernels.h"

namespace starlens {

struct SplatEngine::State {
  GpuEngineOptions options;
  GpuDeviceInfo device;
  std::unique_ptr<GpuStream> copy_stream, compute_stream;
  SplatConstants constants{};
  DeviceArray<double> frame;
  DeviceArray<PhaseQuad> cache;
  DeviceArray<unsigned long long> contributions;
  std::array<std::unique_ptr<BatchSlot>, 2> slots;
  int current = 0;
  std::uint32_t capacity = 0;
  std::unique_ptr<BatchSummariser> summariser;
  std::unique_ptr<BatchDispatch> dispatch;
  std::uint32_t multiprocessors = 0;
  GpuPhaseSeconds seconds;
  std::uint64_t submitted = 0, completed = 0, direct = 0, stream_direct = 0, events_total = 0;
  std::uint64_t contributions_cached = 0, contributions_direct = 0;
  std::vector<GpuBatchRecord> batches;

  hipStream_t copy() const { return copy_stream->get(); }
  hipStream_t compute() const { return compute_stream->get(); }

  // Uploads the staged batch and queues its kernels; nothing when the slot holds nothing new.
  void submit_current() {
    BatchSlot& slot = *slots[current];
    if (slot.in_flight || slot.count == 0) return;
    const std::span<const StarEvent> events(slot.staged.data(), slot.count);
    const BatchSummary summary = summariser->summarise(events, slot.direct_staged.data());
    direct += summary.direct;
    stream_direct += summary.stream_direct;
    events_total += summary.events;
    const GpuStrategy strategy =
        options.strategy.value_or(choose_strategy(summary.density(), options.thresholds));

    slot.upload_start.record(copy(), "event record");
    check_gpu(hipMemcpyAsync(slot.device.data(), slot.staged.data(), slot.count * sizeof(StarEvent),
                             hipMemcpyHostToDevice, copy()),
              "upload");
    if (summary.direct > 0)
      check_gpu(
          hipMemcpyAsync(slot.direct_device.data(), slot.direct_staged.data(),
                         summary.direct * sizeof(std::uint32_t), hipMemcpyHostToDevice, copy()),
          "upload");
    slot.uploaded.record(copy(), "event record");
    check_gpu(hipStreamWaitEvent(compute(), slot.uploaded.get(), 0), "upload");
    dispatch->run(slot, strategy, summary);
    slot.in_flight = true;
    ++submitted;
    batches.push_back({summary.density(), strategy, slot.rounds});
    current ^= 1;
  }

  // Waits for a slot's batch and adds its device times.
  void complete(BatchSlot& slot) {
    const auto start = std::chrono::steady_clock::now();
    slot.marks[slot.mark_phases.size() - 1]->synchronize("kernel");
    seconds.host_wait += seconds_since(start);
    seconds.upload += elapsed_seconds(slot.upload_start, slot.uploaded, "timing");
    seconds.binning += elapsed_seconds(slot.compute_start, slot.prepared, "timing");
    const GpuEvent* previous = &slot.prepared;
    for (std::size_t k = 0; k < slot.mark_phases.size(); ++k) {
      const double elapsed = elapsed_seconds(*previous, *slot.marks[k], "timing");
      switch (slot.mark_phases[k]) {
        case BatchPhase::binning:
          seconds.binning += elapsed;
          break;
        case BatchPhase::accumulate:
          seconds.accumulate += elapsed;
          break;
        case BatchPhase::merge:
          seconds.merge += elapsed;
          break;
        case BatchPhase::direct:
          seconds.direct += elapsed;
          break;
      }
      previous = slot.marks[k].get();
    }
    slot.in_flight = false;
    slot.count = 0;
    ++completed;
  }
};

SplatEngine::SplatEngine(const GpuEngineOptions& options) : state_(std::make_unique<State>()) {
  state_->options = options;
  state_->device = select_gpu_device(options.device);
  const GpuDeviceInfo& device = state_->device;
  state_->multiprocessors = std::uint32_t(std::max(1, device.multiprocessors));
  state_->copy_stream = std::make_unique<GpuStream>("stream creation");
  state_->compute_stream = std::make_unique<GpuStream>("stream creation");
}

SplatEngine::~SplatEngine() = default;

void SplatEngine::begin(const StreamHeader& header, const PhaseCache& phase_cache) {
  State& s = *state_;
  const PsfModel& psf = header.psf;
  s.frame = DeviceArray<double>(std::size_t(header.width) * header.height * 3, "frame allocation");
  check_gpu(hipMemsetAsync(s.frame.data(), 0, s.frame.bytes(), s.compute()), "frame allocation");
  const std::int32_t window = 2 * psf.cache_radius + 1;
  const std::vector<PhaseQuad> quads = interleave_phase_cache(phase_cache);
  s.cache = DeviceArray<PhaseQuad>(quads.size(), "phase cache allocation");
  check_gpu(hipMemcpy(s.cache.data(), quads.data(), s.cache.bytes(), hipMemcpyHostToDevice),
            "phase cache upload");
  s.constants = {header.width,
                 header.height,
                 psf.cache_radius,
                 psf.phases,
                 window,
                 s.options.all_direct ? 1 : 0,
                 moffat_from_fwhm(psf.fwhm, psf.beta),
                 s.cache.data()};
  s.capacity = std::max(s.options.batch_events, header.chunk_capacity);
  for (auto& slot : s.slots) slot = std::make_unique<BatchSlot>(s.capacity);
  s.contributions = DeviceArray<unsigned long long>(2, "counter allocation");  // cached, direct
  check_gpu(hipMemsetAsync(s.contributions.data(), 0, s.contributions.bytes(), s.compute()),
            "counter allocation");
  s.summariser = std::make_unique<BatchSummariser>(header.width, header.height, psf.cache_radius,
                                                   s.options.all_direct);
  s.dispatch = std::make_unique<BatchDispatch>(s.constants, s.capacity, s.options,
                                               s.multiprocessors, s.frame.data(),
                                               s.contributions.data(), *s.summariser, s.compute());
}

void SplatEngine::append(std::span<const StarEvent> events) {
  State& s = *state_;
  while (!events.empty()) {
    BatchSlot& slot = *s.slots[s.current];
    if (slot.in_flight) s.complete(slot);
    const auto start = std::chrono::steady_clock::now();
    const std::size_t take = std::min<std::size_t>(events.size(), s.capacity - slot.count);
    std::memcpy(slot.staged.data() + slot.count, events.data(), take * sizeof(StarEvent));
    s.seconds.host_staging += seconds_since(start);
    slot.count += std::uint32_t(take);
    events = events.subspan(take);
    if (slot.count == s.capacity) s.submit_current();
  }
}

void SplatEngine::finish(std::vector<double>& rgb) {
  State& s = *state_;
  s.submit_current();
  for (auto& slot : s.slots)
    if (slot->in_flight) s.complete(*slot);
  // Also what no batch waits for (the frame's zeroing when the stream had no events): the
  // plain copies below run on the default stream, which does not wait for ours.
  check_gpu(hipStreamSynchronize(s.compute()), "kernel");
  check_gpu(hipStreamSynchronize(s.copy()), "upload");
  s.dispatch->check_scratch();
  // Poisoned first: a value the download failed to write shows as NaN, never as zero.
  rgb.assign(s.frame.size(), std::numeric_limits<double>::quiet_NaN());
  const auto start = std::chrono::steady_clock::now();
  check_gpu(hipMemcpy(rgb.data(), s.frame.data(), s.frame.bytes(), hipMemcpyDeviceToHost),
            "download");
  s.seconds.download += seconds_since(start);
  unsigned long long contributions[2] = {0, 0};
  check_gpu(
      hipMemcpy(contributions, s.contributions.data(), sizeof contributions, hipMemcpyDeviceToHost),
      "download");
  s.contributions_cached = contributions[0];
  s.contributions_direct = contributions[1];
}

const GpuDeviceInfo& SplatEngine::device() const {
  return state_->device;
}
const GpuPhaseSeconds& SplatEngine::phase_seconds() const {
  return state_->seconds;
}
std::uint64_t SplatEngine::contributions() const {
  return state_->contributions_cached + state_->contributions_direct;
}
std::uint64_t SplatEngine::contributions_direct() const {
  return state_->contributions_direct;
}
std::uint64_t SplatEngine::events_stream_direct() const {
  return state_->stream_direct;
}
std::uint64_t SplatEngine::events() const {
  return state_->events_total;
}
std::uint64_t SplatEngine::batches_submitted() const {
  return state_->submitted;
}
std::uint64_t SplatEngine::batches_completed() const {
  return state_->completed;
}
std::uint64_t SplatEngine::events_direct() const {
  return state_->direct;
}
const std::vector<GpuBatchRecord>& SplatEngine::batches() const {
  return state_->batches;
}
std::uint64_t SplatEngine::device_memory_peak() const {
  return GpuMemoryTally::get().device.peak;
}
std::uint64_t SplatEngine::pinned_memory_peak() const {
  return GpuMemoryTally::get().pinned.peak;
}

}  // namespace starlens
