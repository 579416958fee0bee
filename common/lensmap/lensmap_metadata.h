#pragma once
// The camera and the scene of a traced lens map (--lensmap), as a frame's metadata: what the
// EXR header records and what the FITS WCS is built from.
#include <string>

#include "frame/frame_metadata.h"
#include "lensmap/lensmap_file.h"

namespace starlens {

// Reads the lens map's root attributes (LensmapReader: InputError naming the file and the
// attribute) and rebuilds its camera as starlens-trace built it.
void describe_lensmap(const std::string& path, FrameMetadata& metadata);
// The same from a map already open.
void describe_lensmap(const LensmapReader& reader, const std::string& path,
                      FrameMetadata& metadata);

}  // namespace starlens
