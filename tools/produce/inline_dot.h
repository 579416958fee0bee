#pragma once
// sky/frames.h's dot() lives in another translation unit; the producer's inner loops need it
// inlined.
#include "optics/host_device.h"
#include "sky/frames.h"

namespace starlens::produce {

STARLENS_HOST_DEVICE inline double inline_dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

}  // namespace starlens::produce
