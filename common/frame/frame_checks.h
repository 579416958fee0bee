#pragma once
// Checks shared by the frame writers: a frame must have pixels, and its values must be what
// docs/design.md section 2 allows in a framebuffer (finite, never negative).
#include <string>

#include "frame/frame.h"

namespace starlens {

// Throws InputError("<path>: frame of size 0 x H") when the frame has no pixel, RunFailure when
// its storage does not match its size.
void require_pixels(const Frame& frame, const std::string& path);

// Throws RunFailure naming the output, the first offending pixel (row-major), its channel and
// value when any value is negative or non-finite.
void require_finite_non_negative(const Frame& frame, const std::string& path);

}  // namespace starlens
