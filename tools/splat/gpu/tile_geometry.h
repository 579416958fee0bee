#pragma once
// Which pixels and screen tiles an event can touch. Host and device call the same code, so
// the host's bound on the number of tile references (used to size and split batches) is
// exactly what the binning kernels produce.
#include <cmath>
#include <cstdint>

#include "optics/host_device.h"

namespace starlens {

// The pixels [i0, i1] x [j0, j1] (inclusive) of the event's full support box, clipped to
// the frame: columns floor(x - support) .. floor(x + support), rows likewise (the same rows
// as the CPU backend's bands). Empty when i0 > i1.
struct PixelBox {
  std::int32_t i0, i1, j0, j1;
  STARLENS_HOST_DEVICE bool empty() const { return i0 > i1 || j0 > j1; }
};

STARLENS_HOST_DEVICE inline PixelBox support_pixel_box(double x, double y, double support,
                                                       std::uint32_t width, std::uint32_t height) {
  const double left = floor(x - support);
  const double right = floor(x + support);
  const double top = floor(y - support);
  const double bottom = floor(y + support);
  // Compared as doubles first: far-off events must not overflow the integer conversion.
  if (right < 0 || bottom < 0 || left >= double(width) || top >= double(height))
    return {0, -1, 0, -1};
  return {std::int32_t(fmax(left, 0.0)), std::int32_t(fmin(right, double(width) - 1.0)),
          std::int32_t(fmax(top, 0.0)), std::int32_t(fmin(bottom, double(height) - 1.0))};
}

// A superset of the pixels either CPU evaluator (and so the GPU's prepared events) may visit
// for the event: its support box widened by a pixel on each side. Host-side reference counts
// use it, so they never fall below what the binning kernels make.
STARLENS_HOST_DEVICE inline PixelBox binning_pixel_box(double x, double y, double support,
                                                       std::uint32_t width, std::uint32_t height) {
  return support_pixel_box(x, y, support + 1, width, height);
}

// Screen tiles of `tile` x `tile` pixels (a power of two, 2^shift), row-major; the last row and
// column may be partial.
struct TileGrid {
  std::uint32_t tile;
  std::uint32_t shift;
  std::uint32_t columns;
  std::uint32_t rows;
  STARLENS_HOST_DEVICE std::uint32_t count() const { return columns * rows; }
  // The tile row or column of a pixel row or column (a shift, not a division: the binning
  // kernels take several per event).
  STARLENS_HOST_DEVICE std::uint32_t of(std::int32_t pixel) const {
    return std::uint32_t(pixel) >> shift;
  }
};

STARLENS_HOST_DEVICE inline TileGrid make_tile_grid(std::uint32_t width, std::uint32_t height,
                                                    std::uint32_t tile) {
  std::uint32_t shift = 0;
  while ((2u << shift) <= tile) ++shift;
  return {tile, shift, (width + tile - 1) / tile, (height + tile - 1) / tile};
}

// Number of tiles the box overlaps (0 for an empty box): its tile references.
STARLENS_HOST_DEVICE inline std::uint32_t tiles_touched(const PixelBox& box, std::uint32_t tile) {
  if (box.empty()) return 0;
  const std::uint32_t columns = std::uint32_t(box.i1) / tile - std::uint32_t(box.i0) / tile + 1;
  const std::uint32_t rows = std::uint32_t(box.j1) / tile - std::uint32_t(box.j0) / tile + 1;
  return columns * rows;
}

// The most tiles of one axis that a run of `pixels` consecutive pixels can touch.
STARLENS_HOST_DEVICE inline std::uint32_t max_tiles_spanned(std::uint32_t pixels,
                                                            std::uint32_t tile) {
  return pixels == 0 ? 0 : (pixels + tile - 2) / tile + 1;
}

}  // namespace starlens
