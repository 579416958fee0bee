// The tile strategies (tile16, tile32): binning (tile_binning.hip) builds per-tile lists of the
// events whose pixel box (their full support, as the CPU bounds it) touches the tile; then a
// block per list segment owns the tile's pixels, one thread per pixel (tile16) or four (tile32),
// and sums the segment's events in registers. A tile's only segment adds its sums to the frame; a
// long list's segments write partial sums to scratch slots, which a second pass adds to the frame
// in order.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;  // threads per block of the tile kernels

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
