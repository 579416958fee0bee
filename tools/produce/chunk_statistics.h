#pragma once
// Per-chunk statistics of the producer (DESIGN section 5, --sink count): how many distinct
// triangles produced each chunk's events and how many distinct 32 px tiles their centres
// fall in, summarised as p50/p75/p90/p99/max over chunks. These say how spatially coherent
// the chunks a splat backend receives are.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "events/star_event.h"

namespace starlens::produce {

constexpr double kCentreTilePixels = 32;

struct ChunkSummary {
  std::uint32_t triangles = 0;  // distinct event-producing triangles
  std::uint32_t tiles = 0;      // distinct occupied 32 px centre tiles
};

// One worker's counter: stamps instead of sets, so a chunk costs O(events).
class ChunkTally {
 public:
  ChunkTally(std::size_t triangle_count, std::uint32_t width, std::uint32_t height);
  // `triangles[i]` produced `events[i]`.
  ChunkSummary summarise(std::span<const StarEvent> events,
                         std::span<const std::uint32_t> triangles);

 private:
  std::vector<std::uint32_t> triangle_stamp_;
  std::vector<std::uint32_t> tile_stamp_;
  std::uint32_t tiles_x_;
  std::uint32_t tiles_y_;
  std::uint32_t stamp_ = 0;
};

// Nearest-rank percentile (p in (0, 100]) of unsorted values; 0 for none.
std::uint32_t percentile(std::vector<std::uint32_t> values, double p);
// {"chunks": n, "triangles_per_chunk": {"p50",...,"max"}, "tiles_per_chunk": {...}}.
nlohmann::json summarise_chunks(const std::vector<ChunkSummary>& chunks);

}  // namespace starlens::produce
