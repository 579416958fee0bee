// Event preparation; the atomic strategy (a group of 32 threads per cached event walks the
// event's pixel box); and direct events for every strategy (blocks of pixels of each box).
// Both add each contribution to the frame with double atomics.
#include <algorithm>

#include "gpu/gpu_check.h"
#include "tile_lists.h"

namespace starlens {
namespace {

constexpr std::uint32_t kGroup = 32;   // threads per event
constexpr std::uint32_t kBlock = 256;  // threads per block

constexpr std::uint32_t kPrepareBlock = 128;

// Events in and prepared events out through shared memory, so that global memory is read and
// written by consecutive threads at consecutive addresses: one thread per 56- or 160-byte
// record made every access a scattered one (the profiler showed this kernel bound by L1
// request queues, at a third of the batch's binning time).
__global__ void __launch_bounds__(kPrepareBlock)
    prepare_events_kernel(const StarEvent* events, std::uint32_t count, SplatConstants constants,
                          PreparedEvent* prepared, PixelBox* cached_boxes, TileBuffers binning,
                          bool count_into_tiles) {
  static_assert(sizeof(StarEvent) % sizeof(double) == 0 &&
                sizeof(PreparedEvent) % sizeof(double) == 0);
  constexpr std::uint32_t kEventWords = sizeof(StarEvent) / sizeof(double);
  constexpr std::uint32_t kPreparedWords = sizeof(PreparedEvent) / sizeof(double);
  __shared__ double staged_in[kPrepareBlock * kEventWords];
  __shared__ PreparedEvent staged_out[kPrepareBlock];
  const std::uint32_t first = blockIdx.x * kPrepareBlock;
  const std::uint32_t here = min(kPrepareBlock, count - first);
  const double* source = reinterpret_cast<const double*>(events + first);
  for (std::uint32_t w = threadIdx.x; w < here * kEventWords; w += kPrepareBlock)
    staged_in[w] = source[w];
  __syncthreads();
  if (threadIdx.x < here) {
    const StarEvent& event = reinterpret_cast<const StarEvent*>(staged_in)[threadIdx.x];
    const PreparedEvent& e = staged_out[threadIdx.x] = prepare_event(event, constants);
    const PixelBox box = e.direct ? PixelBox{0, -1, 0, -1} : e.box;
    cached_boxes[first + threadIdx.x] = box;
    if (count_into_tiles) count_in_tiles(box, first + threadIdx.x, binning);
  }
  __syncthreads();
  const double* staged = reinterpret_cast<const double*>(staged_out);
  double* destination = reinterpret_cast<double*>(prepared + first);
  for (std::uint32_t w = threadIdx.x; w < here * kPreparedWords; w += kPrepareBlock)
    destination[w] = staged[w];
}

__global__ void __launch_bounds__(kBlock)
    atomic_splat_kernel(const PreparedEvent* events, std::uint32_t count, SplatConstants constants,
                        double* frame, unsigned long long* contributions) {
  const std::uint32_t event_index = (blockIdx.x * blockDim.x + threadIdx.x) / kGroup;
  const std::uint32_t lane = threadIdx.x % kGroup;
  unsigned long long added = 0;
  if (event_index < count) {
    // The record's fields are read where used, not copied into registers first as the
    // scatter kernel does: a group walks only one or two steps of an event (2 x 10^7 uniform
    // events on the H200: 0.053 s with the copy, 0.043 s without).
    const PreparedEvent& e = events[event_index];
    if (!e.direct && !e.box.empty()) {
      for (BoxWalk walk(e.box.i0, e.box.i1, e.box.j0, lane); walk.j <= e.box.j1; walk.advance()) {
        double weight = 0;
        if (!cached_pixel_weight(e, walk.i, walk.j, constants, weight)) continue;
        double* pixel = frame + 3 * (std::size_t(walk.j) * constants.width + walk.i);
        atomicAdd(pixel + 0, e.flux_r * weight);
        atomicAdd(pixel + 1, e.flux_g * weight);
        atomicAdd(pixel + 2, e.flux_b * weight);
        ++added;
      }
    }
  }
  add_block_count(added, contributions);
}

// Blocks (x: kBlock pixels of the box, y: the event) for the direct events. A warp takes a
// patch of 8 x 4 pixels rather than 32 of a row: the quadrature's breakpoints, intervals and
// orders depend on where a pixel lies around the event, so nearer pixels make a warp diverge
// less. Registers are capped for 6 blocks a multiprocessor (40; the spills stay in L1, which
// this kernel leaves whole): the transcendental functions' latency and the warps' divergence
// (17 of 32 lanes active, ncu) need many warps. 2 x 10^7 events on the H200: 2 blocks (128
// registers) 0.044 s, 3 blocks 0.035 s (bench/gpu_splat/results/h200-2026-11-30-session4/dev3);
// 3 blocks 0.0279 s, 4 0.0254 s (session8/dev/5), 6 with batches of 2^22 0.0208 s (dev/6).
constexpr std::uint32_t kDirectBlocksPerMultiprocessor = 6;
constexpr std::int32_t kPatchWidth = 8, kPatchHeight = 4;
static_assert(kPatchWidth * kPatchHeight == 32);

__global__ void __launch_bounds__(kBlock, kDirectBlocksPerMultiprocessor)
    direct_splat_kernel(const PreparedEvent* events, const std::uint32_t* indices,
                        std::uint32_t count, SplatConstants constants, double* frame,
                        unsigned long long* contributions) {
  unsigned long long added = 0;
  for (std::uint32_t d = blockIdx.y; d < count; d += gridDim.y) {
    const PreparedEvent& e = events[indices[d]];
    if (e.box.empty()) continue;
    const std::int64_t patch_columns = (e.box.i1 - e.box.i0 + kPatchWidth) / kPatchWidth;
    const std::int64_t patch_rows = (e.box.j1 - e.box.j0 + kPatchHeight) / kPatchHeight;
    const std::int64_t slots = patch_columns * patch_rows * 32;
    for (std::int64_t p = std::int64_t(blockIdx.x) * kBlock + threadIdx.x; p < slots;
         p += std::int64_t(gridDim.x) * kBlock) {
      const std::int64_t patch = p / 32, lane = p % 32;
      const auto i =
          std::int32_t(e.box.i0 + patch % patch_columns * kPatchWidth + lane % kPatchWidth);
      const auto j =
          std::int32_t(e.box.j0 + patch / patch_columns * kPatchHeight + lane / kPatchWidth);
      double weight = 0;
      if (i > e.box.i1 || j > e.box.j1 || !direct_pixel_weight(e, i, j, constants.psf, weight))
        continue;
      double* pixel = frame + 3 * (std::size_t(j) * constants.width + i);
      atomicAdd(pixel + 0, e.flux_r * weight);
      atomicAdd(pixel + 1, e.flux_g * weight);
      atomicAdd(pixel + 2, e.flux_b * weight);
      ++added;
    }
  }
  add_block_count(added, contributions);
}

}  // namespace

void launch_prepare_events(const StarEvent* events, std::uint32_t count,
                           const SplatConstants& constants, PreparedEvent* prepared,
                           PixelBox* cached_boxes, const TileBuffers* count_into,
                           hipStream_t stream) {
  if (count == 0) return;
  prepare_events_kernel<<<(count + kPrepareBlock - 1) / kPrepareBlock, kPrepareBlock, 0, stream>>>(
      events, count, constants, prepared, cached_boxes, count_into ? *count_into : TileBuffers{},
      count_into != nullptr);
  check_launch("prepare launch");
}

void launch_atomic_splat(const PreparedEvent* events, std::uint32_t count,
                         const SplatConstants& constants, double* frame,
                         unsigned long long* contributions, hipStream_t stream) {
  if (count == 0) return;
  const std::uint64_t threads = std::uint64_t(count) * kGroup;
  const auto blocks = std::uint32_t((threads + kBlock - 1) / kBlock);
  atomic_splat_kernel<<<blocks, kBlock, 0, stream>>>(events, count, constants, frame,
                                                     contributions);
  check_launch("accumulate launch");
}

void launch_direct_splat(const PreparedEvent* events, const std::uint32_t* indices,
                         std::uint32_t count, std::uint64_t pixels, const SplatConstants& constants,
                         double* frame, unsigned long long* contributions, hipStream_t stream) {
  if (count == 0 || pixels == 0) return;
  constexpr std::uint64_t kMaxGrid = 65535;
  // Blocks for an event of the batch's mean box, with room for the patches' padding; the
  // kernel's loop strides over what larger boxes leave. (Sized for the largest box, the grid
  // was mostly blocks with nothing to do: a few direct events span hundreds of times the
  // pixels of the typical one.)
  const std::uint64_t slots = 2 * (pixels / count) + 256;
  const dim3 grid(std::uint32_t(std::min(kMaxGrid, (slots + kBlock - 1) / kBlock)),
                  std::uint32_t(std::min<std::uint64_t>(kMaxGrid, count)));
  direct_splat_kernel<<<grid, kBlock, 0, stream>>>(events, indices, count, constants, frame,
                                                   contributions);
  check_launch("direct launch");
}

}  // namespace starlens
