#pragma once
// Per-chunk statistics of the producer (docs/design.md section 5, --sink count): how many distinct
// triangles produced each chunk's events and how many distinct 32 px tiles their centres
// fall in, summarised as p50/p75/p90/p99/max over chunks. These say how spatially coherent
// the chunks a splat backend receives are.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "events/star_event.h"

namespace starlens::produce {

constexpr double kCentreTilePixels = 32;
// The triangle number of an event that no lens-map triangle produced (an image of the point
// lens, order >= 1: photon_ring.h): counted in no triangle statistic and no chunk's triangle range.
constexpr std::uint32_t kNoTriangle = 0xFFFFFFFFu;

struct ChunkSummary {
  std::uint32_t triangles = 0;  // distinct event-producing triangles
  std::uint32_t tiles = 0;      // distinct occupied 32 px centre tiles
};

// One bit per item (a triangle, a tile): 1/32 of the memory of a stamp per item, so a map's
// few million triangles fit in a core's cache and a worker starts without zeroing megabytes.
class MarkBits {
 public:
  explicit MarkBits(std::size_t items) : words_((items + 63) / 64, 0) {}
  // Marks `item`; whether it was unmarked.
  bool mark(std::size_t item) {
    std::uint64_t& word = words_[item / 64];
    const std::uint64_t bit = std::uint64_t{1} << (item % 64);
    const bool was_unmarked = (word & bit) == 0;
    word |= bit;
    return was_unmarked;
  }
  void unmark(std::size_t item) { words_[item / 64] &= ~(std::uint64_t{1} << (item % 64)); }
  void unmark_all() { std::fill(words_.begin(), words_.end(), 0); }
  const std::uint64_t* word_of(std::size_t item) const { return &words_[item / 64]; }
  std::uint64_t count() const;

 private:
  std::vector<std::uint64_t> words_;
};

// One worker's counter: marks instead of sets, so a chunk costs O(events); a chunk unmarks
// what it marked.
class ChunkTally {
 public:
  ChunkTally(std::size_t triangle_count, std::uint32_t width, std::uint32_t height);
  // `triangles[i]` produced `events[i]`.
  ChunkSummary summarise(std::span<const StarEvent> events,
                         std::span<const std::uint32_t> triangles);

 private:
  std::uint32_t tile_of(const StarEvent& event) const;

  MarkBits triangle_marks_;
  std::uint32_t tiles_x_;
  std::uint32_t tiles_y_;
  MarkBits tile_marks_;
};

// Nearest-rank percentile (p in (0, 100]) of unsorted values; 0 for none.
std::uint32_t percentile(std::vector<std::uint32_t> values, double p);
// {"chunks": n, "triangles_per_chunk": {"p50",...,"max"}, "tiles_per_chunk": {...}}.
nlohmann::json summarise_chunks(const std::vector<ChunkSummary>& chunks);

}  // namespace starlens::produce
