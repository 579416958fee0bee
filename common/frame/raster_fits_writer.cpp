// write_raster_fits: a cube of float64 planes through cfitsio, rows from the bottom of the
// picture as in frame.fits.
#include <fitsio.h>

#include <string>
#include <vector>

#include "core/errors.h"
#include "frame/fits_file.h"
#include "frame/fits_wcs.h"
#include "frame/raster_checks.h"
#include "frame/raster_io.h"

namespace starlens {

void write_raster_fits(const Raster& raster, OutputSet& outputs, const std::filesystem::path& path,
                       const FrameMetadata& metadata) {
  const std::string name = path.string();
  check_raster(raster, metadata, name);
  if (!metadata.camera)
    throw_input_error(name, "camera", "a FITS raster needs the lens map's camera");
  const std::vector<std::string> wcs_cards = camera_wcs_cards(*metadata.camera, name);
  FitsFile file(outputs.add(path).string(), name);
  long axes[3] = {long(raster.width), long(raster.height), long(raster.planes.size())};
  fits_create_img(file.get(), DOUBLE_IMG, 3, axes, file.status());
  file.check();
  file.write_cards(wcs_cards);
  for (std::size_t k = 0; k < raster.planes.size(); ++k) {
    const RasterPlane& plane = raster.planes[k];
    const std::string number = std::to_string(k + 1);
    file.write_string(("PLANE" + number).c_str(), plane.name, plane.description.c_str());
    file.write_string(("UNIT" + number).c_str(), plane.unit, "unit of the plane");
  }
  write_camera_and_scene(file, metadata);
  std::vector<double> row(raster.width);
  for (std::size_t k = 0; k < raster.planes.size(); ++k) {
    const std::vector<double>& values = raster.planes[k].values;
    for (std::uint32_t fits_row = 1; fits_row <= raster.height; ++fits_row) {
      const std::size_t j = raster.height - fits_row;
      // NaN is FITS's own blank for floating-point images (Paper I).
      long first[3] = {1, long(fits_row), long(k + 1)};
      fits_write_pix(file.get(), TDOUBLE, first, long(raster.width),
                     const_cast<double*>(values.data() + j * raster.width), file.status());
      file.check();
    }
  }
  file.close();
}

}  // namespace starlens
