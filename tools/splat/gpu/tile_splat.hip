// The tile strategies (tile16, tile32): binning (tile_binning.hip) builds per-tile lists of the
// events whose pixel box (their full support, as the CPU bounds it) touches the tile; then a
// block per list segment owns the tile's pixels, one (tile16) or four (tile32) a thread, and
// sums the segment's events in registers. Each warp owns a block of the tile and walks only
// the events whose box meets it. A tile's only segment adds its sums to the frame; a long
// list's segments write partial sums to scratch slots, which a second pass adds to the frame
// in order.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;  // threads per block of the tile kernels

// The pixels a thread owns: warp w owns the kWidth x kHeight block (w % across, w / across) of
// the tile, lane l column l % kWidth of it and kRows consecutive rows from row
// l / kWidth * kRows.
template <std::int32_t kTile, std::int32_t kWidth, std::int32_t kHeight>
struct WarpBlock {
  static constexpr std::int32_t kRows = kWidth * kHeight / 32;  // pixels a lane
  static constexpr std::int32_t kAcross = kTile / kWidth;
  static_assert(kRows >= 1 && kWidth * kHeight % 32 == 0 && kTile % kWidth == 0 &&
                kTile % kHeight == 0 && kAcross * (kTile / kHeight) * 32 == kBlock);
  std::int32_t column, first_column, row, first_row;  // the lane's and the block's, in the tile
  __device__ WarpBlock() {
    const std::int32_t warp = std::int32_t(threadIdx.x / 32), lane = std::int32_t(threadIdx.x % 32);
    first_column = warp % kAcross * kWidth;
    first_row = warp / kAcross * kHeight;
    column = first_column + lane % kWidth;
    row = first_row + lane / kWidth * kRows;
  }
};

// Each lane tests one of 32 staged events' boxes against its warp's block, and the warp walks
// only the events a ballot found, each lane adding its own pixels' weights in registers. (Row
// bands, where every lane tested every event of its band, were slower: with the default PSF
// about 20 of a tile16's 256 pixels are an event's. docs/gpu.md, "Measured choices".)
template <std::int32_t kTile, std::int32_t kWidth, std::int32_t kHeight>
__global__ void __launch_bounds__(kBlock)
    tile_accumulate_kernel(const PreparedEvent* events, TileBuffers buffers,
                           SplatConstants constants, double* frame,
                           unsigned long long* contributions) {
  using Block = WarpBlock<kTile, kWidth, kHeight>;
  constexpr std::int32_t kRows = Block::kRows;
  __shared__ CachedEvent staged[kBlock];
  // The staged boxes once more, side by side: the ballot's 32 lanes read 32 of them at once,
  // which at the records' 128-byte stride would all fall on the same banks.
  __shared__ PixelBox boxes[kBlock];
  const Block block;
  const std::uint32_t lane = threadIdx.x % 32;
  const std::uint32_t work_count = buffers.totals->work;
  unsigned long long added = 0;
  for (std::uint32_t w = next_work_item(buffers.totals); w < work_count;
       w = next_work_item(buffers.totals)) {
    const TileWork item = buffers.work[w];
    const std::int32_t tile_i = std::int32_t(item.tile % buffers.grid.columns) * kTile;
    const std::int32_t tile_j = std::int32_t(item.tile / buffers.grid.columns) * kTile;
    const std::int32_t i = tile_i + block.column, j0 = tile_j + block.row;
    const std::int32_t x0 = tile_i + block.first_column, y0 = tile_j + block.first_row;
    double sum[kRows][3];
#pragma unroll
    for (std::int32_t k = 0; k < kRows; ++k) sum[k][0] = sum[k][1] = sum[k][2] = 0;
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
          meets = b.i1 >= x0 && b.i0 <= x0 + kWidth - 1 && b.j1 >= y0 && b.j0 <= y0 + kHeight - 1;
        }
        for (unsigned found = lane_ballot(meets); found != 0; found &= found - 1) {
          const CachedEvent& e = staged[base + unsigned(__ffs(int(found))) - 1];
          if (i < e.box.i0 || i > e.box.i1) continue;
#pragma unroll
          for (std::int32_t k = 0; k < kRows; ++k) {
            const std::int32_t j = j0 + k;
            double weight = 0;
            if (j < e.box.j0 || j > e.box.j1 || !cached_pixel_weight(e, i, j, constants, weight))
              continue;
            sum[k][0] += e.flux_r * weight;
            sum[k][1] += e.flux_g * weight;
            sum[k][2] += e.flux_b * weight;
            ++added;
          }
        }
      }
      __syncthreads();
    }
#pragma unroll
    for (std::int32_t k = 0; k < kRows; ++k) {
      const std::int32_t row = block.row + k;
      store_tile_sum(item, buffers, kTile * kTile, std::uint32_t(row * kTile + block.column), i,
                     j0 + k, sum[k], constants, frame);
    }
  }
  add_block_count(added, contributions);
}

// tile16: 8 x 4 blocks, a pixel a lane; tile32: 16 x 8 blocks, four rows a lane.
constexpr auto tile16_accumulate_kernel = tile_accumulate_kernel<16, 8, 4>;
constexpr auto tile32_accumulate_kernel = tile_accumulate_kernel<32, 16, 8>;

// Second pass for tiles with several segments: their partial sums, in segment order.
template <std::uint32_t kTile>
__global__ void __launch_bounds__(kBlock)
    tile_merge_kernel(TileBuffers buffers, SplatConstants constants, double* frame) {
  const std::uint32_t merge_count = buffers.totals->merges;
  for (std::uint32_t m = blockIdx.x; m < merge_count; m += gridDim.x) {
    const TileMerge item = buffers.merges[m];
    const std::uint32_t tile_i = item.tile % buffers.grid.columns * kTile;
    const std::uint32_t tile_j = item.tile / buffers.grid.columns * kTile;
    for (std::uint32_t local = threadIdx.x; local < kTile * kTile; local += kBlock) {
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
      resident_grid(tile16_accumulate_kernel, kBlock, multiprocessors);
  static const std::uint32_t blocks32 =
      resident_grid(tile32_accumulate_kernel, kBlock, multiprocessors);
  if (buffers.grid.tile == 16)
    tile16_accumulate_kernel<<<blocks16, kBlock, 0, stream>>>(events, buffers, constants, frame,
                                                              contributions);
  else
    tile32_accumulate_kernel<<<blocks32, kBlock, 0, stream>>>(events, buffers, constants, frame,
                                                              contributions);
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
