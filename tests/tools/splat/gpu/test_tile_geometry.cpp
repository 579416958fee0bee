// Pixel boxes and tile references of events, against hand-worked cases and a brute-force
// enumeration of the pixels each event's support box covers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "batch_summary.h"
#include "tile_geometry.h"

using namespace starlens;

TEST_CASE("support box: columns floor(x - s) .. floor(x + s), clipped to the frame") {
  const PixelBox inside = support_pixel_box(10.3, 20.7, 2.5, 100, 50);
  CHECK(inside.i0 == 7);   // floor(7.8)
  CHECK(inside.i1 == 12);  // floor(12.8)
  CHECK(inside.j0 == 18);  // floor(18.2)
  CHECK(inside.j1 == 23);  // floor(23.2)

  const PixelBox corner = support_pixel_box(0.5, 49.5, 4.0, 100, 50);
  CHECK(corner.i0 == 0);
  CHECK(corner.i1 == 4);
  CHECK(corner.j0 == 45);
  CHECK(corner.j1 == 49);

  // Centre outside the frame, support reaching in: only the covered edge column.
  const PixelBox outside_left = support_pixel_box(-3.2, 10.0, 3.5, 100, 50);
  CHECK(outside_left.i0 == 0);
  CHECK(outside_left.i1 == 0);
  CHECK_FALSE(outside_left.empty());
}

TEST_CASE("support box: events that cannot reach the frame are empty, however far away") {
  CHECK(support_pixel_box(-5.0, 10.0, 4.9, 100, 50).empty());   // floor(-0.1) = -1
  CHECK(support_pixel_box(104.0, 10.0, 4.0, 100, 50).empty());  // floor(100) = 100 = width
  CHECK(support_pixel_box(50.0, -1e300, 16.0, 100, 50).empty());
  CHECK(support_pixel_box(1e300, 1e300, 256.0, 100, 50).empty());
  CHECK(support_pixel_box(50.0, 1e18, 16.0, 100, 50).empty());
}

TEST_CASE("tile references equal the distinct tiles of the binning box's pixels") {
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> position(-40.0, 140.0);
  std::uniform_real_distribution<double> support(0.3, 60.0);
  const std::uint32_t width = 101, height = 67;  // not multiples of any tile size
  for (const std::uint32_t tile : {16u, 32u}) {
    const TileGrid grid = make_tile_grid(width, height, tile);
    CHECK(grid.columns == (width + tile - 1) / tile);
    CHECK(grid.rows == (height + tile - 1) / tile);
    for (std::int32_t pixel = 0; pixel < 4 * std::int32_t(tile) + 3; ++pixel)
      CHECK(grid.of(pixel) == std::uint32_t(pixel) / tile);
    for (int n = 0; n < 500; ++n) {
      const double x = position(random), y = position(random), s = support(random);
      std::set<std::uint32_t> tiles;  // the support box widened by one pixel
      for (int j = int(std::floor(y - s - 1)); j <= int(std::floor(y + s + 1)); ++j)
        for (int i = int(std::floor(x - s - 1)); i <= int(std::floor(x + s + 1)); ++i)
          if (i >= 0 && j >= 0 && i < int(width) && j < int(height))
            tiles.insert(std::uint32_t(j) / tile * grid.columns + std::uint32_t(i) / tile);
      const PixelBox box = binning_pixel_box(x, y, s, width, height);
      CHECK(tiles_touched(box, tile) == tiles.size());
      CHECK(tiles.size() <= tile_reference_bound(1, s, tile));
      const StarEvent event{x, y, 1, 1, 1, 1, s};
      CHECK(count_tile_references(std::span(&event, 1), width, height, tile) == tiles.size());
    }
  }
}

TEST_CASE("the most tiles a run of pixels touches, against every start position") {
  for (const std::uint32_t tile : {16u, 32u})
    for (std::uint32_t pixels = 1; pixels <= 80; ++pixels) {
      std::uint32_t most = 0;
      for (std::uint32_t start = 0; start < 2 * tile; ++start)
        most = std::max(most, (start + pixels - 1) / tile - start / tile + 1);
      CAPTURE(tile);
      CAPTURE(pixels);
      CHECK(max_tiles_spanned(pixels, tile) == most);
    }
  CHECK(max_tiles_spanned(0, 16) == 0);
}
