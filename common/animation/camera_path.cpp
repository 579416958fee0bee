#include "animation/camera_path.h"

#include <algorithm>

namespace starlens::animation {
namespace {

double mix(double a, double b, double w) {
  return a + (b - a) * w;
}

CameraState from_keyframes(const CameraPath& path, double t) {
  const auto& k = path.keyframes;
  CameraState s;
  s.time = t;
  // The last keyframe at or before t (the first before it, the last after it: held still).
  auto next = std::upper_bound(k.begin(), k.end(), t,
                               [](double time, const Keyframe& f) { return time < f.time; });
  const Keyframe& a = next == k.begin() ? k.front() : *(next - 1);
  const Keyframe& b = next == k.end() ? k.back() : *next;
  const double span = b.time - a.time;
  const double w = span > 0 ? std::clamp((t - a.time) / span, 0.0, 1.0) : 0;
  s.point.r = mix(a.r, b.r, w);
  s.point.theta = mix(a.theta, b.theta, w);
  s.point.phi = mix(a.phi, b.phi, w);
  for (int i = 0; i < 3; ++i) s.point.velocity[i] = mix(a.velocity[i], b.velocity[i], w);
  const Orientation &oa = a.orientation, &ob = b.orientation;
  s.orientation.look_dlon = mix(oa.look_dlon, ob.look_dlon, w);
  s.orientation.look_dlat = mix(oa.look_dlat, ob.look_dlat, w);
  s.orientation.roll = mix(oa.roll, ob.roll, w);
  if (oa.look_at && ob.look_at)
    s.orientation.look_at = std::array<double, 2>{mix((*oa.look_at)[0], (*ob.look_at)[0], w),
                                                  mix((*oa.look_at)[1], (*ob.look_at)[1], w)};
  else
    s.orientation.look_at = w < 0.5 ? oa.look_at : ob.look_at;
  return s;
}

}  // namespace

double frame_time(const CameraPath& path, std::int64_t frame) {
  return path.start_time + static_cast<double>(frame) * path.time_per_second / path.fps;
}

CameraState sample(const CameraPath& path, std::int64_t frame) {
  const double t = frame_time(path, frame);
  CameraState s;
  switch (path.kind) {
    case WorldlineKind::keyframes:
      s = from_keyframes(path, t);
      break;
    case WorldlineKind::orbit:
      s.point = path.spin ? kerr_circular_orbit(*path.spin, path.r, path.phi, path.direction, t)
                          : circular_orbit(path.r, path.phi, path.direction, t);
      s.orientation = path.orientation;
      break;
    case WorldlineKind::infall:
      s.point = path.spin ? kerr_infall(*path.spin, path.r, path.theta, path.phi, t)
                          : radial_infall(path.r, path.theta, path.phi, path.from_infinity, t);
      s.orientation = path.orientation;
      break;
    case WorldlineKind::flyby:
      s.point = flyby(path.flyby, path.phi, path.direction, t);
      s.orientation = path.orientation;
      break;
  }
  s.frame = frame;
  s.time = t;
  return s;
}

}  // namespace starlens::animation
