// write_frame_exr: OpenEXR's C++ multi-part API, two scanline parts, ZIP compressed
// (frame_io.h, docs/formats/frame.md).
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfMultiPartOutputFile.h>
#include <ImfOutputPart.h>
#include <ImfPartType.h>
#include <ImfStandardAttributes.h>
#include <ImfThreading.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/output_set.h"
#include "frame/exr_chunking.h"
#include "frame/exr_failure.h"
#include "frame/exr_layout.h"
#include "frame/exr_metadata.h"
#include "frame/frame_checks.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

constexpr int kViewerPartIndex = 0;
constexpr int kExactPartIndex = 1;

// The viewer channels: value / exposure to the nearest float, saturated at FLT_MAX so a huge
// value stays finite (the exact part keeps the true value).
float viewer_value(double value, double exposure) {
  const double scaled = value / exposure;
  return scaled >= double(FLT_MAX) ? FLT_MAX : float(scaled);
}

Imf::Header part_header(const Frame& frame, const char* name) {
  Imf::Header header(int(frame.width), int(frame.height));
  header.setName(name);
  header.setType(Imf::SCANLINEIMAGE);
  header.compression() = Imf::ZIP_COMPRESSION;
  header.lineOrder() = Imf::INCREASING_Y;
  Imf::addChromaticities(header, Imf::Chromaticities());  // Rec.709 primaries, D65: linear sRGB
  return header;
}

Imf::Header viewer_header(const Frame& frame, const FrameMetadata& metadata) {
  Imf::Header header = part_header(frame, exr_layout::kViewerPart);
  // Star fields are mostly black: the floats compress well, and level 6 costs little.
  header.zipCompressionLevel() = 6;
  for (const char* name : exr_layout::kColourChannels)
    header.channels().insert(name, Imf::Channel(Imf::FLOAT));
  add_frame_metadata(header, metadata);
  return header;
}

Imf::Header exact_header(const Frame& frame) {
  Imf::Header header = part_header(frame, exr_layout::kExactPart);
  // The low words are random bits that no level compresses: level 1 writes them several times
  // faster than the default for nearly the same size.
  header.zipCompressionLevel() = 1;
  for (std::size_t c = 0; c < 3; ++c) {
    header.channels().insert(exr_layout::kHighWordChannels[c], Imf::Channel(Imf::UINT));
    header.channels().insert(exr_layout::kLowWordChannels[c], Imf::Channel(Imf::UINT));
  }
  return header;
}

// The UINT words of rows [first_row, first_row + rows), straight in the frame's doubles.
Imf::FrameBuffer exact_buffer(const Frame& frame, std::uint32_t first_row, std::uint32_t rows) {
  const Imath::V2i origin(0, int(first_row));
  const auto* doubles = reinterpret_cast<const char*>(frame.pixel(0, first_row));
  Imf::FrameBuffer buffer;
  for (std::size_t c = 0; c < 3; ++c) {
    const char* value = doubles + c * sizeof(double);
    buffer.insert(
        exr_layout::kHighWordChannels[c],
        Imf::Slice::Make(Imf::UINT, value + exr_layout::kHighWordOffset, origin, frame.width, rows,
                         3 * sizeof(double), 3 * sizeof(double) * frame.width));
    buffer.insert(
        exr_layout::kLowWordChannels[c],
        Imf::Slice::Make(Imf::UINT, value + exr_layout::kLowWordOffset, origin, frame.width, rows,
                         3 * sizeof(double), 3 * sizeof(double) * frame.width));
  }
  return buffer;
}

// The FLOAT channels of the same rows, in `viewer` (rows x width x 3 floats).
Imf::FrameBuffer viewer_buffer(const Frame& frame, std::uint32_t first_row, std::uint32_t rows,
                               const float* viewer) {
  const Imath::V2i origin(0, int(first_row));
  Imf::FrameBuffer buffer;
  for (std::size_t c = 0; c < 3; ++c)
    buffer.insert(exr_layout::kColourChannels[c],
                  Imf::Slice::Make(Imf::FLOAT, viewer + c, origin, frame.width, rows,
                                   3 * sizeof(float), 3 * sizeof(float) * frame.width));
  return buffer;
}

void write_bands(const Frame& frame, const std::string& temp_path, const FrameMetadata& metadata,
                 const RowsWritten& rows_written) {
  // ZIP compression of the (incompressible) exact words dominates writing: compress the
  // blocks on all cores; the bytes do not depend on the thread count.
  static const int threads = [] {
    const int count = int(std::max(1u, std::thread::hardware_concurrency()));
    Imf::setGlobalThreadCount(count);
    return count;
  }();
  const Imf::Header headers[2] = {viewer_header(frame, metadata), exact_header(frame)};
  Imf::MultiPartOutputFile file(temp_path.c_str(), headers, 2, false, threads);
  Imf::OutputPart viewer_part(file, kViewerPartIndex);
  Imf::OutputPart exact_part(file, kExactPartIndex);
  const std::uint32_t rows_per_band = exr_layout::band_rows(frame.width);
  std::vector<float> viewer(std::size_t(rows_per_band) * frame.width * 3);
  for (std::uint32_t first = 0; first < frame.height; first += rows_per_band) {
    const std::uint32_t rows = std::min(rows_per_band, frame.height - first);
    const double* source = frame.pixel(0, first);
    for (std::size_t k = 0; k < std::size_t(rows) * frame.width * 3; ++k)
      viewer[k] = viewer_value(source[k], metadata.exposure);
    viewer_part.setFrameBuffer(viewer_buffer(frame, first, rows, viewer.data()));
    viewer_part.writePixels(int(rows));
    exact_part.setFrameBuffer(exact_buffer(frame, first, rows));
    exact_part.writePixels(int(rows));
    if (rows_written) rows_written(rows);
  }
}

void check_metadata(const Frame& frame, const FrameMetadata& metadata, const std::string& name) {
  if (!(std::isfinite(metadata.exposure) && metadata.exposure > 0))
    throw_input_error(name, "exposure",
                      std::to_string(metadata.exposure) + " is not a positive, finite exposure");
  require_camera_size(metadata, frame.width, frame.height, "frame", name);
  if (metadata.frame_number && (*metadata.frame_number < 0 || *metadata.frame_number > INT32_MAX))
    throw_input_error(name, "frame number",
                      std::to_string(*metadata.frame_number) + " is outside 0..2147483647");
}

}  // namespace

void write_frame_exr(const Frame& frame, const std::filesystem::path& path, bool force,
                     const FrameMetadata& metadata) {
  OutputSet outputs(force);
  write_frame_exr(frame, outputs, path, metadata);
  outputs.commit();
}

void write_frame_exr(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     const FrameMetadata& metadata, const RowsWritten& rows_written) {
  const std::string name = path.string();
  require_pixels(frame, name);
  require_finite_non_negative(frame, name);
  check_metadata(frame, metadata, name);
  if (frame.width > std::uint32_t(INT32_MAX) || frame.height > std::uint32_t(INT32_MAX))
    throw_input_error(name, "", "frame larger than OpenEXR's 2^31 - 1 pixels per side");
  const std::filesystem::path& temp = outputs.add(path);
  try {
    write_bands(frame, temp.string(), metadata, rows_written);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw_exr_write_failure(e, temp.string(), name);
  }
}

}  // namespace starlens
