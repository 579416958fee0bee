#pragma once
// The four channels compare reports: the frame's R, G, B and the CIE luminance Y of linear
// sRGB (Rec.709 primaries, D65).
#include <array>
#include <cstddef>

namespace starlens::compare {

constexpr std::size_t kChannelCount = 4;
constexpr std::array<const char*, kChannelCount> kChannelNames = {"R", "G", "B", "Y"};
constexpr std::size_t kLuminance = 3;

inline double luminance(const double* rgb) {
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

}  // namespace starlens::compare
