#pragma once
// Per-pixel rasters of a lens map (`starlens-trace inspect --quantity`, docs/usage/trace.md):
// at each pixel centre covered by a kept triangle, the map's quantities interpolated or
// evaluated there; NaN where no kept triangle covers the centre (the shadow, dropped
// triangles).
//   mu          the magnification: for a Schwarzschild map seen by a static observer the exact
//               point value sin(psi) / (|sin(phi)| |d phi / d psi|) of the pixel centre's ray
//               (psi its angle from the hole, phi its escape azimuth), else the triangle's
//   parity      +1, or -1 where lensing mirrors the image (the triangle's)
//   g           nu_obs / nu_source, interpolated from the vertices
//   deflection  degrees between the pixel's camera ray and the source direction
//   source      source.lon, source.lat: the source direction in the frame the hole was placed
//               in (bh_frame), degrees
//   critical    1 on pixels beside a covered pixel of the other parity (the critical curves),
//               0 on other covered pixels
//   stmap       R, G: the texture coordinates (s, t) of the source direction in a lat-long image
//               of bh_frame (OpenEXR's latlong: longitude +180 at the left edge to -180 at the
//               right, s = 0.5 - lon / 360; t = 0.5 + lat / 180 from the bottom edge, as Nuke's
//               STMap reads them), B = 0, A = 1 where covered; 0 elsewhere
#include <string>
#include <vector>

#include "frame/raster.h"
#include "lensmap/lensmap_file.h"

namespace starlens {

enum class LensmapQuantity { mu, parity, g, deflection, source, critical, stmap };

// A comma-separated list of the names above, each at most once; InputError naming --quantity.
std::vector<LensmapQuantity> parse_lensmap_quantities(const std::string& list);

// Whether the mu plane holds exact point values (a static observer's Schwarzschild map).
bool has_point_magnification(const LensmapAttributes& attributes);

Raster rasterize_lensmap(const LensmapReader& reader, const std::string& path,
                         const std::vector<LensmapQuantity>& quantities);

}  // namespace starlens
