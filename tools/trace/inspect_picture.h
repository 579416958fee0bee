#pragma once
// The diagnostic picture of a lens map: each pixel centre covered by a kept triangle shows
// the source direction interpolated there, as a coloured latitude/longitude grid in the frame
// the hole was placed in (hue from longitude, a 10-degree checkerboard, white lines every
// 30 degrees); pixels no kept triangle covers (the shadow, dropped triangles) stay black.
// With edges, every triangle's edges are drawn in grey over it.
#include "frame/frame.h"
#include "lensmap/lensmap_file.h"

namespace starlens {

Frame render_lensmap_picture(const LensmapReader& reader, bool edges);

}  // namespace starlens
