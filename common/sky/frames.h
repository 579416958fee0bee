#pragma once
// Sky directions as unit 3-vectors: ICRS equatorial and galactic (IAU rotation, docs/design.md
// section 2).
#include <array>
#include <numbers>
#include <utility>

namespace starlens {

using Vec3 = std::array<double, 3>;

constexpr double kDegree = std::numbers::pi / 180.0;

// Unit vector of spherical coordinates (longitude, latitude) in radians.
Vec3 unit_vector_from_angles(double longitude, double latitude);
// (longitude in [0, 2pi), latitude in [-pi/2, pi/2]) of a non-zero vector.
std::array<double, 2> angles_from_vector(const Vec3& v);

// ICRS <-> galactic, by the Hipparcos realisation of the IAU galactic frame
// (ESA 1997, vol. 1, section 1.5.3; Liu, Zhu & Zhang 2011, A&A 526, A16).
Vec3 icrs_to_galactic(const Vec3& icrs);
Vec3 galactic_to_icrs(const Vec3& galactic);

double dot(const Vec3& a, const Vec3& b);
Vec3 cross(const Vec3& a, const Vec3& b);
Vec3 normalized(const Vec3& v);
double norm(const Vec3& v);

// Two unit vectors (u, v) completing the unit vector `centre` to a right-handed orthonormal
// frame (u x v = centre), built from the coordinate axis least aligned with it.
std::pair<Vec3, Vec3> tangent_axes(const Vec3& centre);

}  // namespace starlens
