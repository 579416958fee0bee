#include "spacetime/observer_motion.h"

#include <cmath>

#include "core/errors.h"
#include "spacetime/vector_ops.h"

namespace starlens {

const char* observer_kind_name(ObserverKind kind) {
  switch (kind) {
    case ObserverKind::zamo:
      return "zamo";
    case ObserverKind::infall:
      return "infall";
    case ObserverKind::orbit:
      return "orbit";
    case ObserverKind::velocity:
      return "velocity";
    default:
      return "static";
  }
}

ObserverKind parse_observer_kind(const std::string& name) {
  if (name == "static") return ObserverKind::at_rest;
  if (name == "zamo") return ObserverKind::zamo;
  if (name == "infall") return ObserverKind::infall;
  if (name == "orbit") return ObserverKind::orbit;
  if (name == "velocity") return ObserverKind::velocity;
  throw_input_error("(arguments)", "--observer",
                    "'" + name + "' is not static, zamo, infall, orbit or velocity");
}

ObserverMotion::ObserverMotion(const Vec3& velocity, const std::string& field)
    : velocity_(velocity) {
  for (const double c : velocity)
    if (!std::isfinite(c)) throw_input_error("(arguments)", field, "must be finite");
  speed_ = vec::norm(velocity);
  if (!(speed_ < 1))
    throw_input_error("(arguments)", field,
                      "speed " + std::to_string(speed_) + " c is not below the speed of light");
  if (speed_ > 0) unit_ = vec::scaled(1 / speed_, velocity);
  // 1 / sqrt(1 - v^2) with 1 - v^2 as (1 - v)(1 + v): accurate close to c.
  gamma_ = 1 / std::sqrt((1 - speed_) * (1 + speed_));
}

Vec3 ObserverMotion::static_direction(const Vec3& n) const {
  if (!moving()) return n;
  const double along = vec::dot(n, unit_);
  Vec3 out{};
  for (int k = 0; k < 3; ++k) out[k] = n[k] + ((gamma_ - 1) * along - gamma_ * speed_) * unit_[k];
  return vec::normalized(out);
}

Vec3 ObserverMotion::camera_direction(const Vec3& n) const {
  if (!moving()) return n;
  const double along = vec::dot(n, unit_);
  Vec3 out{};
  for (int k = 0; k < 3; ++k) out[k] = n[k] + ((gamma_ - 1) * along + gamma_ * speed_) * unit_[k];
  return vec::normalized(out);
}

double ObserverMotion::doppler_of_static(const Vec3& n) const {
  return gamma_ * (1 + vec::dot(velocity_, n));
}

HoleFrame hole_frame(const Vec3& hole, const Vec3& north_pole, const Vec3& x_axis) {
  HoleFrame frame;
  frame.toward = hole;
  Vec3 east = vec::cross(north_pole, hole);
  if (vec::norm(east) < 1e-6) east = vec::cross(x_axis, hole);
  frame.east = vec::normalized(east);
  frame.north = vec::cross(hole, frame.east);
  return frame;
}

Vec3 position_angle_direction(const HoleFrame& frame, double pa) {
  return vec::plus(vec::scaled(std::cos(pa), frame.north), vec::scaled(std::sin(pa), frame.east));
}

Vec3 infall_velocity(double r, const HoleFrame& frame) {
  return vec::scaled(std::sqrt(2 / r), frame.toward);
}

Vec3 orbit_velocity(double r, double position_angle, const HoleFrame& frame) {
  const double speed = std::sqrt(1 / (r - 2));
  return vec::scaled(speed, position_angle_direction(frame, position_angle));
}

Vec3 local_velocity(const Vec3& c, const HoleFrame& frame) {
  return vec::plus(vec::plus(vec::scaled(c[0], frame.toward), vec::scaled(c[1], frame.north)),
                   vec::scaled(c[2], frame.east));
}

}  // namespace starlens
