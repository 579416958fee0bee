#pragma once
// An OpenEXR file's headers walked and bounded before OpenEXR reads them (docs/formats/frame.md,
// "Limits"): OpenEXR allocates what an attribute declares before it judges the value.
#include <string>

namespace starlens {

// InputError naming `path` (and the part and attribute) for a file that is missing, not a
// regular file, not OpenEXR, or whose headers declare attributes larger than the file holds,
// than 16 MiB, or of a size other than their type's.
void require_openable_exr(const std::string& path);

}  // namespace starlens
