#include "colour/planck.h"

#include <cmath>

namespace starlens {

double planck_nu_jy_per_sr(double frequency_hz, double temperature_k) {
  const double x = kPlanckConstant * frequency_hz / (kBoltzmannConstant * temperature_k);
  const double prefactor = 2.0 * kPlanckConstant * frequency_hz * frequency_hz * frequency_hz /
                           (kSpeedOfLight * kSpeedOfLight);
  // expm1 keeps the Rayleigh-Jeans end (x << 1) exact; overflow gives 1/inf = 0 (Wien end).
  return kJanskyPerSi * prefactor / std::expm1(x);
}

}  // namespace starlens
