#pragma once
// frame.fits (docs/formats/frame.md): the frame as a FITS cube of four planes R, G, B, Y
// (32-bit floats, Vega units per pixel), rows from the bottom of the picture, with the
// celestial WCS of its camera (fits_wcs.h), written through cfitsio.
#include <filesystem>

#include "core/output_set.h"
#include "frame/frame.h"
#include "frame/frame_io.h"
#include "frame/frame_metadata.h"

namespace starlens {

// An output of `outputs` (added to it if it is not yet), visible at its commit. Needs the
// camera (InputError naming the path otherwise, or when the camera's size is not the frame's);
// refuses negative or non-finite values (RunFailure).
void write_frame_fits(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                      const FrameMetadata& metadata, const RowsWritten& rows_written = {});

}  // namespace starlens
