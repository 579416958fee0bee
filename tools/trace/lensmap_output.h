#pragma once
// The refined mesh written as lensmap.h5, streamed in blocks of rows: only vertices that a
// final triangle uses (kept, shadow or dropped) are written, renumbered in creation order.
#include <filesystem>
#include <string>

#include "lensmap/lensmap_file.h"
#include "mesh_refiner.h"

namespace starlens {

void write_refined_mesh(const std::filesystem::path& path, const std::string& display_path,
                        const LensmapAttributes& attributes, const RefinedMesh& mesh);

}  // namespace starlens
