#pragma once
// Streaming reader of frame EXR files: opens and validates the header once, then reads bands
// of scanlines, so a comparison of two large frames needs memory for a few bands only.
// read_frame_exr (frame_io.h) reads the whole frame through it.
#include <ImfForward.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "frame/frame_metadata.h"

namespace starlens {

class ExrFrameReader {
 public:
  // Throws InputError naming the file when it is missing, not an EXR, truncated in its header,
  // lacks R, G, B (or, for format version 2, its part "exact"), has a data window other than
  // its display window or subsampled channels, a format version it does not know, or a
  // starlensRunDigest that is not a UTF-8 string.
  explicit ExrFrameReader(const std::filesystem::path& path);
  ~ExrFrameReader();
  ExrFrameReader(const ExrFrameReader&) = delete;
  ExrFrameReader& operator=(const ExrFrameReader&) = delete;

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  // True when all six float64 word channels are present (and used).
  bool exact() const { return exact_; }
  const std::string& run_digest() const { return run_digest_; }
  // The header's metadata (frame_metadata.h); its run digest is run_digest().
  const FrameMetadata& metadata() const { return metadata_; }
  // starlensFormatVersion, 0 for an EXR written by another program.
  int format_version() const { return format_version_; }
  const std::string& path() const { return path_; }

  // Reads rows [first_row, first_row + rows) into `rgb` (rows x width x 3 doubles, RGB
  // interleaved, as in Frame). Throws InputError naming the file when the pixel data is
  // truncated or corrupt.
  void read_rows(std::uint32_t first_row, std::uint32_t rows, double* rgb);

 private:
  void open_exact_part();
  void read_exact_rows(int first_y, std::uint32_t rows, double* rgb);
  void read_viewer_rows(int first_y, std::uint32_t rows, double* rgb);

  std::string path_;
  std::unique_ptr<Imf::MultiPartInputFile> file_;
  std::unique_ptr<Imf::InputPart> viewer_part_;  // part 0
  // The part holding the words: "exact" (version 2), part 0 (version 1), none (other files).
  std::unique_ptr<Imf::InputPart> exact_part_;
  std::array<const char*, 3> high_word_channels_{};
  std::array<const char*, 3> low_word_channels_{};
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  int first_y_ = 0;
  int first_x_ = 0;
  bool exact_ = false;
  std::string run_digest_;
  int format_version_ = 0;
  FrameMetadata metadata_;
  std::vector<float> viewer_band_;
};

}  // namespace starlens
