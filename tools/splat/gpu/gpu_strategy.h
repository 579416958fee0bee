#pragma once
// The GPU splat strategies (docs/design.md section 6) and the adaptive selector that picks one per
// batch from how densely the batch's event centres crowd the screen.
#include <cstdint>
#include <optional>
#include <string>

namespace starlens {

enum class GpuStrategy : std::uint8_t { atomic = 0, tile16 = 1, tile32 = 2, scatter16 = 3 };
constexpr int kGpuStrategyCount = 4;

const char* strategy_name(GpuStrategy strategy);
// "atomic" | "tile16" | "tile32" | "scatter16" -> that strategy; "adaptive" -> nullopt; else
// InputError.
std::optional<GpuStrategy> parse_gpu_strategy(const std::string& name);
std::uint32_t strategy_tile_size(GpuStrategy strategy);  // 0 for atomic

// What the selector looks at: event centres per occupied 32 px centre tile. Sparse batches
// (few events per tile) gain nothing from tiling and pay for its empty pixels, so they go
// to atomics; crowded batches would serialise on atomics and go to tiles.
struct AdaptiveThresholds {
  double tile16_from = 0;     // density at and above which tile16 is chosen
  double tile32_from = 0;     // density at and above which tile32 is chosen
  double scatter16_from = 0;  // density at and above which scatter16 is chosen
};
AdaptiveThresholds default_adaptive_thresholds();
GpuStrategy choose_strategy(double centre_tile_density, const AdaptiveThresholds& thresholds);

}  // namespace starlens
