#pragma once
// Camera worldlines of Schwarzschild spacetime (M = 1) in closed form, as functions of the
// camera's proper time tau (units of M): the position in Schwarzschild coordinates and the
// velocity (units of c) that the static observer at that place measures, in its orthonormal
// frame (e_r, e_theta, e_phi).
//
//   circular geodesic orbit at r in the plane theta = pi/2: dphi/dt = sqrt(M / r^3) and
//     dt/dtau = 1 / sqrt(1 - 3M/r), so phi = phi0 +- tau sqrt(M / r^3) / sqrt(1 - 3M/r); the
//     static observer measures v_phi = +-sqrt(M / (r - 2M)); timelike for r > 3M, stable
//     for r >= 6M (the ISCO);
//   radial infall from rest at r0 (energy E = sqrt(1 - 2M/r0)): the cycloid
//     r = (r0 / 2)(1 + cos eta), tau = sqrt(r0^3 / (8M)) (eta + sin eta), eta in [0, pi);
//   radial infall from rest at infinity (E = 1), at r0 when tau = 0:
//     r = (r0^(3/2) - (3/2) sqrt(2M) tau)^(2/3);
//   in both, the static observer measures the inward speed v = sqrt(1 - (1 - 2M/r) / E^2);
//   a fly-by: the unbound geodesic in the plane theta = pi/2 with speed v_inf at infinity
//     (E = 1 / sqrt(1 - v_inf^2)) and periapsis r_p at tau = 0 (there u^r = 0, so
//     L^2 = r_p^2 (E^2 / (1 - 2M/r_p) - 1)), integrated in tau (RK4 on
//     d2r/dtau2 = -M/r^2 + L^2/r^3 - 3M L^2/r^4, dphi/dtau = L/r^2, steps of 1/1000 of the local
//     dynamical time r^(3/2)) and mirrored for tau < 0; the static observer measures
//     v_r = u^r / E and v_phi = (L / r) sqrt(1 - 2M/r) / E.
#include "sky/frames.h"

namespace starlens::animation {

// Position (r in M, theta and phi in radians) and velocity along (e_r, e_theta, e_phi).
struct WorldlinePoint {
  double r = 0, theta = 0, phi = 0;
  Vec3 velocity{0, 0, 0};
};

// The photon orbit (no timelike circular orbit at or inside it) and the ISCO.
constexpr double kPhotonOrbitRadius = 3;
constexpr double kIscoRadius = 6;

// sign +1: prograde (phi increasing), -1: retrograde. Requires r > 3.
double orbit_angular_velocity_proper(double r);  // dphi/dtau
WorldlinePoint circular_orbit(double r, double phi0, int sign, double tau);

// From rest at r0 (> 2): the radius at proper time tau in [0, infall_duration(r0)), the
// proper time to reach r = 0 being pi sqrt(r0^3 / 8).
double infall_from_rest_duration(double r0);
double infall_from_rest_radius(double r0, double tau);
// From rest at infinity, at r0 when tau = 0: reaches r = 0 at tau = (2/3) r0^(3/2) / sqrt(2).
double infall_from_infinity_duration(double r0);
double infall_from_infinity_radius(double r0, double tau);
// The static observer's inward speed at r of a fall with energy E (E = 1: from infinity).
double infall_speed(double r, double energy);
// Radial infall along (theta, phi): from rest at r0 (from_infinity false) or from infinity.
WorldlinePoint radial_infall(double r0, double theta, double phi, bool from_infinity, double tau);

struct Flyby {
  double periapsis = 0, energy = 0, angular_momentum = 0;
};
// E and L of the fly-by with periapsis r_p (> 3) and speed at infinity v_inf in (0, 1).
Flyby flyby_orbit(double periapsis, double speed_at_infinity);
// Whether r_p is a periapsis (the radial potential falls outward there: L^2 (r_p - 3M) > r_p^2),
// rather than the apoapsis of a capture.
bool flyby_turns(const Flyby& orbit);
// At proper time tau from periapsis, which lies at azimuth phi0; sign +1 prograde.
WorldlinePoint flyby(const Flyby& orbit, double phi0, int sign, double tau);

}  // namespace starlens::animation
