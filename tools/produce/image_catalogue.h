#pragma once
// --images: the image catalogue, one row per event of the stream and in its order (star id,
// image order, position, signed magnification, parity, g, flux and colour), for users who want
// numbers rather than pixels (docs/formats/images.md). CSV with a header line, or a FITS binary
// table (cfitsio, TUNITn); streamed: each chunk's rows are written as the stream's chunk is.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "core/output_set.h"
#include "events/star_event.h"

namespace starlens::produce {

// What an event's record does not hold of its image.
struct ImageRecord {
  std::int64_t star_id;  // the catalogue's id (/stars/source)
  double g;              // frequency ratio
  double magnification;  // signed: parity * |mu|
  std::uint8_t order;    // image order (0 without a point lens)
  std::int8_t parity;    // +1 or -1
};

enum class ImageFormat { csv, fits };

// The format an --images name asks for (.csv; .fits or .fit); InputError naming the flag
// otherwise (another extension, '-').
ImageFormat image_format_of(const std::string& path, const std::string& flag);

class ImageCatalogueWriter {
 public:
  // Writes to the temporary of `path`, which `outputs` holds; InputError/RunFailure naming it.
  ImageCatalogueWriter(const OutputSet& outputs, const std::filesystem::path& path,
                       ImageFormat format);
  ~ImageCatalogueWriter();
  ImageCatalogueWriter(const ImageCatalogueWriter&) = delete;
  ImageCatalogueWriter& operator=(const ImageCatalogueWriter&) = delete;

  // One chunk's rows (images[i] made events[i]); RunFailure naming the file when a write fails.
  void write(std::span<const StarEvent> events, std::span<const ImageRecord> images);
  // Completes the file (closes it), for the OutputSet's commit.
  void finish();
  std::uint64_t rows() const { return rows_; }

  // One file format's writing (image_catalogue.cpp).
  class Backend;

 private:
  std::unique_ptr<Backend> backend_;
  std::uint64_t rows_ = 0;
};

}  // namespace starlens::produce
