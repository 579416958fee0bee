#pragma once
// The largest frame any starlens file may declare (docs/formats/events.md, frame.md and
// lensmap.md, "Limits"): each side at most 65,536 px and at most 2^28 pixels in all. A frame of
// 2^28 pixels holds 6 GiB of doubles; OpenEXR's ZIP blocks of 16 scanlines of the nine
// channels (36 bytes a pixel) stay near 38 MB for the widest frame, far below the 2 GiB where
// its int-sized line buffers overflow. The limit is the format's, not the machine's: splat also
// checks the memory a frame needs against the memory available.
#include <cstdint>
#include <string>

namespace starlens {

inline constexpr std::int64_t kMaxFrameSide = std::int64_t{1} << 16;
inline constexpr std::int64_t kMaxFramePixels = std::int64_t{1} << 28;

// Throws InputError naming `file` and `width_field` or `height_field` (each side 1..65536) or
// both (more than 2^28 pixels).
void check_frame_size(const std::string& file, const std::string& width_field,
                      const std::string& height_field, std::int64_t width, std::int64_t height);

}  // namespace starlens
