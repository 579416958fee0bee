#pragma once
// The double-precision HDR frame: linear sRGB, row-major, RGB interleaved; pixel (i, j) is
// rgb[3 * (j * width + i) + c]. Plain data (no OpenEXR here): GPU code includes it.
#include <cstdint>
#include <vector>

namespace starlens {

struct Frame {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<double> rgb;

  Frame() = default;
  Frame(std::uint32_t w, std::uint32_t h) : width(w), height(h), rgb(std::size_t(w) * h * 3, 0.0) {}
  double* pixel(std::uint32_t i, std::uint32_t j) {
    return rgb.data() + 3 * (std::size_t(j) * width + i);
  }
  const double* pixel(std::uint32_t i, std::uint32_t j) const {
    return rgb.data() + 3 * (std::size_t(j) * width + i);
  }
};

}  // namespace starlens

namespace starlens {

// CIE luminance Y of linear sRGB (Rec.709 primaries, D65): the Y row of the sRGB->XYZ matrix.
inline double luminance(const double* rgb) {
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

}  // namespace starlens
