#pragma once
// The celestial WCS of a frame's camera (FITS WCS Papers I and II; docs/formats/frame.md,
// "frame.fits"): RA/Dec in the observer's sky (ICRS axes), TAN for pinhole, ARC for fisheye,
// CAR for equirect, for FITS pixel (1, 1) at the centre of the frame's bottom-left pixel.
#include <string>
#include <vector>

#include "frame/frame_metadata.h"

namespace starlens {

// The WCS header cards (80 characters each, as wcslib's wcshdo writes them) of the cube's
// three-axis WCS: the celestial WCS of `camera` on axes 1 and 2, the plane number (1..4,
// linear) on axis 3. Throws RunFailure naming `path` if wcslib refuses it.
std::vector<std::string> camera_wcs_cards(const FrameCamera& camera, const std::string& path);

}  // namespace starlens
