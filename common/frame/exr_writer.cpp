// write_frame_exr: OpenEXR's C++ scanline API, ZIP compressed, nine channels (frame_io.h).
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIntAttribute.h>
#include <ImfOutputFile.h>
#include <ImfStandardAttributes.h>
#include <ImfStringAttribute.h>
#include <ImfThreading.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/output_set.h"
#include "frame/exr_chunking.h"
#include "frame/exr_layout.h"
#include "frame/frame_checks.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

// The viewer channels: nearest float, saturated at FLT_MAX so a huge value stays finite
// (the exact channels keep the true value).
float viewer_value(double value) {
  return value >= double(FLT_MAX) ? FLT_MAX : float(value);
}

Imf::Header frame_header(const Frame& frame, const std::string& run_digest) {
  Imf::Header header(int(frame.width), int(frame.height));
  header.compression() = Imf::ZIP_COMPRESSION;
  // The exact channels' low words are random bits that no level compresses: level 1 writes
  // them several times faster than the default 6 for nearly the same size.
  header.zipCompressionLevel() = 1;
  header.lineOrder() = Imf::INCREASING_Y;
  Imf::addChromaticities(header, Imf::Chromaticities());  // Rec.709 primaries, D65: linear sRGB
  for (std::size_t c = 0; c < 3; ++c) {
    header.channels().insert(exr_layout::kColourChannels[c], Imf::Channel(Imf::FLOAT));
    header.channels().insert(exr_layout::kHighWordChannels[c], Imf::Channel(Imf::UINT));
    header.channels().insert(exr_layout::kLowWordChannels[c], Imf::Channel(Imf::UINT));
  }
  header.insert(exr_layout::kFormatVersionAttribute, Imf::IntAttribute(kFrameFormatVersion));
  header.insert(exr_layout::kRunDigestAttribute, Imf::StringAttribute(run_digest));
  return header;
}

// Points the frame buffer at rows [first_row, first_row + rows): the UINT words straight in
// the frame's doubles, the FLOAT channels in `viewer` (rows x width x 3 floats).
Imf::FrameBuffer band_buffer(const Frame& frame, std::uint32_t first_row, std::uint32_t rows,
                             const float* viewer) {
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
    buffer.insert(exr_layout::kColourChannels[c],
                  Imf::Slice::Make(Imf::FLOAT, viewer + c, origin, frame.width, rows,
                                   3 * sizeof(float), 3 * sizeof(float) * frame.width));
  }
  return buffer;
}

void write_bands(const Frame& frame, const std::string& temp_path, const std::string& run_digest) {
  // ZIP compression of the (incompressible) exact channels dominates writing: compress the
  // blocks on all cores; the bytes do not depend on the thread count.
  static const int threads = [] {
    const int count = int(std::max(1u, std::thread::hardware_concurrency()));
    Imf::setGlobalThreadCount(count);
    return count;
  }();
  Imf::OutputFile file(temp_path.c_str(), frame_header(frame, run_digest), threads);
  const std::uint32_t rows_per_band = exr_layout::band_rows(frame.width);
  std::vector<float> viewer(std::size_t(rows_per_band) * frame.width * 3);
  for (std::uint32_t first = 0; first < frame.height; first += rows_per_band) {
    const std::uint32_t rows = std::min(rows_per_band, frame.height - first);
    const double* source = frame.pixel(0, first);
    for (std::size_t k = 0; k < std::size_t(rows) * frame.width * 3; ++k)
      viewer[k] = viewer_value(source[k]);
    file.setFrameBuffer(band_buffer(frame, first, rows, viewer.data()));
    file.writePixels(int(rows));
  }
}

}  // namespace

void write_frame_exr(const Frame& frame, const std::filesystem::path& path, bool force,
                     const std::string& run_digest) {
  OutputSet outputs(force);
  write_frame_exr(frame, outputs, path, run_digest);
  outputs.commit();
}

void write_frame_exr(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     const std::string& run_digest) {
  const std::string name = path.string();
  require_pixels(frame, name);
  require_finite_non_negative(frame, name);
  if (frame.width > std::uint32_t(INT32_MAX) || frame.height > std::uint32_t(INT32_MAX))
    throw_input_error(name, "", "frame larger than OpenEXR's 2^31 - 1 pixels per side");
  const std::filesystem::path& temp = outputs.add(path);
  try {
    write_bands(frame, temp.string(), run_digest);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    // OpenEXR's message names the temporary; the final name is the one the user gave.
    std::string reason = e.what();
    for (std::size_t at; (at = reason.find(temp.string())) != std::string::npos;)
      reason.replace(at, temp.string().size(), name);
    throw_run_failure(name, "cannot write EXR: " + reason);
  }
}

}  // namespace starlens
