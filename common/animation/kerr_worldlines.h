#pragma once
// Camera worldlines of Kerr spacetime (M = 1, spin a) in Boyer-Lindquist coordinates, as
// functions of the camera's proper time tau (units of M), with the velocity (units of c) that
// the ZAMO at that place measures, in its orthonormal frame (e_r, e_theta, e_phi):
// KerrSpacetime's reference observer (spacetime/kerr_observers.h).
//
//   circular equatorial geodesic orbit at r along s = +-1 (+phi or -phi): phi = phi0 +
//     Omega u^t tau with Bardeen, Press & Teukolsky's Omega and u^t; v_phi = varpi (Omega -
//     omega) / alpha;
//   fall from rest at infinity with E = 1, L = 0, Q = 0 at constant theta, at r0 when tau = 0:
//     dr/dtau = -sqrt(2 r (r^2 + a^2)) / Sigma and dphi/dtau = 2 a r / (Sigma Delta) (u_t = -1,
//     u_phi = 0 raised by the inverse metric), so along the fall
//       tau(r) = integral_r^r0 Sigma / sqrt(2 r' (r'^2 + a^2)) dr',
//       phi(r) = phi0 + integral_r^r0 2 a r' / (Delta sqrt(2 r' (r'^2 + a^2))) dr'
//     (the azimuth does not depend on theta), evaluated by GSL's adaptive Gauss-Kronrod
//     quadrature (relative error 1e-13) and tau(r) inverted by Brent's method to 1e-13;
//     the ZAMO measures the inward speed sqrt(2 r (r^2 + a^2) / A). The fall reaches the outer
//     horizon r_+ at the finite proper time tau(r_+), the frame-dragging azimuth diverging there.
#include "animation/worldlines.h"

namespace starlens::animation {

// s = +1: phi increasing, -1: decreasing. NaN position at or inside the photon orbit of s.
WorldlinePoint kerr_circular_orbit(double a, double r, double phi0, int s, double tau);

// The proper time from r0 down to r (r_+ < r <= r0) of the fall at colatitude theta.
double kerr_infall_proper_time(double a, double r0, double theta, double r);
// The fall at proper time tau in [0, kerr_infall_proper_time(a, r0, theta, r_+)).
WorldlinePoint kerr_infall(double a, double r0, double theta, double phi0, double tau);

}  // namespace starlens::animation
