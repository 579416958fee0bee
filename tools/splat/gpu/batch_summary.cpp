#include "batch_summary.h"

#include <cmath>
#include <cstdint>

#include "tile_geometry.h"

namespace starlens {

BatchSummariser::BatchSummariser(std::uint32_t width, std::uint32_t height,
                                 std::int32_t cache_radius, bool all_direct)
    : width_(width),
      height_(height),
      cache_radius_(cache_radius),
      all_direct_(all_direct),
      tile_columns_((width + kCentreTile - 1) / kCentreTile),
      occupied_(std::size_t(tile_columns_) * ((height + kCentreTile - 1) / kCentreTile), 0) {}

BatchSummary BatchSummariser::summarise(std::span<const StarEvent> events,
                                        std::uint32_t* direct_indices) {
  BatchSummary summary;
  summary.events = events.size();
  for (std::size_t index = 0; index < events.size(); ++index) {
    const StarEvent& event = events[index];
    if (event.support > cache_radius_) ++summary.stream_direct;
    if (is_direct(event)) {
      direct_indices[summary.direct++] = std::uint32_t(index);
      const PixelBox box = binning_pixel_box(event.x, event.y, event.support, width_, height_);
      if (!box.empty()) {
        const std::uint64_t pixels = std::uint64_t(box.i1 - box.i0 + 1) * (box.j1 - box.j0 + 1);
        summary.direct_pixels += pixels;
      }
    } else if (event.support > summary.max_cached_support) {
      summary.max_cached_support = event.support;
    }
    if (!(event.x >= 0 && event.x < width_ && event.y >= 0 && event.y < height_)) continue;
    ++summary.centres_in_frame;
    const std::uint32_t tile =
        std::uint32_t(event.y) / kCentreTile * tile_columns_ + std::uint32_t(event.x) / kCentreTile;
    if (!occupied_[tile]) {
      occupied_[tile] = 1;
      marked_tiles_.push_back(tile);
    }
  }
  summary.occupied_centre_tiles = marked_tiles_.size();
  for (const std::uint32_t tile : marked_tiles_) occupied_[tile] = 0;
  marked_tiles_.clear();
  return summary;
}

std::uint64_t tile_reference_bound(std::uint64_t events, double max_support, std::uint32_t tile) {
  const double per_axis = std::floor((2 * max_support + 4) / tile) + 2;  // of binning_pixel_box
  const double bound = double(events) * per_axis * per_axis;
  return bound < 1.8e19 ? std::uint64_t(bound) : UINT64_MAX;
}

std::uint64_t count_tile_references(std::span<const StarEvent> events, std::uint32_t width,
                                    std::uint32_t height, std::uint32_t tile) {
  std::uint64_t references = 0;
  for (const StarEvent& event : events)
    references +=
        tiles_touched(binning_pixel_box(event.x, event.y, event.support, width, height), tile);
  return references;
}

}  // namespace starlens
