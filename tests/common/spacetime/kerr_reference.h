#pragma once
// An independent reference for Kerr light rays, for tests only: the ray's constants from the
// metric components (the ZAMO tetrad built from g_tt, g_tphi, g_phiphi and the photon's
// covariant momentum p_mu = g_mu nu p^nu), then a long-double Gragg-Bulirsch-Stoer integration
// in Mino time s of the second-order radial equation d^2r/ds^2 = R'(r)/2 (no turning-point
// singularity) and of the polar motion as motion on the unit sphere in Cartesian form: the
// point s = (sin theta cos phi_ang, sin theta sin phi_ang, cos theta) moves with
// |s'|^2 = eta + lambda^2 + a^2 z^2 under s'' = -|s'|^2 s + a^2 z (e_z - z s) (the separated
// equations dtheta/ds = +-sqrt(Theta), dphi_ang/ds = -lambda / sin^2 theta, written so that
// nothing is singular on the axis), and the frame-dragging azimuth
// dphi_rad/ds = -a (2r - a lambda) / Delta added as a rotation about the axis. Far out u = 1/r
// becomes the independent variable (ds/du = -1/sqrt(u^4 R(1/u)), regular at u = 0) to reach
// infinity. Nothing here is shared with the closed forms of kerr_radial.h / kerr_angular.h.
#include <cmath>
#include <numbers>
#include <optional>

#include "spacetime/vector_ops.h"

namespace starlens::test {

// The placement of kerr.h written out again, for an observer seeing the hole along +x with the
// spin projected along +z: the ZAMO's axes e_r = -x, e_theta = -z, e_phi = p x e_r = -y, and the
// hole's frame (x, y, z) in which the reference gives its directions.
struct KerrPlacement {
  Vec3 h{1, 0, 0}, p{0, 0, 1};
  Vec3 e_r, e_theta, e_phi, x, y, z;
  explicit KerrPlacement(double inclination) {
    const bool south = inclination == std::numbers::pi;
    const double c = south ? -1 : std::cos(inclination), s = south ? 0 : std::sin(inclination);
    e_r = {-1, 0, 0};
    e_theta = {0, 0, -1};
    e_phi = vec::cross(p, e_r);
    z = vec::plus(vec::scaled(c, e_r), vec::scaled(s, p));
    x = vec::minus(vec::scaled(s, e_r), vec::scaled(c, p));
    y = vec::cross(z, x);
  }
};

struct KerrRay {
  // The direction at infinity, components along the hole's x, y (phi = pi/2) and z (spin) axes.
  long double direction[3];
  long double lambda, eta, g;  // the ray's constants, g = nu_obs / nu_inf (ZAMO)
};

// The observer at (r_obs, theta_obs, phi = 0); the ray leaves in the direction (n_r, n_theta,
// n_phi) of the ZAMO's orthonormal frame (the direction the light comes from). nullopt when it
// crosses the outer horizon.
std::optional<KerrRay> reference_kerr_ray(long double a, long double r_obs, long double theta_obs,
                                          long double n_r, long double n_theta, long double n_phi);

// The radial part alone by quadrature, for rays near the shadow's edge (where the radial
// equation's second-order form above amplifies its rounding while the ray hovers near a
// spherical photon orbit): the turning point r4 from the local minima of R (the roots of the
// cubic R' by the trigonometric formula) and bisection, then the Mino time
// S = integral dr / sqrt(R) and the frame-dragging azimuth
// phi_rad = -integral a (2r - a lambda) / (Delta sqrt(R)) dr by adaptive long-double
// Gauss-Legendre quadrature (r = r4 + t^2 at the turning point, u = 1/r for the tail).
// nullopt when captured.
struct RadialReference {
  long double mino, phi_rad;
};
std::optional<RadialReference> reference_radial(long double a, long double lambda, long double eta,
                                                long double r_obs, bool outward);

}  // namespace starlens::test
