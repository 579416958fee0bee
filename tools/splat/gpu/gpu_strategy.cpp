#include "gpu_strategy.h"

#include "core/errors.h"

namespace starlens {

const char* strategy_name(GpuStrategy strategy) {
  switch (strategy) {
    case GpuStrategy::atomic:
      return "atomic";
    case GpuStrategy::tile16:
      return "tile16";
    case GpuStrategy::tile32:
      return "tile32";
    case GpuStrategy::scatter16:
      return "scatter16";
  }
  return "unknown";
}

std::optional<GpuStrategy> parse_gpu_strategy(const std::string& name) {
  if (name == "adaptive") return std::nullopt;
  for (int k = 0; k < kGpuStrategyCount; ++k)
    if (name == strategy_name(GpuStrategy(k))) return GpuStrategy(k);
  throw_input_error("--gpu-strategy", "",
                    "'" + name + "' is not one of atomic, tile16, tile32, scatter16, adaptive");
}

std::uint32_t strategy_tile_size(GpuStrategy strategy) {
  switch (strategy) {
    case GpuStrategy::tile16:
    case GpuStrategy::scatter16:
      return 16;
    case GpuStrategy::tile32:
      return 32;
    default:
      return 0;
  }
}

AdaptiveThresholds default_adaptive_thresholds() {
  // Atomics win sparse batches (few events share a tile, so binning costs more than it
  // saves); from 64 event centres per occupied 32 px tile on, scatter16 wins or ties every
  // other strategy, so tile16 and tile32 are never chosen (docs/gpu.md, "Adaptive").
  return {1e300, 1e300, 64.0};
}

GpuStrategy choose_strategy(double centre_tile_density, const AdaptiveThresholds& thresholds) {
  if (centre_tile_density >= thresholds.scatter16_from) return GpuStrategy::scatter16;
  if (centre_tile_density >= thresholds.tile32_from) return GpuStrategy::tile32;
  if (centre_tile_density >= thresholds.tile16_from) return GpuStrategy::tile16;
  return GpuStrategy::atomic;
}

}  // namespace starlens
