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
constexpr std::uint32_t kGroup = 4;  // references a warp stages at a time
constexpr std::uint32_t kChunksPerEvent = sizeof(CachedEvent) / sizeof(uint4);
static_assert(sizeof(CachedEvent) % sizeof(uint4) == 0 && kGroup * kChunksPerEvent == 32);
constexpr std::uint32_t kNoReference = ~0u;

// Where a tile pixel's sums sit in a warp's copy: row r's columns rotated by 11 r. A warp walks
// an event's box row by row, so a half-warp's 16 lanes span two or three rows of a few
// columns each; unrotated, rows share their banks (one 8-byte bank pair per column) and a
// half-warp's access takes several shared-memory passes. 11 spreads the rows of the
// benchmark's boxes best (a model of the walk over its events; docs/gpu.md, "Measured choices").
__device__ inline std::uint32_t copy_slot(std::uint32_t row, std::uint32_t column) {
  return row * kTile + ((column + 11 * row) & (kTile - 1));
}

// Lane k copies chunk k of a group's records, the 128-byte CachedEvent prefixes of its 4
// references (lane k % kGroup holds reference k % kGroup of the group), into `staged`.
__device__ inline void stage_group(const PreparedEvent* events, std::uint32_t references,
                                   CachedEvent* staged, std::uint32_t lane) {
  const std::uint32_t record = lane / kChunksPerEvent, chunk = lane % kChunksPerEvent;
  const std::uint32_t reference = lane_broadcast(references, int(record));
  if (reference != kNoReference)
    copy_to_shared_async(
        reinterpret_cast<uint4*>(staged + record) + chunk,
        reinterpret_cast<const uint4*>(static_cast<const CachedEvent*>(events + reference)) +
            chunk);
  commit_copies();
}

// One event's pixels inside the tile, added into the warp's copy ([channel][slot]): the warp
// walks the event's box inside the tile 32 pixels a step.
__device__ inline std::uint32_t scatter_event(const CachedEvent e, std::int32_t tile_i,
                                              std::int32_t tile_j, std::uint32_t lane,
                                              const SplatConstants& constants,
                                              double (&copy)[3][kTilePixels]) {
  // The event's box inside the tile (never empty: binning put the event here).
  constexpr std::int32_t kLast = kTile - 1;  // the tile's last column and row, from its first
  const std::int32_t i0 = greater(e.box.i0, tile_i), i1 = lesser(e.box.i1, tile_i + kLast);
  const std::int32_t j0 = greater(e.box.j0, tile_j), j1 = lesser(e.box.j1, tile_j + kLast);
  if (i1 < i0 || j1 < j0) return 0;
  std::uint32_t added = 0;
  for (BoxWalk walk(i0, i1, j0, lane); walk.j <= j1; walk.advance()) {
    double weight = 0;
    if (!cached_pixel_weight(e, walk.i, walk.j, constants, weight)) continue;
    const std::uint32_t slot =
        copy_slot(std::uint32_t(walk.j - tile_j), std::uint32_t(walk.i - tile_i));
    copy[0][slot] += e.flux_r * weight;
    copy[1][slot] += e.flux_g * weight;
    copy[2][slot] += e.flux_b * weight;
    ++added;
  }
  return added;
}

__global__ void __launch_bounds__(kScatterBlock)
    scatter_accumulate_kernel(const PreparedEvent* events, TileBuffers buffers,
                              SplatConstants constants, double* frame,
                              unsigned long long* contributions) {
  // [warp][channel][slot]: consecutive lanes touch consecutive doubles of one channel.
  __shared__ double copies[kWarps][3][kTilePixels];
  // Each warp's records, in two buffers: one summed while the other is filled.
  __shared__ CachedEvent staged[kWarps][2][kGroup];
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

    // Warp w takes the groups w, w + kWarps, ... of kGroup consecutive references. The
    // records of the next group are copied into shared memory while this one is summed, and
    // the indices are read a group further ahead: no reference waits for memory (records
    // only prefetched into L1 left the kernel waiting for them; docs/gpu.md, "Measured
    // choices").
    auto group_references = [&](std::uint32_t group) {
      const std::uint32_t r = group * kGroup + lane % kGroup;
      return r < item.ref_count ? buffers.references[item.ref_begin + r] : kNoReference;
    };
    std::uint32_t group = warp, buffer = 0;
    stage_group(events, group_references(group), staged[warp][buffer], lane);
    std::uint32_t ahead = group_references(group + kWarps);
    while (group * kGroup < item.ref_count) {
      // The other buffer was last read by the previous group's events (each followed by a
      // sync_lane_group), so it can be filled.
      stage_group(events, ahead, staged[warp][buffer ^ 1], lane);
      ahead = group_references(group + 2 * kWarps);
      wait_copies_but_last();
      sync_lane_group();  // every lane's copies of this group have landed
      const std::uint32_t count = lesser(kGroup, item.ref_count - group * kGroup);
      for (std::uint32_t k = 0; k < count; ++k) {
        added +=
            scatter_event(staged[warp][buffer][k], tile_i, tile_j, lane, constants, copies[warp]);
        sync_lane_group();  // the next event's lanes may touch the pixels this one's lanes did
      }
      group += kWarps;
      buffer ^= 1;
    }
    __syncthreads();

    for (std::uint32_t k = 0; k < kPixelsPerThread; ++k) {
      const std::uint32_t local = threadIdx.x + k * kScatterBlock;
      const std::uint32_t row = local / kTile, column = local % kTile;
      const std::uint32_t slot = copy_slot(row, column);
      double sum[3] = {0, 0, 0};
#pragma unroll
      for (std::uint32_t c = 0; c < 3; ++c)
#pragma unroll
        for (std::uint32_t copy = 0; copy < kWarps; ++copy) sum[c] += copies[copy][c][slot];
      store_tile_sum(item, buffers, kTilePixels, local, tile_i + std::int32_t(column),
                     tile_j + std::int32_t(row), sum, constants, frame);
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
