#include "frame/frame_checks.h"

#include <cmath>
#include <sstream>

#include "core/errors.h"
#include "core/frame_limits.h"

namespace starlens {

void require_pixels(const Frame& frame, const std::string& path) {
  if (frame.width == 0 || frame.height == 0)
    throw_input_error(path, "",
                      "frame of size 0 (" + std::to_string(frame.width) + " x " +
                          std::to_string(frame.height) + ")");
  check_frame_size(path, "width", "height", frame.width, frame.height);
  if (frame.rgb.size() != std::size_t(frame.width) * frame.height * 3)
    throw_run_failure(path, "frame storage holds " + std::to_string(frame.rgb.size()) +
                                " values, not 3 x " + std::to_string(frame.width) + " x " +
                                std::to_string(frame.height));
}

void require_finite_non_negative(const Frame& frame, const std::string& path) {
  static constexpr char kChannelNames[] = {'R', 'G', 'B'};
  for (std::size_t index = 0; index < frame.rgb.size(); ++index) {
    const double value = frame.rgb[index];
    if (std::isfinite(value) && value >= 0.0) continue;
    const std::size_t pixel = index / 3;
    std::ostringstream message;
    message.precision(17);
    message << "pixel (" << pixel % frame.width << ", " << pixel / frame.width << ") channel "
            << kChannelNames[index % 3] << " is " << value
            << " (frames hold only finite, non-negative values)";
    throw_run_failure(path, message.str());
  }
}

void require_camera_size(const FrameMetadata& metadata, std::uint32_t width, std::uint32_t height,
                         const std::string& what, const std::string& path) {
  if (!metadata.camera || (metadata.camera->width == width && metadata.camera->height == height))
    return;
  throw_input_error(path, "camera",
                    "lens map of " + std::to_string(metadata.camera->width) + " x " +
                        std::to_string(metadata.camera->height) + " px for a " + what + " of " +
                        std::to_string(width) + " x " + std::to_string(height));
}

}  // namespace starlens
