// The tile strategies (tile16, tile32): binning builds per-tile lists of the events whose
// pixel box (their full support, as the CPU bounds it) touches the tile; then a block per list
// segment owns the tile's pixels, one thread per pixel (tile16) or four (tile32), and sums the
// segment's events in registers. A tile's only segment adds its sums to the frame; a long list's
// segments write partial sums to scratch slots, which a second pass adds to the frame in order.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;         // threads per block of the binning and tile kernels
constexpr std::uint32_t kScanThreads = 1024;  // the single block that scans the tile counts

__device__ inline void for_each_tile(const PixelBox& box, const TileGrid& grid, auto&& visit) {
  for (std::uint32_t ty = std::uint32_t(box.j0) / grid.tile;
       ty <= std::uint32_t(box.j1) / grid.tile; ++ty)
    for (std::uint32_t tx = std::uint32_t(box.i0) / grid.tile;
         tx <= std::uint32_t(box.i1) / grid.tile; ++tx)
      visit(ty * grid.columns + tx);
}

// A cached event whose box spans more tiles than it has ranks for cannot come from the cached
// evaluator's window; it is left out of the lists and the batch reported as overflowed.
__device__ inline bool binned(const PixelBox& box, const TileBuffers& buffers) {
  return !box.empty() && tiles_touched(box, buffers.grid.tile) <= buffers.ranks_per_event;
}

__global__ void tile_count_kernel(const PixelBox* cached_boxes, std::uint32_t count,
                                  TileBuffers buffers) {
  const std::uint32_t index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count) return;
  const PixelBox box = cached_boxes[index];
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

struct ScanSums {
  std::uint32_t references, work, slots, merges;
};

// Inclusive scan over the block of four sums at once (Hillis-Steele in shared memory).
__device__ ScanSums block_inclusive_scan(ScanSums value) {
  __shared__ ScanSums partial[kScanThreads];
  partial[threadIdx.x] = value;
  __syncthreads();
  for (std::uint32_t offset = 1; offset < kScanThreads; offset *= 2) {
    ScanSums before{0, 0, 0, 0};
    if (threadIdx.x >= offset) before = partial[threadIdx.x - offset];
    __syncthreads();
    partial[threadIdx.x].references += before.references;
    partial[threadIdx.x].work += before.work;
    partial[threadIdx.x].slots += before.slots;
    partial[threadIdx.x].merges += before.merges;
    __syncthreads();
  }
  return partial[threadIdx.x];
}

// One block: exclusive scans of the per-tile counts give each tile its reference range,
// work items and partial-sum slots; the counts are reset for the next batch. If the batch
// would exceed any capacity nothing is written and the overflow is recorded.
__global__ void __launch_bounds__(kScanThreads) tile_scan_kernel(TileBuffers buffers) {
  __shared__ bool overflow;
  const std::uint32_t tiles = buffers.grid.count();
  const std::uint32_t segment = buffers.segment;
  const std::uint32_t per_thread = (tiles + kScanThreads - 1) / kScanThreads;
  const std::uint32_t begin = min(tiles, threadIdx.x * per_thread);
  const std::uint32_t end = min(tiles, begin + per_thread);

  ScanSums own{0, 0, 0, 0};
  for (std::uint32_t tile = begin; tile < end; ++tile) {
    const std::uint32_t count = buffers.counts[tile];
    if (count == 0) continue;
    const std::uint32_t segments = (count + segment - 1) / segment;
    own.references += count;
    own.work += segments;
    if (segments > 1) {
      own.slots += segments;
      own.merges += 1;
    }
  }
  const ScanSums inclusive = block_inclusive_scan(own);
  if (threadIdx.x == kScanThreads - 1) {
    overflow = inclusive.references > buffers.reference_capacity ||
               inclusive.work > buffers.work_capacity || inclusive.slots > buffers.slot_capacity ||
               inclusive.merges > buffers.merge_capacity;
    TileTotals& totals = *buffers.totals;
    totals.references = inclusive.references;
    totals.work = overflow ? 0 : inclusive.work;
    totals.slots = inclusive.slots;
    totals.merges = overflow ? 0 : inclusive.merges;
    totals.next_work = 0;
    if (overflow) totals.overflow += 1;
  }
  __syncthreads();

  std::uint32_t reference = inclusive.references - own.references;
  std::uint32_t work = inclusive.work - own.work;
  std::uint32_t slot = inclusive.slots - own.slots;
  std::uint32_t merge = inclusive.merges - own.merges;
  for (std::uint32_t tile = begin; tile < end; ++tile) {
    const std::uint32_t count = buffers.counts[tile];
    if (count == 0) continue;
    buffers.counts[tile] = 0;
    if (overflow) continue;
    buffers.cursors[tile] = reference;
    const std::uint32_t segments = (count + segment - 1) / segment;
    for (std::uint32_t s = 0; s < segments; ++s)
      buffers.work[work + s] = {tile, reference + s * segment, min(segment, count - s * segment),
                                segments > 1 ? std::int32_t(slot + s) : -1};
    if (segments > 1) {
      buffers.merges[merge++] = {tile, slot, segments, 0};
      slot += segments;
    }
    reference += count;
    work += segments;
  }
}

__global__ void tile_fill_kernel(const PixelBox* cached_boxes, std::uint32_t count,
                                 TileBuffers buffers) {
  const std::uint32_t index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count || buffers.totals->work == 0) return;
  const PixelBox box = cached_boxes[index];
  if (!binned(box, buffers)) return;
  const std::uint32_t* ranks = buffers.ranks + std::size_t(index) * buffers.ranks_per_event;
  std::uint32_t k = 0;
  for_each_tile(box, buffers.grid, [&](std::uint32_t tile) {
    buffers.references[buffers.cursors[tile] + ranks[k++]] = index;
  });
}

// Threads own pixels: thread t holds column t % kTile of kPerThread consecutive rows, so a
// warp covers a band of kWarpRows rows and can skip events that miss it as a whole.
template <std::uint32_t kTile>
struct TilePixels {
  static constexpr std::uint32_t kPerThread = kTile * kTile / kBlock;
  static constexpr std::uint32_t kWarpRows = 32 / kTile * kPerThread;
  static_assert(kPerThread >= 1 && kTile * kTile % kBlock == 0 && 32 % kTile == 0);
  __device__ static std::uint32_t row(std::uint32_t k) {
    return threadIdx.x / kTile * kPerThread + k;
  }
  __device__ static std::uint32_t local(std::uint32_t k) {
    return row(k) * kTile + threadIdx.x % kTile;
  }
};

template <std::uint32_t kTile>
__global__ void __launch_bounds__(kBlock)
    tile_accumulate_kernel(const PreparedEvent* events, TileBuffers buffers,
                           SplatConstants constants, double* frame,
                           unsigned long long* contributions) {
  using Pixels = TilePixels<kTile>;
  __shared__ PreparedEvent batch[kBlock];
  const std::uint32_t work_count = buffers.totals->work;
  unsigned long long added = 0;
  for (std::uint32_t w = next_work_item(buffers.totals); w < work_count;
       w = next_work_item(buffers.totals)) {
    const TileWork item = buffers.work[w];
    const std::int32_t tile_i = std::int32_t(item.tile % buffers.grid.columns * kTile);
    const std::int32_t tile_j = std::int32_t(item.tile / buffers.grid.columns * kTile);
    const std::int32_t i = tile_i + std::int32_t(threadIdx.x % kTile);
    const std::int32_t j0 = tile_j + std::int32_t(Pixels::row(0));
    // The rows of this thread's warp: the same for all its lanes.
    const std::int32_t warp_j0 = tile_j + std::int32_t(threadIdx.x / 32 * Pixels::kWarpRows);
    const std::int32_t warp_j1 = warp_j0 + std::int32_t(Pixels::kWarpRows) - 1;
    double sum[Pixels::kPerThread][3];
#pragma unroll
    for (std::uint32_t k = 0; k < Pixels::kPerThread; ++k) sum[k][0] = sum[k][1] = sum[k][2] = 0;
    for (std::uint32_t first = 0; first < item.ref_count; first += kBlock) {
      const std::uint32_t batch_count = min(kBlock, item.ref_count - first);
      if (threadIdx.x < batch_count)
        batch[threadIdx.x] = events[buffers.references[item.ref_begin + first + threadIdx.x]];
      __syncthreads();
      for (std::uint32_t e = 0; e < batch_count; ++e) {
        const PreparedEvent& event = batch[e];
        if (event.box.j1 < warp_j0 || event.box.j0 > warp_j1) continue;  // warp-uniform
        if (i < event.box.i0 || i > event.box.i1) continue;
#pragma unroll
        for (std::uint32_t k = 0; k < Pixels::kPerThread; ++k) {
          const std::int32_t j = j0 + std::int32_t(k);
          double weight = 0;
          if (j < event.box.j0 || j > event.box.j1 ||
              !cached_pixel_weight(event, i, j, constants, weight))
            continue;
          sum[k][0] += event.flux_r * weight;
          sum[k][1] += event.flux_g * weight;
          sum[k][2] += event.flux_b * weight;
          ++added;
        }
      }
      __syncthreads();
    }
#pragma unroll
    for (std::uint32_t k = 0; k < Pixels::kPerThread; ++k) {
      store_tile_sum(item, buffers, kTile * kTile, Pixels::local(k), i, j0 + std::int32_t(k),
                     sum[k], constants, frame);
    }
  }
  add_block_count(added, contributions);
}

// Second pass for tiles with several segments: their partial sums, in segment order.
template <std::uint32_t kTile>
__global__ void __launch_bounds__(kBlock)
    tile_merge_kernel(TileBuffers buffers, SplatConstants constants, double* frame) {
  using Pixels = TilePixels<kTile>;
  const std::uint32_t merge_count = buffers.totals->merges;
  for (std::uint32_t m = blockIdx.x; m < merge_count; m += gridDim.x) {
    const TileMerge item = buffers.merges[m];
    const std::uint32_t tile_i = item.tile % buffers.grid.columns * kTile;
    const std::uint32_t tile_j = item.tile / buffers.grid.columns * kTile;
    for (std::uint32_t k = 0; k < Pixels::kPerThread; ++k) {
      const std::uint32_t local = Pixels::local(k);
      const std::uint32_t i = tile_i + local % kTile, j = tile_j + local / kTile;
      if (i >= constants.width || j >= constants.height) continue;
      double sum[3] = {0, 0, 0};
      for (std::uint32_t s = 0; s < item.slot_count; ++s) {
        const double* partial =
            buffers.partials + (std::size_t(item.first_slot + s) * kTile * kTile + local) * 3;
        sum[0] += partial[0];
        sum[1] += partial[1];
        sum[2] += partial[2];
      }
      double* pixel = frame + 3 * (std::size_t(j) * constants.width + i);
      pixel[0] += sum[0];
      pixel[1] += sum[1];
      pixel[2] += sum[2];
    }
  }
}

}  // namespace

void launch_tile_binning(const PixelBox* cached_boxes, std::uint32_t count,
                         const TileBuffers& buffers, hipStream_t stream) {
  if (count == 0) return;
  const std::uint32_t blocks = (count + kBlock - 1) / kBlock;
  tile_count_kernel<<<blocks, kBlock, 0, stream>>>(cached_boxes, count, buffers);
  check_launch("binning launch");
  tile_scan_kernel<<<1, kScanThreads, 0, stream>>>(buffers);
  check_launch("binning launch");
  tile_fill_kernel<<<blocks, kBlock, 0, stream>>>(cached_boxes, count, buffers);
  check_launch("binning launch");
}

void launch_tile_accumulate(const PreparedEvent* events, const TileBuffers& buffers,
                            const SplatConstants& constants, double* frame,
                            unsigned long long* contributions, std::uint32_t multiprocessors,
                            hipStream_t stream) {
  static const std::uint32_t blocks16 =
      resident_grid(tile_accumulate_kernel<16>, kBlock, multiprocessors);
  static const std::uint32_t blocks32 =
      resident_grid(tile_accumulate_kernel<32>, kBlock, multiprocessors);
  if (buffers.grid.tile == 16)
    tile_accumulate_kernel<16>
        <<<blocks16, kBlock, 0, stream>>>(events, buffers, constants, frame, contributions);
  else
    tile_accumulate_kernel<32>
        <<<blocks32, kBlock, 0, stream>>>(events, buffers, constants, frame, contributions);
  check_launch("accumulate launch");
}

void launch_tile_merge(const TileBuffers& buffers, const SplatConstants& constants, double* frame,
                       std::uint32_t multiprocessors, hipStream_t stream) {
  static const std::uint32_t blocks16 =
      resident_grid(tile_merge_kernel<16>, kBlock, multiprocessors);
  static const std::uint32_t blocks32 =
      resident_grid(tile_merge_kernel<32>, kBlock, multiprocessors);
  if (buffers.grid.tile == 16)
    tile_merge_kernel<16><<<blocks16, kBlock, 0, stream>>>(buffers, constants, frame);
  else
    tile_merge_kernel<32><<<blocks32, kBlock, 0, stream>>>(buffers, constants, frame);
  check_launch("merge launch");
}

}  // namespace starlens
