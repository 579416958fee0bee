#pragma once
// The bounded device scratch of the tile kernels for one tile size (capacities as in
// splat_kernels.h), and how many of a batch's events one binning round can take.
#include <cstddef>
#include <cstdint>

#include "batch_summary.h"
#include "gpu/device_memory.h"
#include "splat_kernels.h"

namespace starlens {

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
              std::uint32_t max_events, std::uint32_t window, hipStream_t stream);
};

// The bound on one cached event's tile references in a batch (its largest cached support).
std::uint64_t references_per_event(const TileScratch& tiles, const BatchSummary& summary);

// The ranks kept for each event of a batch: that bound, or the window's where it is smaller.
std::uint32_t ranks_for(const TileScratch& tiles, const BatchSummary& summary);

// The events of a binning round: as many as that bound allows the scratch to hold (0 when a
// single event's bound exceeds it).
std::uint64_t events_per_round(const TileScratch& tiles, const BatchSummary& summary);

}  // namespace starlens
