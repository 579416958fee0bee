#pragma once
// Flat spacetime: every ray escapes straight, so the source direction is the camera direction
// and g = 1. The end-to-end check of the pipeline.
#include "spacetime/spacetime.h"

namespace starlens {

class MinkowskiSpacetime final : public Spacetime {
 public:
  std::string name() const override { return "minkowski"; }
  TracedRay trace(const Vec3& camera_direction) const override;
};

}  // namespace starlens
