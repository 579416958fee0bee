#pragma once
// The polar motion of a backward-traced light ray in Kerr spacetime in closed form (Gralla &
// Lupsasca 2020, "Null geodesics of the Kerr exterior", section on the angular integrals). With
// mu = cos(theta) the ray obeys (dmu/ds)^2 = a^2 (u_+ - mu^2)(mu^2 - u_-) in Mino time s, u_+-
// the roots of -a^2 u^2 + (a^2 - eta - lambda^2) u + eta. For eta > 0 (u_- < 0 < u_+) mu
// oscillates about the equator, mu = sqrt(u_+) sn(psi | u_+/u_-); for eta < 0 (0 < u_- < u_+,
// rays near the axis of a spinning hole) it stays on one side, mu = +-sqrt(u_+) dn(psi | k),
// k = 1 - u_-/u_+; in both psi advances linearly in s. The end point after a given Mino time
// comes from the Jacobi functions (GSL), and the azimuth integral G_phi = integral of
// ds / sin^2(theta) from the incomplete elliptic integral of the third kind in Carlson's form
// (GSL's R_F and R_J), continued over whole half-periods by its complete value.
namespace starlens::kerr {

struct AngularStart {
  double a, lambda, eta;
  double cos_theta, sin_theta;  // of the observer
  // Theta(theta_obs) = p_theta^2 / E^2, the square of the ray's polar momentum: given separately
  // so that mu's distance from its turning point comes without cancellation.
  double p_theta_squared;
  int direction;  // sign of dmu/ds at the observer (+1 toward the north pole, mu increasing)
};

struct AngularEnd {
  bool ok = false;
  double cos_theta = 0, sin_theta = 0;
  // integral of ds / sin^2(theta) along the ray; where lambda = 0 it is not formed (the
  // product lambda G_phi vanishes) and `pole_crossings` counts the passages over a pole,
  // each of which turns the azimuth by pi.
  double g_phi = 0;
  int pole_crossings = 0;
  // The polar phase swept, in half-periods (one half-period: from one turning point to the
  // other, an angle pi in the orbital plane at a = 0).
  double half_periods = 0;
};

AngularEnd angular_end(const AngularStart& start, double mino);

}  // namespace starlens::kerr
