#pragma once
// What every raster writer checks before it creates a file.
#include <string>

#include "frame/frame_metadata.h"
#include "frame/raster.h"

namespace starlens {

// InputError naming `name` for a raster without pixels or planes, a plane of the wrong size,
// a size beyond OpenEXR's and FITS's 2^31 - 1 pixels a side, or a camera of another size.
void check_raster(const Raster& raster, const FrameMetadata& metadata, const std::string& name);

}  // namespace starlens
