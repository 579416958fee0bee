#pragma once
// Photon orbits in Schwarzschild spacetime in closed form (M = 1). A ray reaching a static
// observer at radius r_obs at angle psi from the inward radial direction (toward the hole) is
// traced backward; with u = 1/r its orbit obeys (du/dphi)^2 = 1/b^2 - u^2 + 2u^3 and the
// azimuth it sweeps out to infinity is an elliptic integral, evaluated with Carlson's R_F.
namespace starlens::schwarzschild {

// 3 sqrt(3): rays with a smaller impact parameter that start inward fall into the hole.
constexpr double kCriticalImpactParameter = 5.19615242270663188058;

// b = r_obs sin(psi) / sqrt(1 - 2/r_obs).
double impact_parameter(double r_obs, double psi);
// The angle from the hole's direction inside which rays are captured (the shadow's radius).
double critical_angle(double r_obs);
// True when the backward ray starts inward (psi < pi/2) with b <= 3 sqrt(3) (a ray exactly on
// the critical orbit spirals onto the photon sphere and never escapes).
bool is_captured(double r_obs, double psi);
// Total azimuth swept by an escaping backward ray from the observer to infinity (pi - psi in
// flat space). Requires r_obs > 3 and !is_captured(r_obs, psi); returns NaN if the elliptic
// integral fails (reported by the caller as a failed ray).
double escape_azimuth(double r_obs, double psi);
// The two above for a ray given by sin(psi) = |d x h| and cos(psi) = d.h of its unit direction d
// and the hole's h (inward: cos(psi) > 0): psi = atan2(sin, cos) is formed only within reach
// of the critical orbit, where it is used in long double.
bool is_captured_from_vectors(double r_obs, double sin_psi, double cos_psi);
double escape_azimuth_from_vectors(double r_obs, double sin_psi, double cos_psi);

}  // namespace starlens::schwarzschild
