#pragma once
// lensmap.h5 -> LensMesh, through the lens map module's reader (common/lensmap), optionally
// only the triangles of --triangles A:B.
#include <optional>

#include "lens_mesh.h"
#include "lensmap/lensmap_file.h"
#include "run_bounds.h"

namespace starlens::produce {

// Reads every vertex (in pieces) and the selected triangles. InputError naming the file and
// dataset for what the reader rejects and for a kept triangle with a vertex that did not
// escape.
LensMesh load_lens_mesh(const LensmapReader& reader, const std::string& path,
                        const std::optional<IndexRange>& triangles);

}  // namespace starlens::produce
