#pragma once
// A spacetime seen by a camera moving through the static observer's place (observer_motion.h):
// each camera ray is turned into the static observer's direction, traced there, and its
// frequency ratio multiplied by the Doppler factor of the motion.
#include <memory>

#include "spacetime/observer_motion.h"
#include "spacetime/spacetime.h"

namespace starlens {

class MovingObserverSpacetime final : public Spacetime {
 public:
  MovingObserverSpacetime(std::unique_ptr<Spacetime> at_rest, const ObserverMotion& motion);
  std::string name() const override { return at_rest_->name(); }
  TracedRay trace(const Vec3& camera_direction) const override;
  const Spacetime& at_rest() const { return *at_rest_; }
  const ObserverMotion& motion() const { return motion_; }

 private:
  std::unique_ptr<Spacetime> at_rest_;
  ObserverMotion motion_;
};

}  // namespace starlens
