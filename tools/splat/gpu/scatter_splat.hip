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
constexpr std::uint32_t kGroup = 8;  // references a warp takes at a time
constexpr std::uint32_t kNoReference = ~0u;

__global__ void __launch_bounds__(kScatterBlock)
    scatter_accumulate_kernel(const PreparedEvent* events, TileBuffers buffers,
                              SplatConstants constants, double* frame,
                              unsigned long long* contributions) {
  // [warp][channel][pixel]: consecutive lanes touch consecutive doubles of one channel.
  __shared__ double copies[kWarps][3][kTilePixels];
  const std::uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::uint32_t work_count = buffers.totals->work;
  unsigned long long added = 0;
  for (std::uint32_t w = next_work_item(buffers.totals); w < work_count;
       w = next_work_item(buffers.totals)) {
    const TileWork item = buffers.work[w];
    const std::int32_t tile_i = std::int32_t(item.tile % buffers.grid.columns * kTile);
    const std::int32_t tile_j = std::int32_t(item.tile / buffers.grid.columns * kTile);
    for (std::uint32_t p = threadIdx.x; p < kWarps * 3 * kTilePixels; p += kScatterBlock)
      (&copies[0][0][0])[p] = 0;
    __syncthreads();

    double* red = copies[warp][0];
    double* green = copies[warp][1];
    double* blue = copies[warp][2];
    // Warp w takes the groups w, w + kWarps, ... of kGroup consecutive references. Each lane
    // holds reference lane % kGroup of its group, and the next group's records are prefetched
    // while this group is summed: a record (176 bytes, in HBM: a batch's records do not fit
    // in L2) is otherwise a full memory latency that every reference waited for.
    auto group_reference = [&](std::uint32_t group) {
      const std::uint32_t r = group * kGroup + lane % kGroup;
      return r < item.ref_count ? buffers.references[item.ref_begin + r] : kNoReference;
    };
    auto prefetch_group = [&](std::uint32_t reference) {
      if (reference == kNoReference) return;
      const char* record = reinterpret_cast<const char*>(events + reference);
      for (std::uint32_t sector = lane / kGroup; sector * 32 < sizeof(PreparedEvent);
           sector += 32 / kGroup)
        prefetch_to_l1(record + sector * 32);
    };
    std::uint32_t group = warp;
    std::uint32_t current = group_reference(group);
    prefetch_group(current);
    while (group * kGroup < item.ref_count) {
      const std::uint32_t next_group = group + kWarps;
      const std::uint32_t next = group_reference(next_group);
      prefetch_group(next);
      const std::uint32_t count = lesser(kGroup, item.ref_count - group * kGroup);
      for (std::uint32_t k = 0; k < count; ++k) {
        const PreparedEvent& record = events[lane_broadcast(current, int(k))];
        const PixelBox box = record.box;
        // The event's box inside the tile (never empty: binning put the event here).
        const std::int32_t i0 = greater(box.i0, tile_i), i1 = lesser(box.i1, tile_i + 15);
        const std::int32_t j0 = greater(box.j0, tile_j), j1 = lesser(box.j1, tile_j + 15);
        if (i1 < i0 || j1 < j0) continue;
        const CachedEventFields e = cached_fields(record);
        for (BoxWalk walk(i0, i1, j0, lane); walk.j <= j1; walk.advance()) {
          double weight = 0;
          if (!cached_pixel_weight(e, walk.i, walk.j, constants, weight)) continue;
          const std::uint32_t local =
              std::uint32_t((walk.j - tile_j) * std::int32_t(kTile) + (walk.i - tile_i));
          red[local] += e.flux_r * weight;
          green[local] += e.flux_g * weight;
          blue[local] += e.flux_b * weight;
          ++added;
        }
        sync_lane_group();  // the next event's lanes may touch the pixels this one's lanes did
      }
      current = next;
      group = next_group;
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
                               unsigned long long* contributions, std::uint32_t multiprocessors,
                               hipStream_t stream) {
  static const std::uint32_t blocks =
      resident_grid(scatter_accumulate_kernel, kScatterBlock, multiprocessors);
  scatter_accumulate_kernel<<<blocks, kScatterBlock, 0, stream>>>(events, buffers, constants, frame,
                                                                  contributions);
  check_launch("accumulate launch");
}

}  // namespace starlens
