#include "core/frame_limits.h"

#include "core/errors.h"

namespace starlens {

void check_frame_size(const std::string& file, const std::string& width_field,
                      const std::string& height_field, std::int64_t width, std::int64_t height) {
  const std::string range = " is outside 1.." + std::to_string(kMaxFrameSide) + " px";
  if (width < 1 || width > kMaxFrameSide)
    throw_input_error(file, width_field, std::to_string(width) + range);
  if (height < 1 || height > kMaxFrameSide)
    throw_input_error(file, height_field, std::to_string(height) + range);
  if (width * height > kMaxFramePixels)
    throw_input_error(file, width_field + " x " + height_field,
                      std::to_string(width) + " x " + std::to_string(height) + " = " +
                          std::to_string(width * height) + " pixels, more than a frame may have (" +
                          std::to_string(kMaxFramePixels) + " = 2^28)");
}

}  // namespace starlens
