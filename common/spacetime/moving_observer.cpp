#include "spacetime/moving_observer.h"

namespace starlens {

MovingObserverSpacetime::MovingObserverSpacetime(std::unique_ptr<Spacetime> at_rest,
                                                 const ObserverMotion& motion)
    : at_rest_(std::move(at_rest)), motion_(motion) {}

TracedRay MovingObserverSpacetime::trace(const Vec3& camera_direction) const {
  const Vec3 direction = motion_.static_direction(camera_direction);
  TracedRay ray = at_rest_->trace(direction);
  if (ray.status == RayStatus::escaped) ray.g *= motion_.doppler_of_static(direction);
  return ray;
}

}  // namespace starlens
