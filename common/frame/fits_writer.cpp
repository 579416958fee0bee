#include "frame/fits_writer.h"

#include <fitsio.h>

#include <array>
#include <cfloat>
#include <vector>

#include "core/errors.h"
#include "frame/fits_wcs.h"
#include "frame/frame_checks.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

constexpr std::array<const char*, 4> kPlanes = {"R", "G", "B", "Y"};

// cfitsio's status as one line naming the final path (its messages name the temporary).
[[noreturn]] void fits_failure(const std::string& name, int status) {
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  throw_run_failure(name, std::string("cannot write FITS: ") + text);
}

class FitsFile {
 public:
  FitsFile(const std::string& temp, const std::string& name) : name_(name) {
    // The disk-file variant: the name is taken as it is, never parsed as cfitsio's extended
    // file-name syntax ("file.fits[1]", "!file.fits").
    fits_create_diskfile(&file_, temp.c_str(), &status_);
    check();
  }
  ~FitsFile() {
    int ignored = 0;
    if (file_) fits_close_file(file_, &ignored);
  }
  FitsFile(const FitsFile&) = delete;
  FitsFile& operator=(const FitsFile&) = delete;

  fitsfile* get() { return file_; }
  int* status() { return &status_; }
  void check() const {
    if (status_) fits_failure(name_, status_);
  }
  void close() {
    fits_close_file(file_, &status_);
    file_ = nullptr;
    check();
  }

 private:
  std::string name_;
  fitsfile* file_ = nullptr;
  int status_ = 0;
};

void write_string(FitsFile& file, const char* key, const std::string& value, const char* comment) {
  fits_write_key_str(file.get(), key, value.c_str(), comment, file.status());
}

void write_double(FitsFile& file, const char* key, double value, const char* comment) {
  fits_write_key_dbl(file.get(), key, value, -15, comment, file.status());
}

void write_keywords(FitsFile& file, const FrameMetadata& metadata) {
  const FrameCamera& camera = *metadata.camera;
  write_string(file, "BUNIT", "Vega", "flux per pixel; 1 = an unlensed V=0 Vega-like star");
  write_string(file, "ORIGIN", "starlens", "");
  write_string(file, "COLORSPC", "linear sRGB", "Rec.709 primaries, D65 white");
  for (std::size_t k = 0; k < kPlanes.size(); ++k) {
    const std::string key = "PLANE" + std::to_string(k + 1);
    write_string(file, key.c_str(), kPlanes[k],
                 k == 3 ? "CIE Y = .2126 R + .7152 G + .0722 B" : "");
  }
  fits_write_key_lng(file.get(), "STLFMT", kFrameFormatVersion, "starlens frame format version",
                     file.status());
  write_string(file, "RUNDIGST", metadata.run_digest, "run_digest of the run's manifest");
  if (metadata.frame_number)
    fits_write_key_lng(file.get(), "FRAMENUM", *metadata.frame_number, "frame number",
                       file.status());
  write_string(file, "CAMPROJ", camera.projection, "camera projection");
  write_double(file, "CAMFOV", camera.fov_deg, "[deg] horizontal field of view");
  write_double(file, "CAMROLL", camera.roll_deg, "[deg] camera roll");
  if (metadata.scene) {
    const FrameScene& scene = *metadata.scene;
    write_string(file, "SPACETIM", scene.spacetime, "spacetime of the lens map");
    write_double(file, "ROBS", scene.r_obs, "[M] observer radius");
    if (scene.spacetime == "kerr") write_double(file, "SPIN", scene.spin, "[M] spin a");
    write_string(file, "OBSMOTN", scene.observer, "observer's motion");
    const char* axes[] = {"OBSVX", "OBSVY", "OBSVZ"};
    for (int k = 0; k < 3; ++k)
      write_double(file, axes[k], scene.observer_velocity[k], "[c] observer velocity, ICRS axis");
  }
  file.check();
}

// Plane by plane, row by row from the bottom (FITS row 1 is the bottom of the picture).
void write_planes(FitsFile& file, const Frame& frame) {
  std::vector<float> row(frame.width);
  for (long plane = 0; plane < long(kPlanes.size()); ++plane) {
    for (std::uint32_t fits_row = 1; fits_row <= frame.height; ++fits_row) {
      const std::uint32_t j = frame.height - fits_row;
      for (std::uint32_t i = 0; i < frame.width; ++i) {
        const double* rgb = frame.pixel(i, j);
        const double value = plane < 3 ? rgb[plane] : luminance(rgb);
        row[i] = value >= double(FLT_MAX) ? FLT_MAX : float(value);
      }
      long first[3] = {1, long(fits_row), plane + 1};
      fits_write_pix(file.get(), TFLOAT, first, long(frame.width), row.data(), file.status());
      file.check();
    }
  }
}

}  // namespace

void write_frame_fits(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                      const FrameMetadata& metadata) {
  const std::string name = path.string();
  require_pixels(frame, name);
  require_finite_non_negative(frame, name);
  if (!metadata.camera)
    throw_input_error(name, "camera", "a FITS frame needs the lens map's camera (--lensmap)");
  if (metadata.camera->width != frame.width || metadata.camera->height != frame.height)
    throw_input_error(name, "camera",
                      "lens map of " + std::to_string(metadata.camera->width) + " x " +
                          std::to_string(metadata.camera->height) + " px for a frame of " +
                          std::to_string(frame.width) + " x " + std::to_string(frame.height));
  const std::vector<std::string> wcs_cards = camera_wcs_cards(*metadata.camera, name);
  const std::filesystem::path& temp = outputs.add(path);
  FitsFile file(temp.string(), name);
  long axes[3] = {long(frame.width), long(frame.height), long(kPlanes.size())};
  fits_create_img(file.get(), FLOAT_IMG, 3, axes, file.status());
  file.check();
  for (const std::string& card : wcs_cards)
    fits_write_record(file.get(), card.c_str(), file.status());
  file.check();
  write_keywords(file, metadata);
  write_planes(file, frame);
  file.close();
}

}  // namespace starlens
