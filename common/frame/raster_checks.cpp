#include "frame/raster_checks.h"

#include <cstdint>

#include "core/errors.h"
#include "frame/frame_checks.h"

namespace starlens {

void check_raster(const Raster& raster, const FrameMetadata& metadata, const std::string& name) {
  if (raster.width == 0 || raster.height == 0) throw_input_error(name, "", "a raster of 0 pixels");
  if (raster.width > std::uint32_t(INT32_MAX) || raster.height > std::uint32_t(INT32_MAX))
    throw_input_error(name, "", "raster larger than 2^31 - 1 pixels a side");
  if (raster.planes.empty()) throw_input_error(name, "", "a raster without planes");
  for (const RasterPlane& plane : raster.planes)
    if (plane.values.size() != std::size_t(raster.width) * raster.height)
      throw_input_error(name, plane.name, "plane of the wrong size");
  require_camera_size(metadata, raster.width, raster.height, "raster", name);
}

}  // namespace starlens
