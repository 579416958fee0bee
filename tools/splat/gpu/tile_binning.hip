// Binning for the tile strategies (tile16, tile32, scatter16): per-tile lists of the cached
// events whose pixel box touches the tile. A counting pass (tile_lists.h; done by the prepare
// kernel when the batch is one round) counts each event in every tile its box touches and
// keeps the count's old value as the event's rank in that tile's list; a
// single-block scan turns the counts into list offsets, work items (segments of the list) and
// partial-sum slots; a fill pass writes each reference at its tile's offset plus its rank,
// without atomics.
#include "gpu/gpu_check.h"
#include "tile_lists.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;         // threads per block of the counting and fill passes
constexpr std::uint32_t kScanThreads = 1024;  // the single block that scans the tile counts
constexpr std::uint32_t kScanWarps = kScanThreads / 32;

__global__ void tile_count_kernel(const PixelBox* cached_boxes, std::uint32_t count,
                                  TileBuffers buffers) {
  const std::uint32_t index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) count_in_tiles(cached_boxes[index], index, buffers);
}

// What one tile adds to the scan: its references, work items (segments), and, for a list of
// several segments, a partial-sum slot per segment and a merge.
struct ScanSums {
  std::uint32_t references, work, slots, merges;

  __device__ ScanSums& operator+=(const ScanSums& other) {
    references += other.references;
    work += other.work;
    slots += other.slots;
    merges += other.merges;
    return *this;
  }
};

__device__ inline ScanSums tile_sums(std::uint32_t count, std::uint32_t segment) {
  const std::uint32_t segments = (count + segment - 1) / segment;
  return {count, segments, segments > 1 ? segments : 0u, segments > 1 ? 1u : 0u};
}

__device__ inline ScanSums shifted_up(const ScanSums& value, std::uint32_t lanes) {
  return {lane_shift_up(value.references, lanes), lane_shift_up(value.work, lanes),
          lane_shift_up(value.slots, lanes), lane_shift_up(value.merges, lanes)};
}

// Inclusive scan of the block's values (each warp by shuffles, then the warps' totals);
// `total` receives the sum over the block. Every thread of the block must call it.
__device__ ScanSums block_inclusive_scan(ScanSums value, ScanSums& total) {
  __shared__ ScanSums warp_totals[kScanWarps];
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::uint32_t lanes = 1; lanes < 32; lanes *= 2) {
    const ScanSums before = shifted_up(value, lanes);
    if (lane >= lanes) value += before;
  }
  if (lane == 31) warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0) {
    ScanSums warp_total = warp_totals[lane];
    for (std::uint32_t lanes = 1; lanes < kScanWarps; lanes *= 2) {
      const ScanSums before = shifted_up(warp_total, lanes);
      if (lane >= lanes) warp_total += before;
    }
    warp_totals[lane] = warp_total;
  }
  __syncthreads();
  if (warp > 0) value += warp_totals[warp - 1];
  total = warp_totals[kScanWarps - 1];
  __syncthreads();  // the next call reuses warp_totals
  return value;
}

// One block: the batch's totals first, so that a batch that would exceed any capacity writes
// nothing (the overflow is recorded); then exclusive scans of the per-tile sums, 1,024 tiles
// at a time, give each tile its reference range, work items and partial-sum slots. The counts
// are reset for the next batch. Every read of the counts is coalesced (a thread scanning its
// own run of tiles was slower; docs/gpu.md, "Measured choices").
__global__ void __launch_bounds__(kScanThreads) tile_scan_kernel(TileBuffers buffers) {
  __shared__ bool overflow;
  const std::uint32_t tiles = buffers.grid.count();
  const std::uint32_t segment = buffers.segment;

  ScanSums own{0, 0, 0, 0};
  for (std::uint32_t tile = threadIdx.x; tile < tiles; tile += kScanThreads)
    own += tile_sums(buffers.counts[tile], segment);
  ScanSums batch;
  block_inclusive_scan(own, batch);
  if (threadIdx.x == 0) {
    overflow = batch.references > buffers.reference_capacity ||
               batch.work > buffers.work_capacity || batch.slots > buffers.slot_capacity ||
               batch.merges > buffers.merge_capacity;
    TileTotals& totals = *buffers.totals;
    totals.references = batch.references;
    totals.work = overflow ? 0 : batch.work;
    totals.slots = batch.slots;
    totals.merges = overflow ? 0 : batch.merges;
    totals.next_work = 0;
    if (overflow) totals.overflow += 1;
  }
  __syncthreads();

  ScanSums before{0, 0, 0, 0};  // the sums of the tiles before this round's
  for (std::uint32_t first = 0; first < tiles; first += kScanThreads) {
    const std::uint32_t tile = first + threadIdx.x;
    const std::uint32_t count = tile < tiles ? buffers.counts[tile] : 0;
    const ScanSums sums = tile_sums(count, segment);
    ScanSums round;
    const ScanSums inclusive = block_inclusive_scan(sums, round);
    if (count != 0) {
      buffers.counts[tile] = 0;
      if (!overflow) {
        const std::uint32_t reference = before.references + inclusive.references - count;
        const std::uint32_t work = before.work + inclusive.work - sums.work;
        const std::uint32_t slot = before.slots + inclusive.slots - sums.slots;
        buffers.cursors[tile] = reference;
        const std::uint32_t segments = sums.work;
        for (std::uint32_t s = 0; s < segments; ++s)
          buffers.work[work + s] = {tile, reference + s * segment,
                                    min(segment, count - s * segment),
                                    segments > 1 ? std::int32_t(slot + s) : -1};
        if (segments > 1)
          buffers.merges[before.merges + inclusive.merges - 1] = {tile, slot, segments, 0};
      }
    }
    before += round;
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

}  // namespace

void launch_tile_binning(const PixelBox* cached_boxes, std::uint32_t count, bool counted,
                         const TileBuffers& buffers, hipStream_t stream) {
  if (count == 0) return;
  const std::uint32_t blocks = (count + kBlock - 1) / kBlock;
  if (!counted) {
    tile_count_kernel<<<blocks, kBlock, 0, stream>>>(cached_boxes, count, buffers);
    check_launch("binning launch");
  }
  tile_scan_kernel<<<1, kScanThreads, 0, stream>>>(buffers);
  check_launch("binning launch");
  tile_fill_kernel<<<blocks, kBlock, 0, stream>>>(cached_boxes, count, buffers);
  check_launch("binning launch");
}

}  // namespace starlens
