#include "frame/fits_file.h"

#include <fitsio.h>

#include "core/errors.h"
#include "frame/frame_io.h"

namespace starlens {

FitsFile::FitsFile(const std::string& temp, const std::string& name) : name_(name) {
  fits_create_diskfile(&file_, temp.c_str(), &status_);
  check();
}

FitsFile::~FitsFile() {
  int ignored = 0;
  if (file_) fits_close_file(file_, &ignored);
}

void FitsFile::check() const {
  if (!status_) return;
  // cfitsio's messages name the temporary; the final name is the one the user gave.
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status_, text);
  throw_run_failure(name_, std::string("cannot write FITS: ") + text);
}

void FitsFile::close() {
  fits_close_file(file_, &status_);
  file_ = nullptr;
  check();
}

void FitsFile::write_string(const char* key, const std::string& value, const char* comment) {
  fits_write_key_str(file_, key, value.c_str(), comment, &status_);
}

void FitsFile::write_double(const char* key, double value, const char* comment) {
  fits_write_key_dbl(file_, key, value, -15, comment, &status_);
}

void FitsFile::write_integer(const char* key, long long value, const char* comment) {
  fits_write_key_lng(file_, key, value, comment, &status_);
}

void FitsFile::write_cards(const std::vector<std::string>& cards) {
  for (const std::string& card : cards) fits_write_record(file_, card.c_str(), &status_);
  check();
}

void write_camera_and_scene(FitsFile& file, const FrameMetadata& metadata) {
  const FrameCamera& camera = *metadata.camera;
  file.write_string("ORIGIN", "starlens", "");
  file.write_integer("STLFMT", kFrameFormatVersion, "starlens frame format version");
  file.write_string("RUNDIGST", metadata.run_digest, "run_digest of the run's manifest");
  if (metadata.frame_number) file.write_integer("FRAMENUM", *metadata.frame_number, "frame number");
  file.write_string("CAMPROJ", camera.projection, "camera projection");
  file.write_double("CAMFOV", camera.fov_deg, "[deg] horizontal field of view");
  file.write_double("CAMROLL", camera.roll_deg, "[deg] camera roll");
  if (metadata.scene) {
    const FrameScene& scene = *metadata.scene;
    file.write_string("SPACETIM", scene.spacetime, "spacetime of the lens map");
    file.write_double("ROBS", scene.r_obs, "[M] observer radius");
    if (scene.spacetime == "kerr") file.write_double("SPIN", scene.spin, "[M] spin a");
    file.write_string("OBSMOTN", scene.observer, "observer's motion");
    const char* axes[] = {"OBSVX", "OBSVY", "OBSVZ"};
    for (int k = 0; k < 3; ++k)
      file.write_double(axes[k], scene.observer_velocity[k], "[c] observer velocity, ICRS axis");
  }
  file.check();
}

}  // namespace starlens
