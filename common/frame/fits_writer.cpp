#include "frame/fits_writer.h"

#include <fitsio.h>

#include <array>
#include <cfloat>
#include <vector>

#include "core/errors.h"
#include "frame/fits_file.h"
#include "frame/fits_wcs.h"
#include "frame/frame_checks.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

constexpr std::array<const char*, 4> kPlanes = {"R", "G", "B", "Y"};

void write_keywords(FitsFile& file, const FrameMetadata& metadata) {
  file.write_string("BUNIT", "Vega", "flux per pixel; 1 = an unlensed V=0 Vega-like star");
  file.write_string("COLORSPC", "linear sRGB", "Rec.709 primaries, D65 white");
  for (std::size_t k = 0; k < kPlanes.size(); ++k) {
    const std::string key = "PLANE" + std::to_string(k + 1);
    file.write_string(key.c_str(), kPlanes[k], k == 3 ? "CIE Y = .2126 R + .7152 G + .0722 B" : "");
  }
  write_camera_and_scene(file, metadata);
}

// Plane by plane, row by row from the bottom (FITS row 1 is the bottom of the picture).
void write_planes(FitsFile& file, const Frame& frame, const RowsWritten& rows_written) {
  std::vector<float> row(frame.width);
  std::size_t rows_done = 0;
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
      // One frame row reported per row of every plane: the file's share of the frame.
      if (rows_written && ++rows_done % kPlanes.size() == 0) rows_written(1);
    }
  }
}

}  // namespace

void write_frame_fits(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                      const FrameMetadata& metadata, const RowsWritten& rows_written) {
  const std::string name = path.string();
  require_pixels(frame, name);
  require_finite_non_negative(frame, name);
  if (!metadata.camera)
    throw_input_error(name, "camera", "a FITS frame needs the lens map's camera (--lensmap)");
  require_camera_size(metadata, frame.width, frame.height, "frame", name);
  const std::vector<std::string> wcs_cards = camera_wcs_cards(*metadata.camera, name);
  const std::filesystem::path& temp = outputs.add(path);
  FitsFile file(temp.string(), name);
  long axes[3] = {long(frame.width), long(frame.height), long(kPlanes.size())};
  fits_create_img(file.get(), FLOAT_IMG, 3, axes, file.status());
  file.check();
  file.write_cards(wcs_cards);
  write_keywords(file, metadata);
  write_planes(file, frame, rows_written);
  file.close();
}

}  // namespace starlens
