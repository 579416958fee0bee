#pragma once
// Lens-map rasters on disk (docs/formats/frame.md, "Rasters"): an OpenEXR file of FLOAT
// channels, one a plane, named as the planes are; or a FITS cube of float64 planes with the
// camera's celestial WCS (fits_wcs.h) and PLANEn / UNITn keywords naming each plane. Both carry
// the camera and the scene of `metadata` as frame files do.
#include <filesystem>

#include "core/output_set.h"
#include "frame/frame_metadata.h"
#include "frame/raster.h"

namespace starlens {

// Outputs of `outputs`, visible at its commit. InputError naming the path when the raster has
// no pixels or no planes, or the camera (required for FITS) is not the raster's size.
void write_raster_exr(const Raster& raster, OutputSet& outputs, const std::filesystem::path& path,
                      const FrameMetadata& metadata);
void write_raster_fits(const Raster& raster, OutputSet& outputs, const std::filesystem::path& path,
                       const FrameMetadata& metadata);

}  // namespace starlens
