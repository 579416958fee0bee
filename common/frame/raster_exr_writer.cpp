// write_raster_exr: one scanline part of FLOAT channels (OpenEXR's C++ API), ZIP compressed.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfStringAttribute.h>

#include <cfloat>
#include <cmath>
#include <vector>

#include "core/errors.h"
#include "frame/exr_failure.h"
#include "frame/exr_metadata.h"
#include "frame/raster_checks.h"
#include "frame/raster_io.h"

namespace starlens {
namespace {

// Saturated at +-FLT_MAX so a huge value (mu next to a critical curve) stays finite; NaN stays
// NaN (undefined).
float to_float(double value) {
  if (value >= double(FLT_MAX)) return FLT_MAX;
  if (value <= -double(FLT_MAX)) return -FLT_MAX;
  return float(value);
}

void write_file(const Raster& raster, const std::string& temp, const FrameMetadata& metadata) {
  Imf::Header header(int(raster.width), int(raster.height));
  header.compression() = Imf::ZIP_COMPRESSION;
  for (const RasterPlane& plane : raster.planes) {
    header.channels().insert(plane.name, Imf::Channel(Imf::FLOAT));
    header.insert("starlensUnit." + plane.name, Imf::StringAttribute(plane.unit));
    header.insert("starlensDescription." + plane.name, Imf::StringAttribute(plane.description));
  }
  add_frame_metadata(header, metadata);
  Imf::OutputFile file(temp.c_str(), header);
  constexpr std::uint32_t kBandRows = 64;
  std::vector<float> band;
  for (std::uint32_t first = 0; first < raster.height; first += kBandRows) {
    const std::uint32_t rows = std::min(kBandRows, raster.height - first);
    const std::size_t pixels = std::size_t(rows) * raster.width;
    band.resize(pixels * raster.planes.size());
    Imf::FrameBuffer buffer;
    for (std::size_t k = 0; k < raster.planes.size(); ++k) {
      const double* source = raster.planes[k].values.data() + std::size_t(first) * raster.width;
      float* target = band.data() + k * pixels;
      for (std::size_t p = 0; p < pixels; ++p) target[p] = to_float(source[p]);
      buffer.insert(raster.planes[k].name,
                    Imf::Slice::Make(Imf::FLOAT, target, Imath::V2i(0, int(first)), raster.width,
                                     rows, sizeof(float), sizeof(float) * raster.width));
    }
    file.setFrameBuffer(buffer);
    file.writePixels(int(rows));
  }
}

}  // namespace

void write_raster_exr(const Raster& raster, OutputSet& outputs, const std::filesystem::path& path,
                      const FrameMetadata& metadata) {
  const std::string name = path.string();
  check_raster(raster, metadata, name);
  const std::filesystem::path& temp = outputs.add(path);
  try {
    write_file(raster, temp.string(), metadata);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw_exr_write_failure(e, temp.string(), name);
  }
}

}  // namespace starlens
