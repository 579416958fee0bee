#pragma once
// The counting step of the tile binning (tile_binning.hip), device code shared by the counting
// kernel and the prepare kernel, which counts a batch's events as it prepares them when the
// batch is binned in one round (its memory-bound copy then hides the atomics' latency).
#include "splat_kernels.h"

namespace starlens {

__device__ inline void for_each_tile(const PixelBox& box, const TileGrid& grid, auto&& visit) {
  for (std::uint32_t ty = grid.of(box.j0); ty <= grid.of(box.j1); ++ty)
    for (std::uint32_t tx = grid.of(box.i0); tx <= grid.of(box.i1); ++tx)
      visit(ty * grid.columns + tx);
}

// A cached event whose box spans more tiles than it has ranks for cannot come from the cached
// evaluator's window; it is left out of the lists and the batch reported as overflowed.
__device__ inline bool binned(const PixelBox& box, const TileBuffers& buffers) {
  return !box.empty() && tiles_touched(box, buffers.grid.tile) <= buffers.ranks_per_event;
}

// Counts the cached event `index` of the round (its box) in every tile the box touches,
// keeping each count's old value as the event's rank in that tile's list.
__device__ inline void count_in_tiles(const PixelBox& box, std::uint32_t index,
                                      const TileBuffers& buffers) {
  if (!binned(box, buffers)) {
    if (!box.empty()) atomicAdd(&buffers.totals->overflow, 1u);
    return;
  }
  std::uint32_t* ranks = buffers.ranks + std::size_t(index) * buffers.ranks_per_event;
  std::uint32_t k = 0;
  for_each_tile(box, buffers.grid, [&](std::uint32_t tile) {
    ranks[k++] = aggregated_increment(buffers.counts + tile);
  });
}

}  // namespace starlens
