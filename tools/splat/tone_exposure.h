#pragma once
// The automatic PNG exposure: the 99.9th percentile of pixel luminance Y over lit pixels,
// so that a star field's few bright cores saturate and the faint field stays visible.
#include "frame/frame.h"

namespace starlens {

double automatic_exposure(const Frame& frame);

}  // namespace starlens
