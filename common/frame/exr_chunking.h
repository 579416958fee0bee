#pragma once
// Frames are written and read a band of scanlines at a time, so the float conversion buffers
// stay small whatever the frame size. Bands are whole ZIP blocks (16 scanlines).
#include <algorithm>
#include <cstdint>

namespace starlens::exr_layout {

constexpr std::uint32_t kZipBlockRows = 16;
constexpr std::uint64_t kPixelsPerBand = std::uint64_t(1) << 18;

inline std::uint32_t band_rows(std::uint32_t width) {
  const std::uint64_t rows = kPixelsPerBand / std::max<std::uint32_t>(width, 1);
  const std::uint64_t whole_blocks = std::max<std::uint64_t>(rows / kZipBlockRows, 1);
  return static_cast<std::uint32_t>(whole_blocks * kZipBlockRows);
}

}  // namespace starlens::exr_layout
