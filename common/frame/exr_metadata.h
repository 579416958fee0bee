#pragma once
// The frame's metadata (frame_metadata.h) as attributes of the EXR header of part 0
// (docs/formats/frame.md, "Header"), written and read back.
#include <ImfForward.h>

#include <string>

#include "frame/frame_metadata.h"

namespace starlens {

// Adds the starlens attributes (format version, run digest, exposure, frame number, camera,
// scene) and, for an equirect camera, the standard envmap = latlong.
void add_frame_metadata(Imf::Header& header, const FrameMetadata& metadata);

// The attributes present in `header` but the run digest; an absent exposure is 1. Throws InputError
// naming `path` and the attribute when one has the wrong type or the exposure is not positive and
// finite.
FrameMetadata read_frame_metadata(const Imf::Header& header, const std::string& path);

}  // namespace starlens
