// frame.fits: the cube's planes and orientation read back through cfitsio, and its WCS read by
// wcslib's own header parser (wcspih) against the camera model's ray directions
// (lensmap/camera.h): a second implementation of each projection.
#include <doctest/doctest.h>
#include <fitsio.h>
#include <wcslib/wcs.h>
#include <wcslib/wcshdr.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core/errors.h"
#include "frame/fits_writer.h"
#include "frame_fixtures.h"
#include "lensmap/camera.h"

namespace fs = std::filesystem;
using namespace starlens;
using starlens::testing::field_frame;
using starlens::testing::fresh_folder;

namespace {

FrameCamera frame_camera(const Camera& camera, const std::string& projection) {
  FrameCamera result;
  result.projection = projection;
  result.fov_deg = camera.fov_degrees();
  result.width = camera.width();
  result.height = camera.height();
  result.forward = camera.axes().forward;
  result.right = camera.axes().right;
  result.up = camera.axes().up;
  result.focal_px = camera.focal_length();
  return result;
}

Camera make_camera(Projection projection, double fov, double ra, double dec, double roll,
                   std::uint32_t width, std::uint32_t height) {
  const Vec3 look = unit_vector_from_angles(ra * kDegree, dec * kDegree);
  return Camera(camera_axes(look, {0, 0, 1}, {1, 0, 0}, roll * kDegree), projection, fov, width,
                height);
}

struct FitsReader {
  fitsfile* file = nullptr;
  int status = 0;
  explicit FitsReader(const fs::path& path) {
    fits_open_diskfile(&file, path.c_str(), READONLY, &status);
  }
  ~FitsReader() {
    int ignored = 0;
    if (file) fits_close_file(file, &ignored);
  }
  FitsReader(const FitsReader&) = delete;
  FitsReader& operator=(const FitsReader&) = delete;
};

// The WCS of the file's primary header, parsed by wcslib.
struct ParsedWcs {
  wcsprm* wcs = nullptr;
  int count = 0;
  ~ParsedWcs() { wcsvfree(&count, &wcs); }
};

void parse_wcs(FitsReader& fits, ParsedWcs& parsed) {
  char* header = nullptr;
  int keys = 0;
  fits_hdr2str(fits.file, 1, nullptr, 0, &header, &keys, &fits.status);
  REQUIRE(fits.status == 0);
  int rejected = 0;
  REQUIRE(wcspih(header, keys, WCSHDR_none, 0, &rejected, &parsed.count, &parsed.wcs) == 0);
  fits_free_memory(header, &fits.status);
  REQUIRE(parsed.count >= 1);
  REQUIRE(parsed.wcs[0].naxis == 3);
  REQUIRE(wcsset(&parsed.wcs[0]) == 0);
}

double separation_arcsec(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b)) / kDegree * 3600;
}

// The largest angle between wcslib's world coordinates of FITS pixels and the camera's ray
// directions at the same points, over random points of the frame.
double worst_wcs_error_arcsec(const Camera& camera, const std::string& projection,
                              const fs::path& folder) {
  const Frame frame = field_frame(camera.width(), camera.height(), 3);
  FrameMetadata metadata;
  metadata.camera = frame_camera(camera, projection);
  const fs::path path = folder / (projection + ".fits");
  fs::remove(path);
  {
    OutputSet outputs(true);
    write_frame_fits(frame, outputs, path, metadata);
    outputs.commit();
  }
  FitsReader fits(path);
  REQUIRE(fits.status == 0);
  ParsedWcs parsed;
  parse_wcs(fits, parsed);
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> x(0.01, camera.width() - 0.01),
      y(0.01, camera.height() - 0.01);
  double worst = 0;
  for (int k = 0; k < 2000; ++k) {
    const double px = x(random), py = y(random);
    // A fisheye's corners past 180 degrees from forward repeat the sky: ARC stops there.
    if (projection == "fisheye" &&
        std::hypot(px - camera.width() / 2.0, py - camera.height() / 2.0) / camera.focal_length() >
            0.999 * std::numbers::pi)
      continue;
    // Pixel-corner coordinates, y down -> FITS pixel coordinates, rows from the bottom.
    double pixel[3] = {px + 0.5, camera.height() - py + 0.5, 4};
    double intermediate[3], phi[3], theta[3], world[3];
    int status = 0;
    REQUIRE(wcsp2s(&parsed.wcs[0], 1, 3, pixel, intermediate, phi, theta, world, &status) == 0);
    CHECK(world[2] == 4);  // the plane number
    const Vec3 from_wcs = unit_vector_from_angles(world[0] * kDegree, world[1] * kDegree);
    worst = std::max(worst, separation_arcsec(from_wcs, camera.direction(px, py)));
  }
  return worst;
}

}  // namespace

TEST_CASE("the WCS puts every pixel where the camera looks: TAN, ARC and CAR, rolled or not") {
  const auto folder = fresh_folder("fits_wcs");
  struct Case {
    Projection projection;
    const char* name;
    double fov, ra, dec, roll;
    std::uint32_t width, height;
  };
  const Case cases[] = {
      {Projection::pinhole, "pinhole", 60, 266.4, -28.9, 0, 160, 90},
      {Projection::pinhole, "pinhole", 20, 10, 45, 33, 90, 160},
      {Projection::pinhole, "pinhole", 0.05, 83.8, -5.4, -120, 200, 150},
      {Projection::pinhole, "pinhole", 40, 0, 89.999, 10, 64, 64},
      {Projection::fisheye, "fisheye", 180, 120, 30, 0, 128, 128},
      {Projection::fisheye, "fisheye", 300, 300, -70, 45, 100, 80},
      {Projection::equirect, "equirect", 360, 266.4, -28.9, 0, 180, 90},
      {Projection::equirect, "equirect", 360, 40, 60, 25, 120, 60},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.dec);
    CAPTURE(c.roll);
    const Camera camera = make_camera(c.projection, c.fov, c.ra, c.dec, c.roll, c.width, c.height);
    CHECK(worst_wcs_error_arcsec(camera, c.name, folder) < 1e-4);
  }
  fs::remove_all(folder);
}

TEST_CASE("the cube holds R, G, B and Y, bottom row first, and the keywords") {
  const auto folder = fresh_folder("fits_planes");
  const Camera camera = make_camera(Projection::pinhole, 30, 10, 20, 0, 7, 5);
  Frame frame = field_frame(7, 5, 11);
  FrameMetadata metadata;
  metadata.camera = frame_camera(camera, "pinhole");
  metadata.run_digest = "abc";
  metadata.frame_number = 12;
  const fs::path path = folder / "f.fits";
  {
    OutputSet outputs(false);
    write_frame_fits(frame, outputs, path, metadata);
    outputs.commit();
  }
  FitsReader fits(path);
  REQUIRE(fits.status == 0);
  int axes_count = 0;
  long axes[3] = {};
  fits_get_img_dim(fits.file, &axes_count, &fits.status);
  fits_get_img_size(fits.file, 3, axes, &fits.status);
  REQUIRE(axes_count == 3);
  CHECK(axes[0] == 7);
  CHECK(axes[1] == 5);
  CHECK(axes[2] == 4);
  std::vector<float> cube(7 * 5 * 4);
  long first[3] = {1, 1, 1};
  int any_null = 0;
  fits_read_pix(fits.file, TFLOAT, first, long(cube.size()), nullptr, cube.data(), &any_null,
                &fits.status);
  REQUIRE(fits.status == 0);
  for (std::uint32_t j = 0; j < 5; ++j)
    for (std::uint32_t i = 0; i < 7; ++i) {
      const double* rgb = frame.pixel(i, j);
      const std::size_t at = std::size_t(4 - j) * 7 + i;  // FITS row 1 is the bottom row
      for (int c = 0; c < 3; ++c) CHECK(cube[std::size_t(c) * 35 + at] == float(rgb[c]));
      CHECK(cube[3 * 35 + at] == float(0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]));
    }
  char value[FLEN_VALUE] = {};
  fits_read_key_str(fits.file, "BUNIT", value, nullptr, &fits.status);
  CHECK(std::string(value) == "Vega");
  fits_read_key_str(fits.file, "PLANE4", value, nullptr, &fits.status);
  CHECK(std::string(value) == "Y");
  fits_read_key_str(fits.file, "RUNDIGST", value, nullptr, &fits.status);
  CHECK(std::string(value) == "abc");
  long number = 0;
  fits_read_key_lng(fits.file, "FRAMENUM", &number, nullptr, &fits.status);
  CHECK(number == 12);
  CHECK(fits.status == 0);
  fs::remove_all(folder);
}

TEST_CASE("a FITS frame needs the camera of its size") {
  const auto folder = fresh_folder("fits_bad");
  const Frame frame = field_frame(8, 6, 2);
  OutputSet outputs(false);
  CHECK_THROWS_WITH_AS(
      write_frame_fits(frame, outputs, folder / "f.fits", FrameMetadata{}),
      doctest::Contains("f.fits: camera: a FITS frame needs the lens map's camera"), InputError);
  FrameMetadata metadata;
  metadata.camera = frame_camera(make_camera(Projection::pinhole, 30, 0, 0, 0, 9, 6), "pinhole");
  CHECK_THROWS_WITH_AS(write_frame_fits(frame, outputs, folder / "f.fits", metadata),
                       doctest::Contains("lens map of 9 x 6 px for a frame of 8 x 6"), InputError);
  Frame bad = frame;
  bad.rgb[4] = -1;
  metadata.camera = frame_camera(make_camera(Projection::pinhole, 30, 0, 0, 0, 8, 6), "pinhole");
  CHECK_THROWS_AS(write_frame_fits(bad, outputs, folder / "f.fits", metadata), RunFailure);
  outputs.abandon();
  CHECK(fs::is_empty(folder));
  fs::remove_all(folder);
}
