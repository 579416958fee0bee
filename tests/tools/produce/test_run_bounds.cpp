// Parsing of the run bounds, and each malformed value rejected as bad input.
#include <doctest/doctest.h>

#include "core/errors.h"
#include "run_bounds.h"

using namespace starlens;
using namespace starlens::produce;

TEST_CASE("index ranges A:B") {
  const IndexRange range = parse_index_range("3:17", "--cells", 100);
  CHECK(range.first == 3);
  CHECK(range.end == 17);
  CHECK(range.contains(3));
  CHECK_FALSE(range.contains(17));
  CHECK(parse_index_range("5:", "--cells", 100).end == 100);
  for (const char* bad :
       {"", "3", "a:b", "5:5", "7:3", "-1:4", "1:101", "1:2:3", " 1:2", "1.5:3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_index_range(bad, "--cells", 100), InputError);
  }
  CHECK_THROWS_WITH_AS(parse_index_range("7:3", "--triangles", 100),
                       doctest::Contains("--triangles"), InputError);
}

TEST_CASE("sky regions ra,dec,radius") {
  const SkyRegion region = parse_sky_region("266.4,-28.9,2.5", "--sky-region");
  CHECK(region.ra_deg == 266.4);
  CHECK(region.dec_deg == -28.9);
  CHECK(region.radius_deg == 2.5);
  const Vec3 centre = region.centre();
  CHECK(norm(centre) == doctest::Approx(1.0));
  for (const char* bad : {"", "1,2", "1,2,3,4", "x,2,3", "1,2,0", "1,2,-1", "1,2,181", "361,0,1",
                          "0,91,1", "1,2,nan", "1,,3", "1,2,3x"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_sky_region(bad, "--sky-region"), InputError);
  }
}

TEST_CASE("bounds in the manifest") {
  RunBounds bounds;
  CHECK_FALSE(bounds.bounded());
  bounds.cells = IndexRange{2, 9};
  bounds.max_events = 5;
  CHECK(bounds.bounded());
  const auto json = bounds.to_json();
  CHECK(json["cells"] == nlohmann::json{2, 9});
  CHECK(json["max_events"] == 5);
  CHECK(json["sky_region"].is_null());
}
