#pragma once
// The Planck function, in the units the catalogue uses (Jy per steradian), and the SI
// constants it is made of (2019 SI: h, c and k are exact).

namespace starlens {

constexpr double kPlanckConstant = 6.62607015e-34;   // J s
constexpr double kSpeedOfLight = 299792458.0;        // m / s
constexpr double kBoltzmannConstant = 1.380649e-23;  // J / K
// Second radiation constant c2 = h c / k (m K).
constexpr double kSecondRadiationConstant = kPlanckConstant * kSpeedOfLight / kBoltzmannConstant;
constexpr double kJanskyPerSi = 1e26;  // 1 W m^-2 Hz^-1 = 1e26 Jy

// Black-body specific intensity B_nu(nu; T) in Jy / sr at frequency (Hz) and temperature (K).
// Finite and non-negative for finite positive arguments; 0 where it underflows.
double planck_nu_jy_per_sr(double frequency_hz, double temperature_k);

}  // namespace starlens
