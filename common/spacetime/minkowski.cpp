#include "spacetime/minkowski.h"

namespace starlens {

TracedRay MinkowskiSpacetime::trace(const Vec3& camera_direction) const {
  return TracedRay{RayStatus::escaped, camera_direction, 1.0, 0};
}

}  // namespace starlens
