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
//   in both, the static observer measures the inward speed v = sqrt(1 - (1 - 2M/r) / E^2).
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

}  // namespace starlens::animation
