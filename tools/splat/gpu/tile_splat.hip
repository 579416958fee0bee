// The tile strategies (tile16, tile32): binning (tile_binning.hip) builds per-tile lists of the
// events whose pixel box (their full support, as the CPU bounds it) touches the tile; then a
// block per list segment owns the tile's pixels, one thread per pixel (tile16) or four (tile32),
// and sums the segment's events in registers. In tile16 each warp owns an 8 x 4 block of the
// tile and walks only the events whose box meets it. A tile's only segment adds its sums to the
// frame; a long list's segments write partial sums to scratch slots, which a second pass adds to
// the frame in order.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;  // threads per block of the tile kernels

// Threads own pixels: thread t holds column t % kTile of kPerThread consecutive rows (so in
// tile_accumulate_kernel a warp covers a band of rows and can skip events that miss it).
template <std::uint32_t kTile>
struct TilePixels {
  static constexpr std::uint32_t kPerThread = kTile * kTile / kBlock;
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
    constexpr std::uint32_t kWarpRows = 32 / kTile * Pixels::kPerThread;
    const std::int32_t warp_j0 = tile_j + std::int32_t(threadIdx.x / 32 * kWarpRows);
    const std::int32_t warp_j1 = warp_j0 + std::int32_t(kWarpRows) - 1;
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

// tile16: warp w owns the 8 x 4 block (w % 2, w / 2) of the tile, a pixel a lane. Its lanes
// test 32 staged events' boxes against the block at once, and the warp walks only the events
// a ballot found, each lane adding its own pixel's weight in registers. (The row bands of
// tile_accumulate_kernel made every lane test every event of a band: with the default PSF
// about 20 of a tile's 256 pixels are an event's; 2 x 10^7 events on the H200, uniform /
// hot spot: 36.7 -> 49.3 / 32.9 -> 43.1 G contributions/s with segments of 1,024 references,
// bench/gpu_splat/results/h200-2026-11-30-session11/dev/5-tile16-ballot.)
__global__ void __launch_bounds__(kBlock)
    tile16_block_kernel(const PreparedEvent* events, TileBuffers buffers, SplatConstants constants,
                        double* frame, unsigned long long* contributions) {
  constexpr std::int32_t kTile = 16, kBlockWidth = 8, kBlockHeight = 4;
  static_assert(kBlockWidth * kBlockHeight == 32 && kTile * kTile == kBlock);
  __shared__ CachedEvent staged[kBlock];
  __shared__ PixelBox boxes[kBlock];
  const std::uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int32_t block_column = std::int32_t(warp) % (kTile / kBlockWidth) * kBlockWidth;
  const std::int32_t block_row = std::int32_t(warp) / (kTile / kBlockWidth) * kBlockHeight;
  const std::int32_t column = block_column + std::int32_t(lane) % kBlockWidth;
  const std::int32_t row = block_row + std::int32_t(lane) / kBlockWidth;
  const std::uint32_t work_count = buffers.totals->work;
  unsigned long long added = 0;
  for (std::uint32_t w = next_work_item(buffers.totals); w < work_count;
       w = next_work_item(buffers.totals)) {
    const TileWork item = buffers.work[w];
    const std::int32_t tile_i = std::int32_t(item.tile % buffers.grid.columns) * kTile;
    const std::int32_t tile_j = std::int32_t(item.tile / buffers.grid.columns) * kTile;
    const std::int32_t i = tile_i + column, j = tile_j + row;
    const std::int32_t x0 = tile_i + block_column, y0 = tile_j + block_row;
    double sum[3] = {0, 0, 0};
    for (std::uint32_t first = 0; first < item.ref_count; first += kBlock) {
      const std::uint32_t batch_count = min(kBlock, item.ref_count - first);
      if (threadIdx.x < batch_count) {
        const PreparedEvent& source =
            events[buffers.references[item.ref_begin + first + threadIdx.x]];
        staged[threadIdx.x] = static_cast<const CachedEvent&>(source);
        boxes[threadIdx.x] = source.box;
      }
      __syncthreads();
      for (std::uint32_t base = 0; base < batch_count; base += 32) {
        bool meets = false;
        if (base + lane < batch_count) {
          const PixelBox b = boxes[base + lane];
          meets = b.i1 >= x0 && b.i0 <= x0 + kBlockWidth - 1 && b.j1 >= y0 &&
                  b.j0 <= y0 + kBlockHeight - 1;
        }
        for (unsigned found = lane_ballot(meets); found != 0; found &= found - 1) {
          const CachedEvent& e = staged[base + unsigned(__ffs(int(found))) - 1];
          double weight = 0;
          if (i < e.box.i0 || i > e.box.i1 || j < e.box.j0 || j > e.box.j1 ||
              !cached_pixel_weight(e, i, j, constants, weight))
            continue;
          sum[0] += e.flux_r * weight;
          sum[1] += e.flux_g * weight;
          sum[2] += e.flux_b * weight;
          ++added;
        }
      }
      __syncthreads();
    }
    store_tile_sum(item, buffers, kBlock, std::uint32_t(row * kTile + column), i, j, sum, constants,
                   frame);
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

void launch_tile_accumulate(const PreparedEvent* events, const TileBuffers& buffers,
                            const SplatConstants& constants, double* frame,
                            unsigned long long* contributions, std::uint32_t multiprocessors,
                            hipStream_t stream) {
  static const std::uint32_t blocks16 = resident_grid(tile16_block_kernel, kBlock, multiprocessors);
  static const std::uint32_t blocks32 =
      resident_grid(tile_accumulate_kernel<32>, kBlock, multiprocessors);
  if (buffers.grid.tile == 16)
    tile16_block_kernel<<<blocks16, kBlock, 0, stream>>>(events, buffers, constants, frame,
                                                         contributions);
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
