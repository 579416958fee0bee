#pragma once
// The named moving observers of Kerr spacetime (M = 1, spin a) as velocities relative to the
// ZAMO (kerr_zamo.h) at the observer's place, in the ZAMO's orthonormal frame, the frame
// KerrSpacetime's camera boosts from (moving_observer.h).
//
// Circular equatorial geodesic orbits (Bardeen, Press & Teukolsky 1972): the orbit moving
// along +phi (s = +1) or -phi (s = -1) has, with a_s = s a,
//   Omega = s / (r^(3/2) + a_s),
//   u^t = (r^(3/2) + a_s) / (r^(3/4) sqrt(r^(3/2) - 3 r^(1/2) + 2 a_s)),
// timelike outside the circular photon orbit r_ph = 2 (1 + cos((2/3) arccos(-a_s))) and stable
// outside the ISCO; relative to the ZAMO it moves along e_phi at v = varpi (Omega - omega) /
// alpha. The orbit co-rotating with the hole (prograde) has s = sign(a), +1 at a = 0.
//
// Free fall from rest at infinity with E = 1, L = 0 and Carter's Q = 0: the polar potential
// Theta = Q + cos^2(theta) (a^2 (E^2 - 1) - L^2 / sin^2(theta)) vanishes, so theta stays
// constant at any inclination; L = 0 makes the faller's velocity relative to the ZAMO purely
// radial, and its ZAMO-measured energy E / alpha gives gamma = 1 / alpha: inward at
// v = sqrt(1 - alpha^2) = sqrt(2 r (r^2 + a^2) / A).
namespace starlens::kerr {

// +1 for the orbit co-rotating with the hole (prograde), -1 for the counter-rotating one.
enum class OrbitSense { prograde, retrograde };
// s: +1 for the orbit along +phi, -1 along -phi.
int orbit_phi_sign(double a, OrbitSense sense);

// The circular equatorial photon orbit of the orbits along s (s a > 0: inside r = 3).
double circular_photon_orbit(double a, int s);
// The innermost stable circular orbit along s (Bardeen, Press & Teukolsky 1972, eq. 2.21).
double isco_radius(double a, int s);

// The circular equatorial geodesic orbit at r along s: dphi/dt, dt/dtau and the velocity
// relative to the ZAMO along e_phi (signed). NaN at or inside circular_photon_orbit.
double orbit_angular_velocity(double a, double r, int s);
double orbit_time_dilation(double a, double r, int s);
double orbit_zamo_velocity(double a, double r, int s);

// The inward speed, relative to the ZAMO at (r, theta), of the E = 1, L = 0, Q = 0 fall.
double infall_zamo_speed(double a, double r, double cos_theta, double sin_theta);

}  // namespace starlens::kerr
