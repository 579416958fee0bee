#include "frame/png_writer.h"

#include <png.h>

#include <string>

#include "core/atomic_output.h"
#include "core/errors.h"

namespace starlens {

void write_rgb8_png(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                    const std::vector<std::uint8_t>& rgb, bool force) {
  const std::string name = path.string();
  if (rgb.size() != std::size_t(width) * height * 3)
    throw_run_failure(name, "PNG pixel buffer does not match " + std::to_string(width) + " x " +
                                std::to_string(height));
  AtomicOutput output(path, force);
  // libpng's simplified API reports errors through `image.message` instead of longjmp, so no
  // C++ frame is ever jumped over. 8-bit input without COLORSPACE_NOT_sRGB gets an sRGB chunk.
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  const int written =
      png_image_write_to_file(&image, output.temp_path().c_str(), 0, rgb.data(), 0, nullptr);
  const std::string message = image.message;
  png_image_free(&image);
  if (!written) throw_run_failure(name, "cannot write PNG: " + message);
  output.commit();
}

}  // namespace starlens
