#pragma once
// Launchers of the splat kernels (prepare_events.hip, atomic_splat.hip, direct_splat.hip,
// tile_binning.hip, tile_splat.hip, scatter_splat.hip). GPU translation units
// only. Every launcher only queues work on `stream`; errors inside a kernel surface at the
// next synchronisation.
#include <algorithm>
#include <cstdint>

#include "gpu/gpu_check.h"
#include "splat_device.h"
#include "tile_geometry.h"

namespace starlens {

// Adds a thread's count of contributions to the run's total: one global atomic per block.
__device__ inline void add_block_count(unsigned long long count, unsigned long long* total) {
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  if (count) atomicAdd(&block_count, count);
  __syncthreads();
  if (threadIdx.x == 0 && block_count) atomicAdd(total, block_count);
}

// The size of a persistent grid of `kernel` (blocks of `block_threads`): as many blocks as the
// device holds at once. More would run as a second, partial wave after the first (the
// profiler showed a kernel of 70 registers, 7 blocks a multiprocessor, spending a third of its
// time so), fewer would leave multiprocessors idle.
template <typename Kernel>
std::uint32_t resident_grid(Kernel kernel, std::uint32_t block_threads,
                            std::uint32_t multiprocessors) {
  int per_multiprocessor = 0;
  check_gpu(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel,
                                                         int(block_threads), 0),
            "occupancy");
  return multiprocessors * std::uint32_t(std::max(1, per_multiprocessor));
}

// A group of 32 lanes walking the columns [i0, i1] of rows j0, j0 + 1, ... row-major, 32
// pixels a step: lane k starts at pixel k of the walk. The start and the step in rows and
// columns come from one approximate float reciprocal (exact: every quotient taken is at least
// 0.5 / width from an integer, far beyond the reciprocal's error of a few units in the last
// place), not from integer divisions, an IEEE division's slow path or a loop per step.
struct BoxWalk {
  std::int32_t i, j;
  std::int32_t i1, width, step_rows, step_columns;

  __device__ BoxWalk(std::int32_t i0, std::int32_t i1_, std::int32_t j0, std::uint32_t lane)
      : i1(i1_), width(i1_ - i0 + 1) {
    const float per_row = __fdividef(1.0f, float(width));
    const std::int32_t start_rows = std::int32_t((float(lane) + 0.5f) * per_row);
    step_rows = std::int32_t(32.5f * per_row);
    step_columns = 32 - step_rows * width;
    i = i0 + std::int32_t(lane) - start_rows * width;
    j = j0 + start_rows;
  }
  __device__ void advance() {
    i += step_columns;
    j += step_rows;
    if (i > i1) {
      i -= width;
      ++j;
    }
  }
};

struct TileBuffers;

// Events -> prepared events (pixel box, phase, flux times colour), and each event's box once
// more on its own if it is a cached event (else an empty box): the binning reads 16 bytes an
// event side by side instead of picking them out of 160-byte records. With `count_into`, the
// cached events are also counted into its tiles (the binning's counting pass).
void launch_prepare_events(const StarEvent* events, std::uint32_t count,
                           const SplatConstants& constants, PreparedEvent* prepared,
                           PixelBox* cached_boxes, const TileBuffers* count_into,
                           hipStream_t stream);

// atomic: a group of 32 threads per cached event, double atomics into the frame.
void launch_atomic_splat(const PreparedEvent* events, std::uint32_t count,
                         const SplatConstants& constants, double* frame,
                         unsigned long long* contributions, hipStream_t stream);

// Direct events (all strategies): each event's box is cut into blocks of pixels, so one
// large event spreads over the whole GPU; double atomics into the frame. `indices` lists
// the batch's direct events; `pixels` is the sum of their boxes.
void launch_direct_splat(const PreparedEvent* events, const std::uint32_t* indices,
                         std::uint32_t count, std::uint64_t pixels, const SplatConstants& constants,
                         double* frame, unsigned long long* contributions, hipStream_t stream);

// tile16 / tile32 (cached events only): binning into per-tile reference lists, then threads that
// own pixels.
struct TileWork {
  std::uint32_t tile;
  std::uint32_t ref_begin;  // into the reference list
  std::uint32_t ref_count;  // at most the segment length
  std::int32_t slot;        // partial-sum slot, or -1: the tile's only segment adds to the frame
};
struct TileMerge {
  std::uint32_t tile;
  std::uint32_t first_slot;
  std::uint32_t slot_count;
  std::uint32_t unused;
};
struct TileTotals {
  std::uint32_t references;
  std::uint32_t work;
  std::uint32_t slots;
  std::uint32_t merges;
  std::uint32_t overflow;   // sticky: a batch needed more scratch than there was (never expected)
  std::uint32_t next_work;  // the accumulate kernels' work-item counter, reset by the scan
};

// Device scratch of one tile size. Capacities follow from reference_capacity: with
// segments of `segment` references, work <= refs / segment + tiles, partial-sum slots
// <= 2 refs / segment, merges <= refs / segment.
struct TileBuffers {
  TileGrid grid;
  std::uint32_t segment;
  std::uint32_t* counts;   // per tile; zero between batches
  std::uint32_t* cursors;  // per tile: the first of its references
  // Per event, its place in each of its tiles' lists, taken by the counting pass (event-major,
  // ranks_per_event each): the fill pass then writes without a second round of atomics.
  std::uint32_t* ranks;
  std::uint32_t ranks_per_event;
  std::uint32_t* references;
  std::uint32_t reference_capacity;
  TileWork* work;
  std::uint32_t work_capacity;
  TileMerge* merges;
  std::uint32_t merge_capacity;
  double* partials;  // slot_capacity x tile^2 x 3
  std::uint32_t slot_capacity;
  TileTotals* totals;
};

// The next work item for the calling block, from the counter the scan reset: blocks that
// finish early take more, so that a hot spot's long items do not leave most of the grid
// waiting for the few blocks a fixed stride over the items gave two of them. Which block sums
// an item does not change its sums or where they go.
__device__ inline std::uint32_t next_work_item(TileTotals* totals) {
  __shared__ std::uint32_t item;
  __syncthreads();  // every thread has read the previous item
  if (threadIdx.x == 0) item = atomicAdd(&totals->next_work, 1u);
  __syncthreads();
  return item;
}

// A work item's sum for one tile pixel (local index `local` of a tile of `tile_pixels`, frame
// pixel (i, j)): into its partial-sum slot when the tile's list was split, else added to the
// frame (pixels of a partial tile outside the frame are skipped).
__device__ inline void store_tile_sum(const TileWork& item, const TileBuffers& buffers,
                                      std::uint32_t tile_pixels, std::uint32_t local,
                                      std::int32_t i, std::int32_t j, const double (&sum)[3],
                                      const SplatConstants& constants, double* frame) {
  if (item.slot >= 0) {
    double* partial = buffers.partials + (std::size_t(item.slot) * tile_pixels + local) * 3;
    partial[0] = sum[0];
    partial[1] = sum[1];
    partial[2] = sum[2];
  } else if (i < std::int32_t(constants.width) && j < std::int32_t(constants.height)) {
    double* pixel = frame + 3 * (std::size_t(j) * constants.width + i);
    pixel[0] += sum[0];
    pixel[1] += sum[1];
    pixel[2] += sum[2];
  }
}

// The tile lists of a round's cached events (their boxes), counted by the prepare kernel
// already if `counted`.
void launch_tile_binning(const PixelBox* cached_boxes, std::uint32_t count, bool counted,
                         const TileBuffers& buffers, hipStream_t stream);
// The tile, scatter and merge kernels run as persistent grids sized by resident_grid.
void launch_tile_accumulate(const PreparedEvent* events, const TileBuffers& buffers,
                            const SplatConstants& constants, double* frame,
                            unsigned long long* contributions, std::uint32_t multiprocessors,
                            hipStream_t stream);
// scatter16: the tile16 lists, work items and merge; warps add whole events into shared-memory
// copies of the tile (scatter_splat.hip).
void launch_scatter_accumulate(const PreparedEvent* events, const TileBuffers& buffers,
                               const SplatConstants& constants, double* frame,
                               unsigned long long* contributions, std::uint32_t multiprocessors,
                               hipStream_t stream);
void launch_tile_merge(const TileBuffers& buffers, const SplatConstants& constants, double* frame,
                       std::uint32_t multiprocessors, hipStream_t stream);

}  // namespace starlens
