#pragma once
// The spacetime of a traced lens map, rebuilt from its root attributes (docs/formats/lensmap.md)
// as starlens-trace built it (docs/design.md section 3): the observer at r_obs seeing the hole
// in its direction, the camera's velocity (observer_velocity, ICRS components; for Kerr relative
// to the ZAMO), and for Kerr the spin, the inclination and the spin axis's position angle on the
// sky from the placement frame's north through east. Its rays are the map's rays: traced at a
// vertex's pixel they give the vertex's stored direction.
#include <memory>
#include <string>

#include "lensmap/lensmap_file.h"
#include "spacetime/spacetime.h"

namespace starlens::produce {

// motion: the camera's, from observer_velocity (lens_mesh_input.h checks it). Throws
// InputError naming `path` and the attributes for values no spacetime is made from.
std::unique_ptr<const Spacetime> lensmap_spacetime(const LensmapAttributes& attributes,
                                                   const ObserverMotion& motion,
                                                   const std::string& path);

}  // namespace starlens::produce
