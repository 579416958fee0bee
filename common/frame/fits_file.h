#pragma once
// A FITS file being written through cfitsio (frame.fits and the lens-map rasters,
// docs/formats/frame.md): the file under a temporary name, failures reported as one line
// naming the final name, and the keywords of the camera and the scene every starlens image
// carries.
#include <fitsio.h>

#include <string>
#include <vector>

#include "frame/frame_metadata.h"

namespace starlens {

class FitsFile {
 public:
  // Creates `temp` (taken as it is, never parsed as cfitsio's extended file-name syntax);
  // errors name `name`.
  FitsFile(const std::string& temp, const std::string& name);
  ~FitsFile();
  FitsFile(const FitsFile&) = delete;
  FitsFile& operator=(const FitsFile&) = delete;

  fitsfile* get() { return file_; }
  int* status() { return &status_; }
  // RunFailure naming the final name with cfitsio's reason once a call has failed.
  void check() const;
  void close();

  void write_string(const char* key, const std::string& value, const char* comment);
  void write_double(const char* key, double value, const char* comment);
  void write_integer(const char* key, long long value, const char* comment);
  // The header cards as wcslib wrote them.
  void write_cards(const std::vector<std::string>& cards);

 private:
  std::string name_;
  fitsfile* file_ = nullptr;
  int status_ = 0;
};

// ORIGIN, the format version, the run digest, the frame number, the camera (CAMPROJ, CAMFOV,
// CAMROLL) and, when known, the scene (SPACETIM, ROBS, SPIN, OBSMOTN, OBSV*).
void write_camera_and_scene(FitsFile& file, const FrameMetadata& metadata);

}  // namespace starlens
