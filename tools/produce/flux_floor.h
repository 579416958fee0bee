#pragma once
// The producer's first test of every catalogue star, one compare in linear space and no
// logarithm: is the star's flux density below the floor that any image of it in this cell
// (mu <= mu_max, g <= g_max) needs to reach min-Y? Temperatures are binned by the bits of the
// float (64 bins an octave: exponent and top 6 mantissa bits); a bin's floor is the
// VisibilityBound's at the bin's hottest Y and coolest B_nu (visibility_bound.h), so it is
// conservative for every temperature in the bin. Floors are per g_max, rounded up to 1/256 in
// ln g, and per cell only scaled by 1 / mu_max.
#include <bit>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "visibility_bound.h"

namespace starlens::produce {

class FluxFloors {
 public:
  explicit FluxFloors(const VisibilityBound& bound) : bound_(bound) {}

  // Floors (Jy, for mu = 1) by temperature bin for cells whose triangles have g <= max_g;
  // built on first use. The pointer stays valid for the object's life.
  const double* for_max_g(double max_g);

  // Whether no image with mu <= max_mu of a star (teff > 0) can be visible.
  static bool too_faint(const double* floors, float teff_k, float flux_jy, double max_mu) {
    const std::uint32_t bin = (std::bit_cast<std::uint32_t>(teff_k) >> kMantissaShift) - kFirstKey;
    return bin < kBins && static_cast<double>(flux_jy) * max_mu < floors[bin];
  }

  static constexpr int kBinsPerOctaveBits = 6;
  static constexpr std::uint32_t kMantissaShift = 23 - kBinsPerOctaveBits;
  static constexpr std::uint32_t kFirstKey = std::bit_cast<std::uint32_t>(256.0f) >> kMantissaShift;
  static constexpr std::uint32_t kBins = 13u << kBinsPerOctaveBits;  // 256 K to 2^21 K

 private:
  const VisibilityBound& bound_;
  std::unordered_map<std::int64_t, std::vector<double>> floors_;  // by ceil(256 ln g_max)
};

}  // namespace starlens::produce
