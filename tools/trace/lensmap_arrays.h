#pragma once
// The refined mesh as lensmap.h5's arrays: only vertices that a final triangle uses (kept,
// shadow or dropped) are written, renumbered in creation order.
#include "lensmap/lensmap_file.h"
#include "mesh_refiner.h"

namespace starlens {

LensmapArrays to_lensmap_arrays(const RefinedMesh& mesh);

}  // namespace starlens
