#include <algorithm>

#include "tile_scratch.h"

namespace starlens {

TileScratch::TileScratch(TileGrid grid, std::uint32_t segment, std::uint32_t min_references,
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

std::uint64_t references_per_event(const TileScratch& tiles, const BatchSummary& summary) {
  return tile_reference_bound(1, summary.max_cached_support, tiles.view.grid.tile);
}

std::uint32_t ranks_for(const TileScratch& tiles, const BatchSummary& summary) {
  return std::uint32_t(
      std::min<std::uint64_t>(tiles.most_ranks_per_event, references_per_event(tiles, summary)));
}

std::uint64_t events_per_round(const TileScratch& tiles, const BatchSummary& summary) {
  return tiles.view.reference_capacity / references_per_event(tiles, summary);
}

}  // namespace starlens
