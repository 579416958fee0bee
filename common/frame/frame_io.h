#pragma once
// Frames on disk (docs/formats/frame.md): a two-part OpenEXR file, part "rgba" with FLOAT R, G, B
// for any viewer (the value divided by the exposure) and part "exact" with the float64 of each
// channel as two UINT channels, ZIP compressed, with the metadata of frame_metadata.h as header
// attributes; a tone-mapped sRGB PNG; a FITS cube with a celestial WCS (fits_writer.h).
#include <filesystem>
#include <functional>
#include <string>

#include "core/output_set.h"
#include "frame/frame.h"
#include "frame/frame_metadata.h"

namespace starlens {

constexpr int kFrameFormatVersion = 2;

// Writes atomically (temporary name, renamed on success). Refuses negative or non-finite
// values (RunFailure: they would be a bug upstream), and an exposure that is not positive and
// finite or a camera whose size is not the frame's (InputError).
void write_frame_exr(const Frame& frame, const std::filesystem::path& path, bool force,
                     const FrameMetadata& metadata);
// Called with the number of rows just written, as a writer goes (a progress bar's feed).
using RowsWritten = std::function<void(std::uint32_t rows)>;

// The same as an output of `outputs` (added to it if it is not yet), visible at its commit.
void write_frame_exr(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     const FrameMetadata& metadata, const RowsWritten& rows_written = {});
// Only a run digest (exposure 1: the viewer values are the exact ones rounded to float).
inline void write_frame_exr(const Frame& frame, const std::filesystem::path& path, bool force,
                            const std::string& run_digest) {
  FrameMetadata metadata;
  metadata.run_digest = run_digest;
  write_frame_exr(frame, path, force, metadata);
}

struct FrameFile {
  Frame frame;
  bool exact = false;  // true when the float64 channels were present and used
  std::string run_digest;
  int format_version = 0;
  FrameMetadata metadata;
};
// Reads the exact channels when present, the FLOAT (or HALF) R, G, B otherwise. Throws
// InputError naming the file on a missing, truncated or foreign file.
FrameFile read_frame_exr(const std::filesystem::path& path);

// Tone-mapped 8-bit sRGB PNG: each channel scaled so that luminance Y = exposure maps to
// display white (value / exposure), the sRGB transfer curve, clamped to [0, 1].
void write_frame_png(const Frame& frame, const std::filesystem::path& path, double exposure,
                     bool force);
// The same as an output of `outputs` (added to it if it is not yet), visible at its commit.
void write_frame_png(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     double exposure);

}  // namespace starlens
