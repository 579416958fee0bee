#pragma once
// Deterministic random variates for the synthetic event generator: std::mt19937_64 (its
// output is fixed by the standard) and explicit transforms, never std:: distributions, whose
// output differs between standard libraries. Same seed, same stream, on every platform.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace starlens::synth {

class SynthRandom {
 public:
  explicit SynthRandom(std::uint64_t seed) : engine_(seed) {}

  // Uniform on [0, 1): the top 53 bits of one draw.
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1]: safe to take the logarithm of.
  double uniform_positive() { return double((engine_() >> 11) + 1) * 0x1.0p-53; }
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  // Standard normal by the Box-Muller transform (one of the pair is used: simpler, and the
  // generator is not the bottleneck).
  double normal() {
    const double radius = std::sqrt(-2.0 * std::log(uniform_positive()));
    return radius * std::cos(2.0 * std::numbers::pi * uniform());
  }

  // dN/dF ~ F^-slope on [low, high], by inverting its cumulative distribution.
  double power_law(double low, double high, double slope) {
    const double u = uniform();
    if (std::abs(slope - 1.0) < 1e-12) return low * std::pow(high / low, u);
    const double exponent = 1.0 - slope;
    const double a = std::pow(low, exponent);
    const double b = std::pow(high, exponent);
    return std::pow(a + u * (b - a), 1.0 / exponent);
  }

  // Log-uniform on [low, high].
  double log_uniform(double low, double high) { return low * std::pow(high / low, uniform()); }

 private:
  std::mt19937_64 engine_;
};

// Fraction of a power law dN/dF ~ F^-slope on [low, high] that lies at or above `threshold`
// (the closed form the tests compare sampled fractions with).
inline double power_law_fraction_above(double low, double high, double slope, double threshold) {
  if (threshold <= low) return 1.0;
  if (threshold >= high) return 0.0;
  if (std::abs(slope - 1.0) < 1e-12) return std::log(high / threshold) / std::log(high / low);
  const double exponent = 1.0 - slope;
  return (std::pow(high, exponent) - std::pow(threshold, exponent)) /
         (std::pow(high, exponent) - std::pow(low, exponent));
}

}  // namespace starlens::synth
