#pragma once
// Host-side look at a batch before it goes to the GPU: event classes, the centre-tile
// density the adaptive selector uses, and the exact number of tile references binning will
// make (to keep every batch inside the device's bounded scratch).
#include <cstdint>
#include <span>
#include <vector>

#include "events/star_event.h"

namespace starlens {

constexpr std::uint32_t kCentreTile =
    32;  // px, docs/design.md section 5 ("occupied 32 px centre tiles")

struct BatchSummary {
  std::uint64_t events = 0;
  std::uint64_t direct = 0;         // evaluated exactly (support > Rc, or --psf-direct)
  std::uint64_t stream_direct = 0;  // support > Rc: the stream's class (stream_event_class)
  std::uint64_t centres_in_frame = 0;
  std::uint64_t occupied_centre_tiles = 0;  // 32 px tiles holding at least one event centre
  double max_cached_support = 0;            // px, over the events that are not direct
  std::uint64_t direct_pixels = 0;          // the direct events' binning boxes, all together
  // Event centres per occupied centre tile (0 when no centre lies in the frame).
  double density() const {
    return occupied_centre_tiles ? double(centres_in_frame) / double(occupied_centre_tiles) : 0.0;
  }
};

class BatchSummariser {
 public:
  BatchSummariser(std::uint32_t width, std::uint32_t height, std::int32_t cache_radius,
                  bool all_direct);
  // Also writes the indices of the direct events to `direct_indices` (room for all events).
  BatchSummary summarise(std::span<const StarEvent> events, std::uint32_t* direct_indices);
  bool is_direct(const StarEvent& event) const {
    return all_direct_ || event.support > cache_radius_;
  }

 private:
  std::uint32_t width_;
  std::uint32_t height_;
  std::int32_t cache_radius_;
  bool all_direct_;
  std::uint32_t tile_columns_;
  std::vector<std::uint8_t> occupied_;       // one flag per centre tile
  std::vector<std::uint32_t> marked_tiles_;  // flags to clear after the batch
};

// A bound on the tile references of `events` events whose supports are at most
// `max_support`: a binning box spans at most 2 s + 4 pixels, so floor((2 s + 4) / tile) + 2
// tiles, per axis. Cheap; the exact count is only needed when this exceeds the scratch.
std::uint64_t tile_reference_bound(std::uint64_t events, double max_support, std::uint32_t tile);

// Tile references (event, tile) of these events' binning boxes: never fewer than the
// binning kernels make (for cached events; direct events are not binned).
std::uint64_t count_tile_references(std::span<const StarEvent> events, std::uint32_t width,
                                    std::uint32_t height, std::uint32_t tile);

}  // namespace starlens
