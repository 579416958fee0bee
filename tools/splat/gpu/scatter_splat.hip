// The scatter16 strategy: tile16's binning, work items, partial slots and merge, with a
// different accumulation. In tile16 every thread of a block tests every event of the tile's
// list against its own pixel, so with the default PSF (about 20 of a tile's 256 pixels per
// event) most of the work is on pixels the event misses. Here each warp takes whole events
// and its lanes walk only the event's pixel box inside the tile, adding into the warp's own
// copy of the tile in shared memory: one warp works on one event at a time and an event's
// pixels are distinct, so no atomics are needed. The block then sums its warps' copies pixel
// by pixel (in warp order) and writes the tile once, as tile16 does.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kTile = 16;
constexpr std::uint32_t kTilePixels = kTile * kTile;
constexpr std::uint32_t kWarps = 4;  // 4 warp copies of a 16 x 16 RGB tile: 24 KiB shared
constexpr std::uint32_t kScatterBlock = kWarps * 32;
constexpr std::uint32_t kPixelsPerThread = kTilePixels / kScatterBlock;

__global__ void __launch_bounds__(kScatterBlock)
    scatter_accumulate_kernel(const PreparedEvent* events, TileBuffers buffers,
                              SplatConstants constants, double* frame,
                              unsigned long long* contributions) {
  // [warp][channel][pixel]: consecutive lanes touch consecutive doubles of one channel.
  __shared__ double copies[kWarps][3][kTilePixels];
  const std::uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::uint32_t work_count = buffers.totals->work;
  unsigned long long added = 0;
  for (std::uint32_t w = blockIdx.x; w < work_count; w += gridDim.x) {
    const TileWork item = buffers.work[w];
    const std::int32_t tile_i = std::int32_t(item.tile % buffers.grid.columns * kTile);
    const std::int32_t tile_j = std::int32_t(item.tile / buffers.grid.columns * kTile);
    for (std::uint32_t p = threadIdx.x; p < kWarps * 3 * kTilePixels; p += kScatterBlock)
      (&copies[0][0][0])[p] = 0;
    __syncthreads();

    double* red = copies[warp][0];
    double* green = copies[warp][1];
    double* blue = copies[warp][2];
    for (std::uint32_t r = warp; r < item.ref_count; r += kWarps) {
      const PreparedEvent& e = events[buffers.references[item.ref_begin + r]];
      // The event's box inside the tile (never empty: binning put the event here).
      const std::int32_t i0 = greater(e.box.i0, tile_i), i1 = lesser(e.box.i1, tile_i + 15);
      const std::int32_t j0 = greater(e.box.j0, tile_j), j1 = lesser(e.box.j1, tile_j + 15);
      const std::int32_t box_width = i1 - i0 + 1;
      if (box_width <= 0 || j1 < j0) continue;
      // Row-major walk, 32 pixels a step, without a division per pixel (as the atomic kernel).
      std::int32_t i = i0 + std::int32_t(lane) % box_width;
      std::int32_t j = j0 + std::int32_t(lane) / box_width;
      while (j <= j1) {
        double weight = 0;
        if (cached_pixel_weight(e, i, j, constants, weight)) {
          const std::uint32_t local =
              std::uint32_t((j - tile_j) * std::int32_t(kTile) + (i - tile_i));
          red[local] += e.flux_r * weight;
          green[local] += e.flux_g * weight;
          blue[local] += e.flux_b * weight;
          ++added;
        }
        for (i += 32; i > i1; i -= box_width) ++j;
      }
      sync_lane_group();  // the next event's lanes may touch the pixels this one's lanes did
    }
    __syncthreads();

    for (std::uint32_t k = 0; k < kPixelsPerThread; ++k) {
      const std::uint32_t local = threadIdx.x + k * kScatterBlock;
      double sum[3] = {0, 0, 0};
#pragma unroll
      for (std::uint32_t c = 0; c < 3; ++c)
#pragma unroll
        for (std::uint32_t copy = 0; copy < kWarps; ++copy) sum[c] += copies[copy][c][local];
      store_tile_sum(item, buffers, kTilePixels, local, tile_i + std::int32_t(local % kTile),
                     tile_j + std::int32_t(local / kTile), sum, constants, frame);
    }
    __syncthreads();  // the copies are cleared for the next work item
  }
  add_block_count(added, contributions);
}

}  // namespace

void launch_scatter_accumulate(const PreparedEvent* events, const TileBuffers& buffers,
                               const SplatConstants& constants, double* frame,
                               unsigned long long* contributions, std::uint32_t blocks,
                               hipStream_t stream) {
  scatter_accumulate_kernel<<<blocks, kScatterBlock, 0, stream>>>(events, buffers, constants, frame,
                                                                  contributions);
  check_launch("accumulate launch");
}

}  // namespace starlens
