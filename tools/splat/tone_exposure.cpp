#include "tone_exposure.h"

#include <algorithm>
#include <vector>

namespace starlens {

double automatic_exposure(const Frame& frame) {
  std::vector<double> lit;
  lit.reserve(std::size_t(frame.width) * frame.height);
  for (std::size_t pixel = 0; pixel < std::size_t(frame.width) * frame.height; ++pixel) {
    const double* rgb = frame.rgb.data() + 3 * pixel;
    const double y = luminance(rgb);
    if (y > 0) lit.push_back(y);
  }
  if (lit.empty()) return 1.0;
  const std::size_t rank = std::min(lit.size() - 1, std::size_t(0.999 * lit.size()));
  std::nth_element(lit.begin(), lit.begin() + rank, lit.end());
  return lit[rank];
}

}  // namespace starlens
