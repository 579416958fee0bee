#pragma once
// `starlens-trace inspect lensmap.h5 [--png out.png [--edges]] [--quantity LIST --raster
// out.exr|out.fits]`: a summary of the map, a diagnostic picture of it and per-pixel rasters of
// its quantities (lensmap_raster.h).
#include <string>

namespace starlens {

struct InspectOptions {
  std::string lensmap;
  std::string png;
  bool edges = false;
  std::string quantity;  // comma-separated (lensmap_raster.h)
  std::string raster;    // .exr or .fits
  bool force = false;
};

int run_inspect(const InspectOptions& options);

}  // namespace starlens
