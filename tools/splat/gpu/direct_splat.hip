// Direct events for every strategy: blocks of pixels of each event's box, each pixel's weight
// from direct_pixel_integral (the CPU's arithmetic), added to the frame with double atomics.
#include <algorithm>

#include "gpu/gpu_check.h"
#include "tile_lists.h"

namespace starlens {
namespace {

constexpr std::uint32_t kBlock = 256;  // threads per block

// Blocks (x: kBlock pixels of the box, y: the event) for the direct events. A warp takes a
// patch of 8 x 4 pixels rather than 32 of a row: which path a pixel takes (tensor rule and its
// order, or the exact quadrature) depends on where it lies around the event, so nearer pixels
// make a warp diverge less. Two blocks a multiprocessor (128 registers) measured fastest: the
// common tensor orders then run without spills, while the paths few pixels take are calls
// (direct_pixel.h); caps of 3, 4 and 6 blocks spill more and ran slower (docs/gpu.md, "How it
// works", direct events).
constexpr std::uint32_t kDirectBlocksPerMultiprocessor = 2;
constexpr std::int32_t kPatchWidth = 8, kPatchHeight = 4;
static_assert(kPatchWidth * kPatchHeight == 32);

__global__ void __launch_bounds__(kBlock, kDirectBlocksPerMultiprocessor)
    direct_splat_kernel(const PreparedEvent* events, const std::uint32_t* indices,
                        std::uint32_t count, SplatConstants constants, DirectPixelRule rule,
                        double* frame, unsigned long long* contributions) {
  // The rule in shared memory: its tables are indexed by each pixel's order and series length,
  // and a kernel parameter indexed at run time is copied to local memory per thread.
  __shared__ DirectPixelRule shared_rule;
  if (threadIdx.x == 0) shared_rule = rule;
  __syncthreads();
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
      if (i > e.box.i1 || j > e.box.j1 ||
          !direct_pixel_weight(e, i, j, constants.psf, shared_rule, weight))
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

// The rule of the run's PSF, built once on the host (a few thousand pow calls) and passed to
// every launch by value.
DirectPixelRule direct_rule(const Moffat& psf) {
  thread_local Moffat last{0.0, 0.0};
  thread_local DirectPixelRule rule{};
  if (psf.alpha != last.alpha || psf.beta != last.beta) {
    rule = direct_pixel_rule(psf);
    last = psf;
  }
  return rule;
}

}  // namespace

void launch_direct_splat(const PreparedEvent* events, const std::uint32_t* indices,
                         std::uint32_t count, std::uint64_t pixels, const SplatConstants& constants,
                         double* frame, unsigned long long* contributions, hipStream_t stream) {
  if (count == 0 || pixels == 0) return;
  constexpr std::uint64_t kMaxGrid = 65535;
  // Blocks for an event of the batch's mean box, with room for the patches' padding; the
  // kernel's loop strides over what larger boxes leave (a grid sized for the largest box would
  // be mostly idle blocks: a few direct events span hundreds of times the typical box).
  const std::uint64_t slots = 2 * (pixels / count) + 256;
  const dim3 grid(std::uint32_t(std::min(kMaxGrid, (slots + kBlock - 1) / kBlock)),
                  std::uint32_t(std::min<std::uint64_t>(kMaxGrid, count)));
  direct_splat_kernel<<<grid, kBlock, 0, stream>>>(
      events, indices, count, constants, direct_rule(constants.psf), frame, contributions);
  check_launch("direct launch");
}

}  // namespace starlens
