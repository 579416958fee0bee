#pragma once
// Writes 8-bit RGB pixels (already sRGB-encoded) as a PNG with an sRGB chunk, atomically.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/output_set.h"

namespace starlens {

// `rgb` holds width x height x 3 bytes, row-major from the top row. Throws InputError for a
// path that may not be written (missing folder, existing file without `force`), RunFailure
// when libpng fails.
void write_rgb8_png(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                    const std::vector<std::uint8_t>& rgb, bool force);
// The same as an output of `outputs` (added to it if it is not yet), visible at its commit.
void write_rgb8_png(OutputSet& outputs, const std::filesystem::path& path, std::uint32_t width,
                    std::uint32_t height, const std::vector<std::uint8_t>& rgb);

}  // namespace starlens
