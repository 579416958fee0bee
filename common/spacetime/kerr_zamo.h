#pragma once
// The zero-angular-momentum observer (ZAMO) of Kerr spacetime at Boyer-Lindquist (r, theta),
// M = 1: the reference observer of KerrSpacetime (static observers do not exist inside the
// ergosphere). With Sigma = r^2 + a^2 cos^2(theta), Delta = r^2 - 2r + a^2 and
// A = (r^2 + a^2)^2 - a^2 Delta sin^2(theta), the ZAMO's lapse is alpha = sqrt(Sigma Delta / A),
// its angular velocity (frame dragging) omega = 2 a r / A and the circumferential radius
// varpi = sqrt(A / Sigma) sin(theta). A light ray of energy-scaled angular momentum lambda
// reaching the ZAMO from a source at rest at infinity has g = (1 - omega lambda) / alpha.
namespace starlens::kerr {

struct Zamo {
  double sigma, delta, big_a;
  double alpha, omega, varpi;
};

Zamo zamo_at(double a, double r, double cos_theta, double sin_theta);

// The outer horizon r_+ = 1 + sqrt(1 - a^2) and the ergosphere's radius
// r_E = 1 + sqrt(1 - a^2 cos^2(theta)).
double outer_horizon(double a);
double ergosphere_radius(double a, double cos_theta);

// The velocity (units of c, along the ZAMO's e_phi) of the static observer (at rest in
// Boyer-Lindquist coordinates) relative to the ZAMO there: it moves against the frame dragging,
// v = -omega varpi / alpha; |v| < 1 exactly outside the ergosphere.
double static_velocity(const Zamo& zamo);

}  // namespace starlens::kerr
