#include "frame/png_writer.h"

#include <png.h>

#include <string>

#include "core/errors.h"

namespace starlens {

void write_rgb8_png(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                    const std::vector<std::uint8_t>& rgb, bool force) {
  OutputSet outputs(force);
  write_rgb8_png(outputs, path, width, height, rgb);
  outputs.commit();
}

void write_rgb8_png(OutputSet& outputs, const std::filesystem::path& path, std::uint32_t width,
                    std::uint32_t height, const std::vector<std::uint8_t>& rgb) {
  const std::string name = path.string();
  if (rgb.size() != std::size_t(width) * height * 3)
    throw_run_failure(name, "PNG pixel buffer does not match " + std::to_string(width) + " x " +
                                std::to_string(height));
  const std::filesystem::path& temp = outputs.add(path);
  // libpng's simplified API reports errors through `image.message` instead of longjmp, so no
  // C++ frame is ever jumped over. 8-bit input without COLORSPACE_NOT_sRGB gets an sRGB chunk.
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  const int written = png_image_write_to_file(&image, temp.c_str(), 0, rgb.data(), 0, nullptr);
  const std::string message = image.message;
  png_image_free(&image);
  if (!written) throw_run_failure(name, "cannot write PNG: " + message);
}

}  // namespace starlens
