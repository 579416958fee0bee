#pragma once
// Frames for the frame and compare tests, made from a seed (no stored fixtures).
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "frame/frame.h"

namespace starlens::testing {

// Every finite non-negative double is reachable: random exponent field 0..2046 (0 gives
// denormals and zero) and random mantissa, mixed with the extremes and ordinary values.
inline double extreme_value(std::mt19937_64& random) {
  const std::uint64_t bits = random();
  switch (bits % 8) {
    case 0:
      return std::bit_cast<double>(bits >> 12);  // denormal (or zero)
    case 1:
      return std::bit_cast<double>(((bits >> 3) % 7) == 0 ? 0x7fefffffffffffffULL    // DBL_MAX
                                                          : 0x0000000000000001ULL);  // min denormal
    case 2:
      return std::uniform_real_distribution<double>(0.0, 1.0)(random);
    default: {
      const std::uint64_t exponent = (bits >> 52) % 2047;
      const std::uint64_t mantissa = random() & ((std::uint64_t(1) << 52) - 1);
      return std::bit_cast<double>((exponent << 52) | mantissa);
    }
  }
}

inline Frame extreme_frame(std::uint32_t width, std::uint32_t height, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Frame frame(width, height);
  for (double& value : frame.rgb) value = extreme_value(random);
  return frame;
}

// A star-field-like frame: values in [0.5, 1.5) x 10^k with k in [-3, 3].
inline Frame field_frame(std::uint32_t width, std::uint32_t height, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> mantissa(0.5, 1.5);
  std::uniform_int_distribution<int> decade(-3, 3);
  Frame frame(width, height);
  for (double& value : frame.rgb) value = mantissa(random) * std::pow(10.0, decade(random));
  return frame;
}

inline std::filesystem::path fresh_folder(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("starlens_test_" + name + "_" + std::to_string(std::random_device{}()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace starlens::testing
