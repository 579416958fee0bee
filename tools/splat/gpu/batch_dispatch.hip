#include <algorithm>
#include <span>
#include <string>

#include "batch_dispatch.h"
#include "core/errors.h"

namespace starlens {

BatchDispatch::BatchDispatch(const SplatConstants& constants, std::uint32_t capacity,
                             const GpuEngineOptions& options, std::uint32_t multiprocessors,
                             double* frame, unsigned long long* contributions,
                             const BatchSummariser& summariser, hipStream_t compute)
    : constants_(constants),
      capacity_(capacity),
      tile_references_(options.tile_references),
      scatter_segment_(options.scatter_segment),
      multiprocessors_(multiprocessors),
      frame_(frame),
      contributions_(contributions),
      summariser_(summariser),
      compute_(compute),
      prepared_(capacity, "event buffer allocation"),
      cached_boxes_(capacity, "event buffer allocation") {}

TileScratch& BatchDispatch::scratch(GpuStrategy strategy) {
  const std::uint32_t tile = strategy_tile_size(strategy);
  const bool scatter = strategy == GpuStrategy::scatter16;
  auto& owner = scatter ? scatter_tiles_ : tile == 16 ? tiles16_ : tiles32_;
  // Segments of a tile's list: long enough to amortise a block's frame update, short
  // enough that a hot spot's few tiles still spread over all multiprocessors (docs/gpu.md,
  // "Measured choices").
  const std::uint32_t segment = scatter ? scatter_segment_ : tile == 16 ? 1024u : 2048u;
  if (!owner) {
    // By default a full batch's references at the bound per cached event: one round a batch
    // (2^26 references for tile16 at the default sizes), but no more than 2^27 (512 MB), so
    // that a large cache radius splits batches into rounds instead of taking gigabytes.
    const std::uint64_t per_event = tile_reference_bound(1, constants_.cache_radius, tile);
    const std::uint32_t references = tile_references_
                                         ? tile_references_
                                         : std::uint32_t(std::min<std::uint64_t>(
                                               std::uint64_t(capacity_) * per_event, 1u << 27));
    owner = std::make_unique<TileScratch>(make_tile_grid(constants_.width, constants_.height, tile),
                                          segment, references, capacity_,
                                          std::uint32_t(constants_.window), compute_);
  }
  return *owner;
}

void BatchDispatch::run(BatchSlot& slot, GpuStrategy strategy, const BatchSummary& summary) {
  const std::uint32_t count = slot.count;
  slot.mark_phases.clear();
  slot.rounds = 0;
  slot.compute_start.record(compute_, "event record");
  const bool cached = summary.direct < summary.events;
  TileScratch* tiles = cached && strategy != GpuStrategy::atomic ? &scratch(strategy) : nullptr;
  // A batch binned in one round is counted into its tiles by the prepare kernel: the copy of
  // the records, bound by memory, hides the counting's atomics (docs/gpu.md, "Measured
  // choices").
  if (tiles != nullptr) tiles->view.ranks_per_event = ranks_for(*tiles, summary);
  const bool counted = tiles != nullptr && events_per_round(*tiles, summary) >= count;
  launch_prepare_events(slot.device.data(), count, constants_, prepared_.data(),
                        cached_boxes_.data(), counted ? &tiles->view : nullptr, compute_);
  slot.prepared.record(compute_, "event record");
  if (cached) run_cached(slot, strategy, summary, counted);
  if (summary.direct > 0) {
    launch_direct_splat(prepared_.data(), slot.direct_device.data(), std::uint32_t(summary.direct),
                        summary.direct_pixels, constants_, frame_, contributions_ + 1, compute_);
    slot.mark(BatchPhase::direct, compute_);
  }
  if (slot.mark_phases.empty()) slot.mark(BatchPhase::binning, compute_);
}

void BatchDispatch::run_cached(BatchSlot& slot, GpuStrategy strategy, const BatchSummary& summary,
                               bool counted) {
  const std::uint32_t count = slot.count;
  if (strategy == GpuStrategy::atomic) {
    launch_atomic_splat(prepared_.data(), count, constants_, frame_, contributions_, compute_);
    slot.mark(BatchPhase::accumulate, compute_);
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
      references += summariser_.is_direct(event)
                        ? 0
                        : count_tile_references(events.subspan(last, 1), constants_.width,
                                                constants_.height, tile);
      if (references > capacity) break;
    }
    return std::max(last, first + 1);
  };
  std::uint32_t first = 0;
  while (first < count) {
    const std::uint32_t last = round_end(first);
    ++slot.rounds;
    const PreparedEvent* round_events = prepared_.data() + first;
    launch_tile_binning(cached_boxes_.data() + first, last - first, counted, tiles.view, compute_);
    slot.mark(BatchPhase::binning, compute_);
    if (strategy == GpuStrategy::scatter16)
      launch_scatter_accumulate(round_events, tiles.view, constants_, frame_, contributions_,
                                multiprocessors_, compute_);
    else
      launch_tile_accumulate(round_events, tiles.view, constants_, frame_, contributions_,
                             multiprocessors_, compute_);
    slot.mark(BatchPhase::accumulate, compute_);
    launch_tile_merge(tiles.view, constants_, frame_, multiprocessors_, compute_);
    slot.mark(BatchPhase::merge, compute_);
    first = last;
  }
}

void BatchDispatch::check_scratch() const {
  for (const auto* tiles : {&tiles16_, &tiles32_, &scatter_tiles_}) {
    if (!*tiles) continue;
    TileTotals totals{};
    check_gpu(hipMemcpy(&totals, (*tiles)->totals.data(), sizeof totals, hipMemcpyDeviceToHost),
              "download");
    if (totals.overflow)
      throw_run_failure("gpu binning", "tile" + std::to_string((*tiles)->view.grid.tile) +
                                           " scratch overflowed in " +
                                           std::to_string(totals.overflow) +
                                           " batch(es); frame not written");
  }
}

}  // namespace starlens
