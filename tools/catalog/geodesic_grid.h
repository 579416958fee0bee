#pragma once
// Stellarium's geodesic grid (CATALOG_FORMATS.md section 1): an icosahedron's 20 triangles
// subdivided L times; a star's position is stored relative to its zone's centre.
#include <cstdint>
#include <vector>

#include "sky/frames.h"

namespace starlens::catalog {

// One zone of a level: its corners, centre and the tangent-plane axes of its stars.
struct GeodesicZone {
  Vec3 corners[3];
  Vec3 centre;  // n(c0 + c1 + c2)
  Vec3 axis0;   // n(zhat x centre)
  Vec3 axis1;   // centre x axis0
};

// The 20 * 4^level zones of a level, zone z of level l+1 being child z % 4 of zone z / 4.
std::vector<GeodesicZone> geodesic_zones(int level);

}  // namespace starlens::catalog
