// write_frame_png: tone mapping (value / exposure, sRGB curve, clamp, rounding) then libpng.
#include <cmath>
#include <sstream>

#include "core/errors.h"
#include "frame/frame_checks.h"
#include "frame/frame_io.h"
#include "frame/png_writer.h"
#include "frame/srgb_transfer.h"

namespace starlens {

void write_frame_png(const Frame& frame, const std::filesystem::path& path, double exposure,
                     bool force) {
  OutputSet outputs(force);
  write_frame_png(frame, outputs, path, exposure);
  outputs.commit();
}

void write_frame_png(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     double exposure) {
  const std::string name = path.string();
  if (!std::isfinite(exposure) || exposure <= 0.0) {
    std::ostringstream value;
    value << exposure;
    throw_input_error(name, "exposure", "must be a positive finite number, got " + value.str());
  }
  require_pixels(frame, name);
  require_finite_non_negative(frame, name);
  std::vector<std::uint8_t> bytes(frame.rgb.size());
  for (std::size_t k = 0; k < frame.rgb.size(); ++k) bytes[k] = srgb_byte(frame.rgb[k], exposure);
  write_rgb8_png(outputs, path, frame.width, frame.height, bytes);
}

}  // namespace starlens
