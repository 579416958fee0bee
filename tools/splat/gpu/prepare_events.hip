// Event preparation for every strategy: each event's pixel box, phase and flux times colour
// (prepare_event), and the cached events' boxes for the binning.
#include <algorithm>

#include "gpu/gpu_check.h"
#include "tile_lists.h"

namespace starlens {
namespace {

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

}  // namespace starlens
