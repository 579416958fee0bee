#pragma once
// A camera moving through the static observer's place (docs/design.md section 3): its velocity
// v (units of c) as the static observer measures it, in that observer's orthonormal frame
// (components along the ICRS axes). The moving camera's sky is the static one aberrated and
// its light Doppler-shifted by special relativity in that local frame:
//   a photon the static observer sees arriving from direction n (unit, pointing from the camera
//   to where the light comes from) the moving camera sees from
//     n' = (n + (gamma - 1) (n . u) u + gamma v) / (gamma (1 + v . n)),   u = v / |v|,
//   with the frequency ratio D = nu_camera / nu_static = gamma (1 + v . n), and the inverse
//     n = (n' + (gamma - 1) (n' . u) u - gamma v) / (gamma (1 - v . n')),  D = 1 / (gamma (1 - v .
//     n')).
// A solid angle on the camera's sky is the static one over D^2, so a point image's magnification
// is the static one over D^2 and its frequency ratio g the static one times D.
#include <string>

#include "sky/frames.h"

namespace starlens {

// --observer: the kinds of motion starlens-trace derives a velocity for.
// zamo: Kerr's zero-angular-momentum observer, the reference observer there (kerr.h).
enum class ObserverKind { at_rest, zamo, infall, orbit, velocity };
// "static" | "zamo" | "infall" | "orbit" | "velocity" (the flag's values and the lens map's
// attribute).
const char* observer_kind_name(ObserverKind kind);
// Throws InputError naming --observer for another name.
ObserverKind parse_observer_kind(const std::string& name);

class ObserverMotion {
 public:
  ObserverMotion() = default;
  // Throws InputError naming `field` unless every component is finite and |v| < 1.
  explicit ObserverMotion(const Vec3& velocity, const std::string& field = "--velocity");

  const Vec3& velocity() const { return velocity_; }
  double speed() const { return speed_; }
  double gamma() const { return gamma_; }
  bool moving() const { return speed_ > 0; }

  // The static observer's direction of a ray the camera sees in direction n' (unit vectors).
  Vec3 static_direction(const Vec3& camera_direction) const;
  // The camera's direction of a ray the static observer sees in direction n.
  Vec3 camera_direction(const Vec3& static_direction) const;
  // D = nu_camera / nu_static of light the static observer sees arriving from n.
  double doppler_of_static(const Vec3& static_direction) const;

 private:
  Vec3 velocity_{0, 0, 0};
  Vec3 unit_{0, 0, 0};
  double speed_ = 0;
  double gamma_ = 1;
};

// The local directions at the observer of a hole seen in direction `hole`: toward the hole,
// the placement frame's north projected normal to it (the frame's x axis where the hole lies
// within 1e-6 of the pole) and east = north x toward (the direction of increasing longitude).
struct HoleFrame {
  Vec3 toward, north, east;
};
HoleFrame hole_frame(const Vec3& hole, const Vec3& north_pole, const Vec3& x_axis);
// The unit vector on the sky at position angle pa (radians, from north through east).
Vec3 position_angle_direction(const HoleFrame& frame, double pa);

// Velocities of the named motions at radius r (units of M) around a hole of mass M = 1, as
// the static observer there measures them:
//   infall: radial free fall from rest at infinity, v = sqrt(2 / r) toward the hole;
//   orbit: a circular geodesic orbit, v = sqrt(1 / (r - 2)) (< 1 for r > 3; unstable inside
//          r = 6), moving along position angle pa (radians, from north through east) on the
//          sky around the hole.
Vec3 infall_velocity(double r, const HoleFrame& frame);
Vec3 orbit_velocity(double r, double position_angle, const HoleFrame& frame);
// Components along (toward the hole, north, east) to a vector.
Vec3 local_velocity(const Vec3& components, const HoleFrame& frame);

}  // namespace starlens
