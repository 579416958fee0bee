// The GPU splat engine: device selection, buffers, the two-slot streaming pipeline and the
// per-batch dispatch to the atomic or tile kernels (DESIGN section 6).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "batch_summary.h"
#include "core/errors.h"
#include "core/stopwatch.h"
#include "gpu/device_memory.h"
#include "splat_engine.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

// Bounded device scratch for one tile size (capacities as in splat_kernels.h).
struct TileScratch {
  DeviceArray<std::uint32_t> counts, cursors, references, ranks;
  DeviceArray<TileWork> work;
  DeviceArray<TileMerge> merges;
  DeviceArray<double> partials;
  DeviceArray<TileTotals> totals;
  TileBuffers view{};

  // Ranks kept for an event (its tiles) when no event's support is known: a cached event's box
  // spans at most `window` pixels each way (2 Rc + 1).
  std::uint32_t most_ranks_per_event = 0;
  // Ranks the scratch holds: a round's events times the ranks kept for each (ranks_for).
  std::size_t rank_capacity = 0;

  // A round must hold any single event's references: at most every tile of the frame.
  TileScratch(TileGrid grid, std::uint32_t segment, std::uint32_t min_references,
              std::uint32_t max_events, std::uint32_t window, hipStream_t stream) {
    const char* phase = "scratch allocation";
    const std::uint32_t reference_capacity = std::max(min_references, grid.count());
    const std::uint32_t merge_capacity = reference_capacity / segment + 1;
    const std::uint32_t work_capacity = merge_capacity + std::min(reference_capacity, grid.count());
    const std::uint32_t slot_capacity = 2 * merge_capacity;
    counts = DeviceArray<std::uint32_t>(grid.count(), phase);
    cursors = DeviceArray<std::uint32_t>(grid.count(), phase);
    references = DeviceArray<std::uint32_t>(reference_capacity, phase);
    most_ranks_per_event =
        max_tiles_spanned(window, grid.tile) * max_tiles_spanned(window, grid.tile);
    // A round's events times their bound on tiles is at most the reference capacity (rounds are
    // cut so), so that many ranks suffice where the window's bound for every event of a batch
    // would be more: at Rc 200, 729 ranks an event, 12 GB for a batch of 2^22 events.
    rank_capacity = std::min(std::size_t(max_events) * most_ranks_per_event,
                             std::max<std::size_t>(reference_capacity, most_ranks_per_event));
    ranks = DeviceArray<std::uint32_t>(rank_capacity, phase);
    work = DeviceArray<TileWork>(work_capacity, phase);
    merges = DeviceArray<TileMerge>(merge_capacity, phase);
    partials = DeviceArray<double>(std::size_t(slot_capacity) * grid.tile * grid.tile * 3, phase);
    totals = DeviceArray<TileTotals>(1, phase);
    check_gpu(hipMemsetAsync(counts.data(), 0, counts.bytes(), stream), phase);
    check_gpu(hipMemsetAsync(totals.data(), 0, totals.bytes(), stream), phase);
    // All-ones bytes are a NaN: a partial sum read before it was written poisons the frame.
    check_gpu(hipMemsetAsync(partials.data(), 0xFF, partials.bytes(), stream), phase);
    view = {grid,
            segment,
            counts.data(),
            cursors.data(),
            ranks.data(),
            most_ranks_per_event,
            references.data(),
            reference_capacity,
            work.data(),
            work_capacity,
            merges.data(),
            merge_capacity,
            partials.data(),
            slot_capacity,
            totals.data()};
  }
};

enum class Phase : std::uint8_t { binning, accumulate, merge, direct };

// A pinned host slot and its device twin (events and the indices of the direct ones), with
// the events that time and guard its batch.
struct Slot {
  PinnedArray<StarEvent> staged;
  DeviceArray<StarEvent> device;
  PinnedArray<std::uint32_t> direct_staged;
  DeviceArray<std::uint32_t> direct_device;
  std::uint32_t count = 0;
  bool in_flight = false;
  GpuEvent upload_start{"event creation"}, uploaded{"event creation"};
  GpuEvent compute_start{"event creation"}, prepared{"event creation"};
  // After each kernel of the batch: the event and the phase the time since the last belongs to.
  std::vector<std::unique_ptr<GpuEvent>> marks;
  std::vector<Phase> mark_phases;
  std::uint32_t rounds = 0;  // binning rounds

  explicit Slot(std::uint32_t capacity)
      : staged(capacity, "pinned allocation"),
        device(capacity, "event buffer allocation"),
        direct_staged(capacity, "pinned allocation"),
        direct_device(capacity, "event buffer allocation") {}
  void mark(Phase phase, hipStream_t stream) {
    if (marks.size() == mark_phases.size())
      marks.push_back(std::make_unique<GpuEvent>("event creation"));
    marks[mark_phases.size()]->record(stream, "event record");
    mark_phases.push_back(phase);
  }
};

std::string architecture_of(const hipDeviceProp_t& properties) {
#if defined(__HIPCC__)
  return properties.gcnArchName;
#else
  return "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
#endif
}

}  // namespace

struct SplatEngine::State {
  GpuEngineOptions options;
  GpuDeviceInfo device;
  std::unique_ptr<GpuStream> copy_stream, compute_stream;
  SplatConstants constants{};
  DeviceArray<double> frame;
  DeviceArray<PhaseQuad> cache;
  DeviceArray<PreparedEvent> prepared;
  DeviceArray<PixelBox> cached_boxes;  // the prepared events' boxes, cached events only
  DeviceArray<unsigned long long> contributions;
  std::array<std::unique_ptr<Slot>, 2> slots;
  int current = 0;
  std::uint32_t capacity = 0;
  std::unique_ptr<BatchSummariser> summariser;
  std::unique_ptr<TileScratch> tiles16, tiles32, scatter_tiles;
  std::uint32_t multiprocessors = 0;
  GpuPhaseSeconds seconds;
  std::uint64_t submitted = 0, completed = 0, direct = 0, stream_direct = 0, events_total = 0;
  std::uint64_t contributions_cached = 0, contributions_direct = 0;
  std::vector<GpuBatchRecord> batches;

  hipStream_t copy() const { return copy_stream->get(); }
  hipStream_t compute() const { return compute_stream->get(); }

  TileScratch& scratch(GpuStrategy strategy) {
    const std::uint32_t tile = strategy_tile_size(strategy);
    const bool scatter = strategy == GpuStrategy::scatter16;
    auto& owner = scatter ? scatter_tiles : tile == 16 ? tiles16 : tiles32;
    // Segments of a tile's list: long enough to amortise a block's frame update, short
    // enough that a hot spot's few tiles still spread over all multiprocessors (docs/gpu.md,
    // "Measured choices").
    const std::uint32_t segment = scatter ? options.scatter_segment : tile == 16 ? 1024u : 2048u;
    if (!owner) {
      // By default a full batch's references at the bound per cached event: one round a batch
      // (2^26 references for tile16 at the default sizes), but no more than 2^27 (512 MB), so
      // that a large cache radius splits batches into rounds instead of taking gigabytes.
      const std::uint64_t per_event = tile_reference_bound(1, constants.cache_radius, tile);
      const std::uint32_t references = options.tile_references
                                           ? options.tile_references
                                           : std::uint32_t(std::min<std::uint64_t>(
                                                 std::uint64_t(capacity) * per_event, 1u << 27));
      owner = std::make_unique<TileScratch>(make_tile_grid(constants.width, constants.height, tile),
                                            segment, references, capacity,
                                            std::uint32_t(constants.window), compute());
    }
    return *owner;
  }

  // Queues the kernels of one batch on the compute stream and records its marks.
  void run_kernels(Slot& slot, GpuStrategy strategy, const BatchSummary& summary) {
    const std::uint32_t count = slot.count;
    slot.mark_phases.clear();
    slot.rounds = 0;
    slot.compute_start.record(compute(), "event record");
    const bool cached = summary.direct < summary.events;
    TileScratch* tiles = cached && strategy != GpuStrategy::atomic ? &scratch(strategy) : nullptr;
    // A batch binned in one round is counted into its tiles by the prepare kernel: the copy of
    // the records, bound by memory, hides the counting's atomics (docs/gpu.md, "Measured
    // choices").
    if (tiles != nullptr) tiles->view.ranks_per_event = ranks_for(*tiles, summary);
    const bool counted = tiles != nullptr && events_per_round(*tiles, summary) >= count;
    launch_prepare_events(slot.device.data(), count, constants, prepared.data(),
                          cached_boxes.data(), counted ? &tiles->view : nullptr, compute());
    slot.prepared.record(compute(), "event record");
    if (cached) run_cached(slot, strategy, summary, counted);
    if (summary.direct > 0) {
      launch_direct_splat(prepared.data(), slot.direct_device.data(), std::uint32_t(summary.direct),
                          summary.direct_pixels, constants, frame.data(), contributions.data() + 1,
                          compute());
      slot.mark(Phase::direct, compute());
    }
    if (slot.mark_phases.empty()) slot.mark(Phase::binning, compute());
  }

  // The bound on one cached event's tile references in this batch (its largest cached support).
  static std::uint64_t references_per_event(const TileScratch& tiles, const BatchSummary& summary) {
    return tile_reference_bound(1, summary.max_cached_support, tiles.view.grid.tile);
  }

  // The ranks kept for each event of a batch: that bound, or the window's where it is smaller.
  static std::uint32_t ranks_for(const TileScratch& tiles, const BatchSummary& summary) {
    return std::uint32_t(
        std::min<std::uint64_t>(tiles.most_ranks_per_event, references_per_event(tiles, summary)));
  }

  // The events of a binning round: as many as that bound allows the scratch to hold (0 when a
  // single event's bound exceeds it).
  static std::uint64_t events_per_round(const TileScratch& tiles, const BatchSummary& summary) {
    return tiles.view.reference_capacity / references_per_event(tiles, summary);
  }

  // The cached events' kernels; `counted`: the prepare kernel counted them into their tiles
  // (one round).
  void run_cached(Slot& slot, GpuStrategy strategy, const BatchSummary& summary, bool counted) {
    const std::uint32_t count = slot.count;
    if (strategy == GpuStrategy::atomic) {
      launch_atomic_splat(prepared.data(), count, constants, frame.data(), contributions.data(),
                          compute());
      slot.mark(Phase::accumulate, compute());
      return;
    }
    TileScratch& tiles = scratch(strategy);
    const std::uint32_t tile = tiles.view.grid.tile;
    const std::span<const StarEvent> events(slot.staged.data(), count);
    const std::uint64_t capacity = tiles.view.reference_capacity;
    // Rounds of consecutive events whose tile references fit the scratch: as many events as the
    // bound per event allows (counting each event's references on the host is far slower:
    // docs/gpu.md, "Measured choices"); only where one event's bound exceeds the scratch (a tiny
    // frame with forced small scratch), as many as their exact counts allow, and at least one.
    const std::uint64_t per_round = events_per_round(tiles, summary);
    const std::uint64_t ranked = tiles.rank_capacity / tiles.view.ranks_per_event;  // >= 1
    const auto round_end = [&](std::uint32_t first) -> std::uint32_t {
      if (per_round > 0) return std::uint32_t(std::min<std::uint64_t>(count, first + per_round));
      std::uint32_t last = first;
      for (std::uint64_t references = 0; last < count && last - first < ranked; ++last) {
        const StarEvent& event = events[last];
        references += summariser->is_direct(event)
                          ? 0
                          : count_tile_references(events.subspan(last, 1), constants.width,
                                                  constants.height, tile);
        if (references > capacity) break;
      }
      return std::max(last, first + 1);
    };
    std::uint32_t first = 0;
    while (first < count) {
      const std::uint32_t last = round_end(first);
      ++slot.rounds;
      const PreparedEvent* round_events = prepared.data() + first;
      launch_tile_binning(cached_boxes.data() + first, last - first, counted, tiles.view,
                          compute());
      slot.mark(Phase::binning, compute());
      if (strategy == GpuStrategy::scatter16)
        launch_scatter_accumulate(round_events, tiles.view, constants, frame.data(),
                                  contributions.data(), multiprocessors, compute());
      else
        launch_tile_accumulate(round_events, tiles.view, constants, frame.data(),
                               contributions.data(), multiprocessors, compute());
      slot.mark(Phase::accumulate, compute());
      launch_tile_merge(tiles.view, constants, frame.data(), multiprocessors, compute());
      slot.mark(Phase::merge, compute());
      first = last;
    }
  }

  // Uploads the staged batch and queues its kernels; nothing when the slot holds nothing new.
  void submit_current() {
    Slot& slot = *slots[current];
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
    run_kernels(slot, strategy, summary);
    slot.in_flight = true;
    ++submitted;
    batches.push_back({summary.density(), strategy, slot.rounds});
    current ^= 1;
  }

  // Waits for a slot's batch and adds its device times.
  void complete(Slot& slot) {
    const auto start = std::chrono::steady_clock::now();
    slot.marks[slot.mark_phases.size() - 1]->synchronize("kernel");
    seconds.host_wait += seconds_since(start);
    seconds.upload += elapsed_seconds(slot.upload_start, slot.uploaded, "timing");
    seconds.binning += elapsed_seconds(slot.compute_start, slot.prepared, "timing");
    const GpuEvent* previous = &slot.prepared;
    for (std::size_t k = 0; k < slot.mark_phases.size(); ++k) {
      const double elapsed = elapsed_seconds(*previous, *slot.marks[k], "timing");
      switch (slot.mark_phases[k]) {
        case Phase::binning:
          seconds.binning += elapsed;
          break;
        case Phase::accumulate:
          seconds.accumulate += elapsed;
          break;
        case Phase::merge:
          seconds.merge += elapsed;
          break;
        case Phase::direct:
          seconds.direct += elapsed;
          break;
      }
      previous = slot.marks[k].get();
    }
    slot.in_flight = false;
    slot.count = 0;
    ++completed;
  }

  void check_scratch(const std::unique_ptr<TileScratch>& tiles) {
    if (!tiles) return;
    TileTotals totals{};
    check_gpu(hipMemcpy(&totals, tiles->totals.data(), sizeof totals, hipMemcpyDeviceToHost),
              "download");
    if (totals.overflow)
      throw_run_failure("gpu binning",
                        "tile" + std::to_string(tiles->view.grid.tile) + " scratch overflowed in " +
                            std::to_string(totals.overflow) + " batch(es); frame not written");
  }
};

SplatEngine::SplatEngine(const GpuEngineOptions& options) : state_(std::make_unique<State>()) {
  state_->options = options;
  GpuDeviceInfo& device = state_->device;
  const hipError_t status = hipGetDeviceCount(&device.device_count);
  if (status != hipSuccess)
    throw_run_failure("gpu device",
                      std::string("no usable GPU (") + hipGetErrorString(status) + ")");
  if (device.device_count == 0) throw_run_failure("gpu device", "no GPU found");
  if (options.device < 0 || options.device >= device.device_count)
    throw_run_failure("gpu device", "--gpu-device " + std::to_string(options.device) +
                                        " is out of range: this machine has " +
                                        std::to_string(device.device_count) +
                                        " GPU(s), indices 0 to " +
                                        std::to_string(device.device_count - 1));
  device.index = options.device;
  check_gpu(hipSetDevice(options.device), "device");
  hipDeviceProp_t properties{};
  check_gpu(hipGetDeviceProperties(&properties, options.device), "device");
  device.name = properties.name;
  device.architecture = architecture_of(properties);
#if defined(__HIPCC__)
  device.platform = "hip";
#else
  device.platform = "cuda";
#endif
  device.multiprocessors = properties.multiProcessorCount;
  device.global_memory = properties.totalGlobalMem;
  check_gpu(hipDriverGetVersion(&device.driver_version), "device");
  check_gpu(hipRuntimeGetVersion(&device.runtime_version), "device");
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
  for (auto& slot : s.slots) slot = std::make_unique<Slot>(s.capacity);
  s.prepared = DeviceArray<PreparedEvent>(s.capacity, "event buffer allocation");
  s.cached_boxes = DeviceArray<PixelBox>(s.capacity, "event buffer allocation");
  s.contributions = DeviceArray<unsigned long long>(2, "counter allocation");  // cached, direct
  check_gpu(hipMemsetAsync(s.contributions.data(), 0, s.contributions.bytes(), s.compute()),
            "counter allocation");
  s.summariser = std::make_unique<BatchSummariser>(header.width, header.height, psf.cache_radius,
                                                   s.options.all_direct);
}

void SplatEngine::append(std::span<const StarEvent> events) {
  State& s = *state_;
  while (!events.empty()) {
    Slot& slot = *s.slots[s.current];
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
  s.check_scratch(s.tiles16);
  s.check_scratch(s.tiles32);
  s.check_scratch(s.scatter_tiles);
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
