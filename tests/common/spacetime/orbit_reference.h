#pragma once
// An independent reference for the Schwarzschild orbit integral, for tests only: long-double
// adaptive Gauss-Legendre quadrature of phi = integral du / sqrt(1/b^2 - u^2 + 2u^3), with the
// substitution u = u2 - s^2 that removes the inverse-square-root singularity at the turning
// point u2, which is found by bisection. Nothing here is shared with the closed form.
#include <optional>

namespace starlens::test {

// Whether the ray (observer at r_obs, angle psi from the inward radial direction) is captured:
// it starts inward and G(u) = 1/b^2 - u^2 + 2u^3 has no root between u_obs and the horizon.
bool reference_is_captured(long double r_obs, long double psi);

// Total azimuth swept from the observer to infinity, or nullopt when captured.
std::optional<long double> reference_escape_azimuth(long double r_obs, long double psi);

}  // namespace starlens::test
