#include "chunk_statistics.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace starlens::produce {

std::uint64_t MarkBits::count() const {
  std::uint64_t marked = 0;
  for (const std::uint64_t word : words_) marked += static_cast<std::uint64_t>(std::popcount(word));
  return marked;
}

namespace {

std::uint32_t tiles_across(std::uint32_t pixels) {
  return std::max(static_cast<std::uint32_t>(std::ceil(pixels / kCentreTilePixels)), 1u);
}

}  // namespace

ChunkTally::ChunkTally(std::size_t triangle_count, std::uint32_t width, std::uint32_t height)
    : triangle_marks_(triangle_count),
      tiles_x_(tiles_across(width)),
      tiles_y_(tiles_across(height)),
      tile_marks_(std::size_t(tiles_x_) * tiles_y_) {}

std::uint32_t ChunkTally::tile_of(const StarEvent& event) const {
  // Centres on the frame's far edge belong to the last tile.
  const auto tx = static_cast<std::uint32_t>(
      std::clamp(std::floor(event.x / kCentreTilePixels), 0.0, tiles_x_ - 1.0));
  const auto ty = static_cast<std::uint32_t>(
      std::clamp(std::floor(event.y / kCentreTilePixels), 0.0, tiles_y_ - 1.0));
  return ty * tiles_x_ + tx;
}

ChunkSummary ChunkTally::summarise(std::span<const StarEvent> events,
                                   std::span<const std::uint32_t> triangles) {
  ChunkSummary summary;
  // The marks are spread over every triangle of the map: ask for them a few events ahead.
  constexpr std::size_t kAhead = 16;
  // An event of no triangle (a photon-ring image) counts its tile only.
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i + kAhead < events.size() && triangles[i + kAhead] != kNoTriangle)
      __builtin_prefetch(triangle_marks_.word_of(triangles[i + kAhead]));
    if (triangles[i] != kNoTriangle) summary.triangles += triangle_marks_.mark(triangles[i]);
    summary.tiles += tile_marks_.mark(tile_of(events[i]));
  }
  // The frame's few thousand tiles are cleared whole; the map's millions of triangles one by one.
  for (const std::uint32_t triangle : triangles)
    if (triangle != kNoTriangle) triangle_marks_.unmark(triangle);
  tile_marks_.unmark_all();
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
