#include "frame/raster_checks.h"

#include <cstdint>

#include "core/errors.h"

namespace starlens {

void check_raster(const Raster& raster, const FrameMetadata& metadata, const std::string& name) {
  if (raster.width == 0 || raster.height == 0) throw_input_error(name, "", "a raster of 0 pixels");
  if (raster.width > std::uint32_t(INT32_MAX) || raster.height > std::uint32_t(INT32_MAX))
    throw_input_error(name, "", "raster larger than 2^31 - 1 pixels a side");
  if (raster.planes.empty()) throw_input_error(name, "", "a raster without planes");
  for (const RasterPlane& plane : raster.planes)
    if (plane.values.size() != std::size_t(raster.width) * raster.height)
      throw_input_error(name, plane.name, "plane of the wrong size");
  if (metadata.camera &&
      (metadata.camera->width != raster.width || metadata.camera->height != raster.height))
    throw_input_error(name, "camera",
                      "camera of " + std::to_string(metadata.camera->width) + " x " +
                          std::to_string(metadata.camera->height) + " px for a raster of " +
                          std::to_string(raster.width) + " x " + std::to_string(raster.height));
}

}  // namespace starlens
