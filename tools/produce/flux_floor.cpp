#include "flux_floor.h"

#include <cmath>

namespace starlens::produce {
namespace {

constexpr double kLogGSteps = 256;  // per unit of ln g
// Rounding of exp and of flux * mu_max, in ln flux.
constexpr double kRoundingMargin = 1e-9;

}  // namespace

const double* FluxFloors::for_max_g(double max_g) {
  const double steps = std::ceil(std::log(max_g) * kLogGSteps);
  // No floor (every star goes on to the exact test) for a g_max the tables cannot hold.
  const std::int64_t key = std::isfinite(steps) && std::abs(steps) < 64 * kLogGSteps
                               ? static_cast<std::int64_t>(steps)
                               : INT64_MIN;
  auto [entry, inserted] = floors_.try_emplace(key);
  std::vector<double>& floors = entry->second;
  if (!inserted) return floors.data();
  floors.assign(kBins, 0.0);
  if (key == INT64_MIN) return floors.data();
  const double log_max_g = static_cast<double>(key) / kLogGSteps;
  for (std::uint32_t bin = 0; bin < kBins; ++bin) {
    const double low = std::bit_cast<float>((kFirstKey + bin) << kMantissaShift);
    const double high = std::bit_cast<float>((kFirstKey + bin + 1) << kMantissaShift);
    floors[bin] =
        std::exp(bound_.log_flux_floor(std::log(low), std::log(high), log_max_g) - kRoundingMargin);
  }
  return floors.data();
}

}  // namespace starlens::produce
