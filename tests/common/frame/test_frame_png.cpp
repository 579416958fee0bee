// The tone-mapped PNG: its bytes against the sRGB curve computed here, and its bad paths.
#include <doctest/doctest.h>
#include <png.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "core/errors.h"
#include "frame/frame_io.h"
#include "frame_fixtures.h"

namespace fs = std::filesystem;
using namespace starlens;
using starlens::testing::fresh_folder;

namespace {

// IEC 61966-2-1, written out here independently of the library's copy.
double reference_oetf(double linear) {
  if (linear <= 0.0031308) return 12.92 * linear;
  return 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}
// Its inverse (the sRGB EOTF), a second, separate check of each byte.
double reference_eotf(double encoded) {
  if (encoded <= 0.04045) return encoded / 12.92;
  return std::pow((encoded + 0.055) / 1.055, 2.4);
}

std::vector<std::uint8_t> read_png_rgb(const fs::path& path, std::uint32_t& width,
                                       std::uint32_t& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  REQUIRE(png_image_begin_read_from_file(&image, path.c_str()) != 0);
  image.format = PNG_FORMAT_RGB;
  std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(image));
  REQUIRE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) != 0);
  width = image.width;
  height = image.height;
  return pixels;
}

}  // namespace

TEST_CASE("PNG bytes follow value / exposure, the sRGB curve, clamping and rounding") {
  const auto folder = fresh_folder("png_curve");
  const double exposure = 2.5;
  // A ramp over [0, 1.3 x exposure] dense near the curve's linear segment, plus exact points.
  const std::uint32_t width = 257, height = 3;
  Frame frame(width, height);
  for (std::uint32_t i = 0; i < width; ++i) {
    const double t = double(i) / (width - 1);
    frame.pixel(i, 0)[0] = 1.3 * exposure * t;
    frame.pixel(i, 0)[1] = exposure * 0.01 * t;  // around the 0.0031308 knee
    frame.pixel(i, 0)[2] = exposure * t * t * t;
    for (int c = 0; c < 3; ++c)
      frame.pixel(i, 1)[c] = exposure * std::pow(10.0, -6.0 * t) * (c + 1) / 3;
  }
  // Published points: linear 0.5 -> 0.7354 (188), 0.18 -> 0.4614 (118), 0.001 -> 0.01292 (3).
  const double linear_points[] = {0.5, 0.18, 0.001, 1.0, 0.0, 4.0};
  const int published_bytes[] = {188, 118, 3, 255, 0, 255};
  for (std::uint32_t k = 0; k < 6; ++k) frame.pixel(k, 2)[0] = linear_points[k] * exposure;

  const auto path = folder / "frame.png";
  write_frame_png(frame, path, exposure, false);
  std::uint32_t read_width = 0, read_height = 0;
  const auto bytes = read_png_rgb(path, read_width, read_height);
  REQUIRE(read_width == width);
  REQUIRE(read_height == height);
  for (std::uint32_t j = 0; j < height; ++j) {
    for (std::uint32_t i = 0; i < width; ++i) {
      for (int c = 0; c < 3; ++c) {
        const double linear = std::min(std::max(frame.pixel(i, j)[c] / exposure, 0.0), 1.0);
        const int byte = bytes[3 * (j * width + i) + c];
        CAPTURE(linear);
        CHECK(byte == int(std::floor(255.0 * reference_oetf(linear) + 0.5)));
        // The decoded byte's rounding interval contains the linear value.
        CHECK(reference_eotf(std::max(byte - 0.5, 0.0) / 255.0) <= linear * (1 + 1e-12));
        CHECK(reference_eotf(std::min(byte + 0.5, 255.0) / 255.0) >= linear * (1 - 1e-12));
      }
    }
  }
  for (std::uint32_t k = 0; k < 6; ++k) CHECK(bytes[3 * (2 * width + k)] == published_bytes[k]);
  // The file declares its colour space.
  std::ifstream file(path, std::ios::binary);
  const std::string content{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  CHECK(content.find("sRGB") != std::string::npos);
  fs::remove_all(folder);
}

TEST_CASE("a PNG in a missing folder is bad input and leaves no file") {
  const auto folder = fresh_folder("png_missing");
  const Frame frame(4, 4);
  CHECK_THROWS_WITH_AS(write_frame_png(frame, folder / "absent" / "f.png", 1.0, false),
                       doctest::Contains("does not exist"), InputError);
  CHECK_FALSE(fs::exists(folder / "absent"));
  CHECK(fs::is_empty(folder));
  fs::remove_all(folder);
}

TEST_CASE("bad exposures, bad values, empty frames and existing files are refused") {
  const auto folder = fresh_folder("png_bad");
  Frame frame(4, 4);
  for (const double exposure : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity()})
    CHECK_THROWS_WITH_AS(write_frame_png(frame, folder / "f.png", exposure, false),
                         doctest::Contains("exposure"), InputError);
  CHECK_THROWS_WITH_AS(write_frame_png(Frame(0, 0), folder / "f.png", 1.0, false),
                       doctest::Contains("frame of size 0"), InputError);
  frame.pixel(1, 2)[0] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(write_frame_png(frame, folder / "f.png", 1.0, false),
                       doctest::Contains("pixel (1, 2) channel R"), RunFailure);
  CHECK(fs::is_empty(folder));
  frame.pixel(1, 2)[0] = 0.0;
  write_frame_png(frame, folder / "f.png", 1.0, false);
  CHECK_THROWS_WITH_AS(write_frame_png(frame, folder / "f.png", 1.0, false),
                       doctest::Contains("--force"), InputError);
  CHECK_NOTHROW(write_frame_png(frame, folder / "f.png", 1.0, true));
  fs::remove_all(folder);
}
