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
  }
  return "unknown";
}

std::optional<GpuStrategy> parse_gpu_strategy(const std::string& name) {
  if (name == "adaptive") return std::nullopt;
  for (int k = 0; k < kGpuStrategyCount; ++k)
    if (name == strategy_name(GpuStrategy(k))) return GpuStrategy(k);
  throw_input_error("--gpu-strategy", "",
                    "'" + name + "' is not one of atomic, tile16, tile32, adaptive");
}

std::uint32_t strategy_tile_size(GpuStrategy strategy) {
  switch (strategy) {
    case GpuStrategy::tile16:
      return 16;
    case GpuStrategy::tile32:
      return 32;
    default:
      return 0;
  }
}

AdaptiveThresholds default_adaptive_thresholds() {
  // Below ~8 event centres per occupied 32 px tile most 16 px tiles hold one or two events
  // and tiling pays a block's frame update and empty pixels for each; above it atomics start
  // to collide. tile32 evaluates about twice tile16's candidate pixels for the small boxes
  // of typical events and is never chosen (docs/gpu.md, "adaptive").
  return {8.0, 1e300};
}

GpuStrategy choose_strategy(double centre_tile_density, const AdaptiveThresholds& thresholds) {
  if (centre_tile_density >= thresholds.tile32_from) return GpuStrategy::tile32;
  if (centre_tile_density >= thresholds.tile16_from) return GpuStrategy::tile16;
  return GpuStrategy::atomic;
}

}  // namespace starlens
