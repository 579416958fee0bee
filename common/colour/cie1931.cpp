#include "colour/cie1931.h"

#include <algorithm>
#include <cmath>

namespace starlens {

ColourMatch colour_match_at(double wavelength_nm) {
  using namespace cie1931;
  if (!(wavelength_nm >= cie_first_nm() && wavelength_nm <= cie_last_nm())) return {0, 0, 0};
  const double position = (wavelength_nm - kCieStartNm) / kCieStepNm;
  const int i = std::min(static_cast<int>(position), kCieCount - 2);
  const double t = position - i;
  const auto lerp = [&](const std::array<double, kCieCount>& f) {
    return f[i] + t * (f[i + 1] - f[i]);
  };
  return {lerp(kCieXBar), lerp(kCieYBar), lerp(kCieZBar)};
}

}  // namespace starlens
