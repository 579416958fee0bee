// Per-chunk statistics: distinct triangles and 32 px centre tiles, and nearest-rank quantiles.
#include <doctest/doctest.h>

#include <numeric>

#include "chunk_statistics.h"

using namespace starlens;
using namespace starlens::produce;

TEST_CASE("distinct triangles and centre tiles of a chunk, chunk after chunk") {
  ChunkTally tally(10, 100, 70);  // tiles: 4 x 3
  std::vector<StarEvent> events = {{1, 1, 0, 0, 0, 1, 1},
                                   {31.9, 0, 0, 0, 0, 1, 1},
                                   {32, 0, 0, 0, 0, 1, 1},
                                   {99.9, 69.9, 0, 0, 0, 1, 1},
                                   {100, 70, 0, 0, 0, 1, 1}};  // on the far edge: last tile
  std::vector<std::uint32_t> triangles = {3, 3, 4, 9, 9};
  ChunkSummary summary = tally.summarise(events, triangles);
  CHECK(summary.triangles == 3);
  CHECK(summary.tiles == 3);  // (0,0), (1,0), (3,2)
  // A second chunk starts from nothing.
  summary = tally.summarise(std::span(events).first(1), std::span(triangles).first(1));
  CHECK(summary.triangles == 1);
  CHECK(summary.tiles == 1);
}

TEST_CASE("nearest-rank quantiles") {
  std::vector<std::uint32_t> values(100);
  std::iota(values.begin(), values.end(), 1u);
  std::reverse(values.begin(), values.end());
  CHECK(percentile(values, 50) == 50);
  CHECK(percentile(values, 75) == 75);
  CHECK(percentile(values, 90) == 90);
  CHECK(percentile(values, 99) == 99);
  CHECK(percentile(values, 100) == 100);
  CHECK(percentile({7}, 50) == 7);
  CHECK(percentile({}, 50) == 0);
  const std::vector<ChunkSummary> chunks = {{1, 10}, {2, 20}, {3, 30}, {4, 40}};
  const auto json = summarise_chunks(chunks);
  CHECK(json["chunks"] == 4);
  CHECK(json["triangles_per_chunk"]["p50"] == 2);
  CHECK(json["tiles_per_chunk"]["max"] == 40);
  CHECK(json["tiles_per_chunk"]["p75"] == 30);
}

TEST_CASE("mark bits: marked once, unmarked, counted across words") {
  MarkBits marks(130);
  CHECK(marks.mark(0));
  CHECK_FALSE(marks.mark(0));
  CHECK(marks.mark(64));
  CHECK(marks.mark(129));
  CHECK(marks.count() == 3);
  marks.unmark(64);
  CHECK(marks.count() == 2);
  CHECK(marks.mark(64));
  marks.unmark_all();
  CHECK(marks.count() == 0);
  CHECK(marks.mark(129));
}
