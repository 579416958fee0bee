// Event preparation and the atomic strategy: a group of 32 threads per event walks the
// event's pixel box and adds each contribution with double atomics.
#include "gpu/gpu_check.h"
#include "splat_kernels.h"

namespace starlens {
namespace {

constexpr std::uint32_t kGroup = 32;   // threads per event
constexpr std::uint32_t kBlock = 256;  // threads per block

__global__ void prepare_events_kernel(const StarEvent* events, std::uint32_t count,
                                      SplatConstants constants, PreparedEvent* prepared) {
  const std::uint32_t index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) prepared[index] = prepare_event(events[index], constants);
}

template <bool kWithDirect>
__global__ void __launch_bounds__(kBlock)
    atomic_splat_kernel(const PreparedEvent* events, std::uint32_t count, SplatConstants constants,
                        double* frame, unsigned long long* contributions) {
  const std::uint32_t event_index = (blockIdx.x * blockDim.x + threadIdx.x) / kGroup;
  const std::uint32_t lane = threadIdx.x % kGroup;
  unsigned long long added = 0;
  if (event_index < count) {
    const PreparedEvent& e = events[event_index];
    if (!e.box.empty()) {
      // The group walks the box row-major, 32 pixels a step, without a division per pixel.
      const std::int32_t box_width = e.box.i1 - e.box.i0 + 1;
      std::int32_t i = e.box.i0 + std::int32_t(lane) % box_width;
      std::int32_t j = e.box.j0 + std::int32_t(lane) / box_width;
      while (j <= e.box.j1) {
        double weight = 0;
        if (pixel_weight<kWithDirect>(e, i, j, constants, weight)) {
          double* pixel = frame + 3 * (std::size_t(j) * constants.width + i);
          atomicAdd(pixel + 0, e.flux_r * weight);
          atomicAdd(pixel + 1, e.flux_g * weight);
          atomicAdd(pixel + 2, e.flux_b * weight);
          ++added;
        }
        for (i += kGroup; i > e.box.i1; i -= box_width) ++j;
      }
    }
  }
  add_block_count(added, contributions);
}

}  // namespace

void launch_prepare_events(const StarEvent* events, std::uint32_t count,
                           const SplatConstants& constants, PreparedEvent* prepared,
                           hipStream_t stream) {
  if (count == 0) return;
  prepare_events_kernel<<<(count + kBlock - 1) / kBlock, kBlock, 0, stream>>>(events, count,
                                                                              constants, prepared);
  check_launch("prepare launch");
}

void launch_atomic_splat(const PreparedEvent* events, std::uint32_t count,
                         const SplatConstants& constants, double* frame,
                         unsigned long long* contributions, bool with_direct, hipStream_t stream) {
  if (count == 0) return;
  const std::uint64_t threads = std::uint64_t(count) * kGroup;
  const auto blocks = std::uint32_t((threads + kBlock - 1) / kBlock);
  if (with_direct)
    atomic_splat_kernel<true>
        <<<blocks, kBlock, 0, stream>>>(events, count, constants, frame, contributions);
  else
    atomic_splat_kernel<false>
        <<<blocks, kBlock, 0, stream>>>(events, count, constants, frame, contributions);
  check_launch("accumulate launch");
}

}  // namespace starlens
