#pragma once
// Frames on disk (docs/design.md section 6): OpenEXR with FLOAT R, G, B for any viewer plus the
// exact float64 of each channel as two UINT channels (R.f64hi, R.f64lo, ...), ZIP compressed, with
// header attributes starlensFormatVersion and starlensRunDigest; a tone-mapped sRGB PNG.
#include <filesystem>
#include <string>

#include "core/output_set.h"
#include "frame/frame.h"

namespace starlens {

constexpr int kFrameFormatVersion = 1;

// Writes atomically (temporary name, renamed on success). Refuses negative or non-finite
// values (RunFailure: they would be a bug upstream). `run_digest` goes into the header.
void write_frame_exr(const Frame& frame, const std::filesystem::path& path, bool force,
                     const std::string& run_digest);
// The same as an output of `outputs` (added to it if it is not yet), visible at its commit.
void write_frame_exr(const Frame& frame, OutputSet& outputs, const std::filesystem::path& path,
                     const std::string& run_digest);

struct FrameFile {
  Frame frame;
  bool exact = false;  // true when the float64 channels were present and used
  std::string run_digest;
  int format_version = 0;
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
