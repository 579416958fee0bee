#include "chunk_statistics.h"

#include <algorithm>
#include <cmath>

namespace starlens::produce {

ChunkTally::ChunkTally(std::size_t triangle_count, std::uint32_t width, std::uint32_t height)
    : triangle_stamp_(triangle_count, 0),
      tiles_x_(static_cast<std::uint32_t>(std::ceil(width / kCentreTilePixels))),
      tiles_y_(static_cast<std::uint32_t>(std::ceil(height / kCentreTilePixels))) {
  tiles_x_ = std::max(tiles_x_, 1u);
  tiles_y_ = std::max(tiles_y_, 1u);
  tile_stamp_.assign(std::size_t(tiles_x_) * tiles_y_, 0);
}

ChunkSummary ChunkTally::summarise(std::span<const StarEvent> events,
                                   std::span<const std::uint32_t> triangles) {
  if (++stamp_ == 0) {  // wrapped: forget every old stamp
    std::fill(triangle_stamp_.begin(), triangle_stamp_.end(), 0);
    std::fill(tile_stamp_.begin(), tile_stamp_.end(), 0);
    stamp_ = 1;
  }
  ChunkSummary summary;
  // The stamps are spread over every triangle of the map: ask for them a few events ahead.
  constexpr std::size_t kAhead = 16;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i + kAhead < events.size()) __builtin_prefetch(&triangle_stamp_[triangles[i + kAhead]]);
    std::uint32_t& triangle = triangle_stamp_[triangles[i]];
    if (triangle != stamp_) {
      triangle = stamp_;
      ++summary.triangles;
    }
    // Centres on the frame's far edge belong to the last tile.
    const auto tx = static_cast<std::uint32_t>(
        std::clamp(std::floor(events[i].x / kCentreTilePixels), 0.0, tiles_x_ - 1.0));
    const auto ty = static_cast<std::uint32_t>(
        std::clamp(std::floor(events[i].y / kCentreTilePixels), 0.0, tiles_y_ - 1.0));
    std::uint32_t& tile = tile_stamp_[std::size_t(ty) * tiles_x_ + tx];
    if (tile != stamp_) {
      tile = stamp_;
      ++summary.tiles;
    }
  }
  return summary;
}

std::uint32_t percentile(std::vector<std::uint32_t> values, double p) {
  if (values.empty()) return 0;
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  const std::size_t index = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

nlohmann::json summarise_chunks(const std::vector<ChunkSummary>& chunks) {
  std::vector<std::uint32_t> triangles, tiles;
  for (const ChunkSummary& chunk : chunks) {
    triangles.push_back(chunk.triangles);
    tiles.push_back(chunk.tiles);
  }
  const auto quantiles = [](const std::vector<std::uint32_t>& values) {
    return nlohmann::json{{"p50", percentile(values, 50)},
                          {"p75", percentile(values, 75)},
                          {"p90", percentile(values, 90)},
                          {"p99", percentile(values, 99)},
                          {"max", percentile(values, 100)}};
  };
  return {{"chunks", chunks.size()},
          {"triangles_per_chunk", quantiles(triangles)},
          {"tiles_per_chunk", quantiles(tiles)}};
}

}  // namespace starlens::produce
