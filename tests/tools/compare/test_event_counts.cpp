// --manifests: event counts by class compared key by key.
#include <doctest/doctest.h>

#include <fstream>

#include "core/errors.h"
#include "event_counts.h"
#include "frame_fixtures.h"

using namespace starlens;
using namespace starlens::compare;

namespace {

std::filesystem::path write_manifest(const std::filesystem::path& folder, const std::string& name,
                                     const std::string& counts) {
  const auto path = folder / name;
  std::ofstream(path) << R"({"format": "starlens-manifest", "tool": "starlens-splat", "counts": )"
                      << counts << "}";
  return path;
}

}  // namespace

TEST_CASE("equal counts pass; a differing class is named with both values") {
  const auto folder = testing::fresh_folder("event_counts");
  const auto a = write_manifest(folder, "a.json",
                                R"({"events": 10, "events_cache": 7, "events_direct": 3,
                                    "contributions": 999})");
  const auto b = write_manifest(folder, "b.json",
                                R"({"events": 10, "events_cache": 7, "events_direct": 3,
                                    "contributions": 5})");
  const auto c = write_manifest(folder, "c.json",
                                R"({"events": 10, "events_cache": 6, "events_direct": 4,
                                    "events_discarded": 100})");
  const auto same = compare_event_counts(a, b);
  CHECK(same.equal());
  CHECK(same.report["events_cache"]["equal"] == true);
  CHECK_FALSE(same.report.contains("contributions"));  // not an event class
  const auto different = compare_event_counts(a, c);
  CHECK_FALSE(different.equal());
  REQUIRE(different.differences.size() == 2);
  CHECK(different.differences[0] == "events_cache: 7 in A, 6 in B");
  CHECK(different.differences[1] == "events_direct: 3 in A, 4 in B");
  // A class only one manifest counts is reported, not compared.
  CHECK(different.report["events_discarded"]["compared"] == false);
  std::filesystem::remove_all(folder);
}

TEST_CASE("bad manifests are bad input naming the file and field") {
  const auto folder = testing::fresh_folder("event_counts_bad");
  const auto good = write_manifest(folder, "good.json", R"({"events": 4})");
  const auto negative = write_manifest(folder, "negative.json", R"({"events": -4})");
  const auto text = write_manifest(folder, "text.json", R"({"events": "4"})");
  const auto none = write_manifest(folder, "none.json", R"({"stars": 4})");
  const auto no_counts = folder / "no_counts.json";
  std::ofstream(no_counts) << R"({"format": "starlens-manifest"})";
  const auto foreign = folder / "foreign.json";
  std::ofstream(foreign) << R"({"counts": {"events": 4}})";
  CHECK_THROWS_WITH_AS(compare_event_counts(good, negative),
                       doctest::Contains("negative.json: counts.events: must be a whole number"),
                       InputError);
  CHECK_THROWS_WITH_AS(compare_event_counts(text, good),
                       doctest::Contains("text.json: counts.events"), InputError);
  CHECK_THROWS_WITH_AS(compare_event_counts(good, none),
                       doctest::Contains("no event count by class"), InputError);
  CHECK_THROWS_WITH_AS(compare_event_counts(good, no_counts),
                       doctest::Contains("no_counts.json: counts: missing"), InputError);
  CHECK_THROWS_WITH_AS(compare_event_counts(foreign, good),
                       doctest::Contains("not a starlens manifest"), InputError);
  CHECK_THROWS_WITH_AS(compare_event_counts(folder / "missing.json", good),
                       doctest::Contains("cannot be opened"), InputError);
  std::filesystem::remove_all(folder);
}
