#pragma once
// The kernels of one batch, queued on the compute stream with a mark after each: the prepare
// kernel, the atomic or tile kernels of the batch's strategy for its cached events (in rounds
// that fit the tile scratch), and the direct kernel for its direct events (docs/design.md section
// 6).
#include <cstdint>
#include <memory>

#include "batch_slot.h"
#include "batch_summary.h"
#include "gpu/device_memory.h"
#include "gpu_strategy.h"
#include "splat_engine.h"
#include "splat_kernels.h"
#include "tile_scratch.h"

namespace starlens {

class BatchDispatch {
 public:
  // Batches of at most `capacity` events accumulate into `frame` (width x height x 3) and count
  // their contributions into `contributions` (cached, direct); both stay the caller's.
  BatchDispatch(const SplatConstants& constants, std::uint32_t capacity,
                const GpuEngineOptions& options, std::uint32_t multiprocessors, double* frame,
                unsigned long long* contributions, const BatchSummariser& summariser,
                hipStream_t compute);

  // Queues the kernels of the slot's batch (uploaded before the compute stream reaches them)
  // and records its marks and rounds.
  void run(BatchSlot& slot, GpuStrategy strategy, const BatchSummary& summary);

  // After the last batch has completed: RunFailure when a tile scratch overflowed.
  void check_scratch() const;

 private:
  TileScratch& scratch(GpuStrategy strategy);
  // The cached events' kernels; `counted`: the prepare kernel counted them into their tiles
  // (one round).
  void run_cached(BatchSlot& slot, GpuStrategy strategy, const BatchSummary& summary, bool counted);

  SplatConstants constants_;
  std::uint32_t capacity_;
  std::uint32_t tile_references_, scatter_segment_;
  std::uint32_t multiprocessors_;
  double* frame_;
  unsigned long long* contributions_;
  const BatchSummariser& summariser_;
  hipStream_t compute_;
  DeviceArray<PreparedEvent> prepared_;
  DeviceArray<PixelBox> cached_boxes_;  // the prepared events' boxes, cached events only
  std::unique_ptr<TileScratch> tiles16_, tiles32_, scatter_tiles_;
};

}  // namespace starlens
