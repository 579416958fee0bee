// The atomic strategy: a group of 32 threads per cached event walks the event's pixel box and
// adds each contribution to the frame with double atomics.
#include <algorithm>

#include "gpu/gpu_check.h"
#include "tile_lists.h"

namespace starlens {
namespace {

constexpr std::uint32_t kGroup = 32;   // threads per event
constexpr std::uint32_t kBlock = 256;  // threads per block

__global__ void __launch_bounds__(kBlock)
    atomic_splat_kernel(const PreparedEvent* events, std::uint32_t count, SplatConstants constants,
                        double* frame, unsigned long long* contributions) {
  const std::uint32_t event_index = (blockIdx.x * blockDim.x + threadIdx.x) / kGroup;
  const std::uint32_t lane = threadIdx.x % kGroup;
  unsigned long long added = 0;
  if (event_index < count) {
    // The record's fields are read where used, not copied into registers first as the
    // scatter kernel does: a group walks only one or two steps of an event, too few to repay
    // the copy (docs/gpu.md, "How it works").
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

}  // namespace

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

}  // namespace starlens
