#pragma once
// Checks shared by the frame writers: a frame must have pixels, and its values must be what
// docs/design.md section 2 allows in a framebuffer (finite, never negative).
#include <string>

#include "frame/frame.h"
#include "frame/frame_metadata.h"

namespace starlens {

// Throws InputError("<path>: frame of size 0 x H") when the frame has no pixel, RunFailure when
// its storage does not match its size.
void require_pixels(const Frame& frame, const std::string& path);

// Throws RunFailure naming the output, the first offending pixel (row-major), its channel and
// value when any value is negative or non-finite.
void require_finite_non_negative(const Frame& frame, const std::string& path);

// Throws InputError("<path>: camera: lens map of W x H px for a <what> of w x h") when the
// metadata holds a camera of another size than the picture's.
void require_camera_size(const FrameMetadata& metadata, std::uint32_t width, std::uint32_t height,
                         const std::string& what, const std::string& path);

}  // namespace starlens
