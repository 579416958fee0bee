#pragma once
// A camera path (docs/usage/animation.md): a worldline around a Schwarzschild hole (M = 1), or
// a Kerr hole of spin a (kerr_worldlines.h), sampled once per movie frame in the camera's
// proper time, and the camera's orientation along it. Positions are Schwarzschild or
// Boyer-Lindquist (r, theta, phi) about the hole, with the polar axis (Kerr: the spin axis) the
// pole of the path's frame (galactic or ICRS) and phi = 0 toward its x axis; velocities are
// those the static observer (Kerr: the ZAMO) at the camera's place measures, along
// (e_r, e_theta, e_phi).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animation/kerr_worldlines.h"
#include "animation/worldlines.h"

namespace starlens::animation {

// Where the camera looks: offsets (degrees) from the hole's direction in the path's frame, as
// starlens-trace's --look-dlon/--look-dlat, or a fixed direction (longitude, latitude) of
// the frame; and the roll (degrees, counter-clockwise on screen).
struct Orientation {
  double look_dlon = 0, look_dlat = 0;
  std::optional<std::array<double, 2>> look_at;
  double roll = 0;
};

// A keyframe: proper time, position, velocity and orientation; between keyframes every value
// is interpolated linearly in proper time.
struct Keyframe {
  double time = 0;
  double r = 0, theta = 0, phi = 0;  // M, radians
  Vec3 velocity{0, 0, 0};            // v_r, v_theta, v_phi (units of c)
  Orientation orientation;
};

enum class WorldlineKind { keyframes, orbit, infall, flyby };

struct CameraPath {
  std::string frame = "galactic";  // "galactic" | "icrs": the coordinates' pole and x axis
  std::optional<double> spin;      // Kerr's a; Schwarzschild when absent
  double fps = 24;                 // movie frames per second
  std::int64_t frames = 0;         // frame count
  double time_per_second = 1;      // camera proper time (M) per movie second
  double start_time = 0;           // proper time of frame 0 (M)
  WorldlineKind kind = WorldlineKind::keyframes;
  std::vector<Keyframe> keyframes;  // keyframes: sorted by time, at least one
  // orbit and infall
  double r = 0, theta = 0, phi = 0;  // orbit: radius and phi at tau = 0; infall: start
  // orbit: +1 phi increasing, -1 decreasing (Schwarzschild: prograde is +1; Kerr: prograde
  // co-rotates with the hole, +1 for a >= 0)
  int direction = 1;
  bool from_infinity = false;  // infall: from rest at infinity, else from rest at r (not Kerr)
  Flyby flyby;                 // flyby: periapsis (r), E and L; phi: periapsis azimuth
  Orientation orientation;     // orbit, infall and flyby: fixed along the path
};

// The camera at one frame.
struct CameraState {
  std::int64_t frame = 0;
  double time = 0;  // proper time (M)
  WorldlinePoint point;
  Orientation orientation;
};

// Proper time of frame n: start_time + n * time_per_second / fps.
double frame_time(const CameraPath& path, std::int64_t frame);
// The camera at frame n (0 <= n < frames; the caller checks the range and the radius).
CameraState sample(const CameraPath& path, std::int64_t frame);

}  // namespace starlens::animation
