#pragma once
// A per-pixel raster of named quantities over a camera's pixels (the lens-map rasters of
// `starlens-trace inspect --raster`, docs/formats/frame.md "Rasters"): row-major planes of
// doubles, pixel (i, j) at values[j * width + i], NaN where the quantity is undefined. Plain
// data.
#include <cstdint>
#include <string>
#include <vector>

namespace starlens {

struct RasterPlane {
  std::string name;  // the EXR channel and FITS plane name
  std::string unit;  // FITS-style unit string, "" when dimensionless
  std::string description;
  std::vector<double> values;
};

struct Raster {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<RasterPlane> planes;

  RasterPlane& add_plane(std::string name, std::string unit, std::string description, double fill) {
    planes.push_back({std::move(name), std::move(unit), std::move(description),
                      std::vector<double>(std::size_t(width) * height, fill)});
    return planes.back();
  }
};

}  // namespace starlens
