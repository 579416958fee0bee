// The external sort on its own: sizes of --memory-limit, order and completeness of the
// merge for inputs of every size around the buffer and fan-in limits.
#include <doctest/doctest.h>

#include <algorithm>

#include "catalog/external_sorter.h"
#include "core/errors.h"
#include "scratch_folder.h"
#include "store_fixture.h"

namespace starlens::catalog {

TEST_CASE("sorter: memory sizes") {
  CHECK(parse_memory_size("4G", "--memory-limit") == 4ull << 30);
  CHECK(parse_memory_size("512M", "--memory-limit") == 512ull << 20);
  CHECK(parse_memory_size("1048576", "--memory-limit") == 1ull << 20);
  CHECK(parse_memory_size("2048k", "--memory-limit") == 2ull << 20);
  CHECK(parse_memory_size("1T", "--memory-limit") == 1ull << 40);
  for (const char* bad : {"", "G", "1.5G", "4 G", "-1G", "64k", "10", "lots", "99999999999999G",
                          "999999999999G", "2000T"})
    CHECK_THROWS_WITH_AS(parse_memory_size(bad, "--memory-limit"),
                         doctest::Contains("--memory-limit"), InputError);
}

TEST_CASE("sorter: every record comes out once, in order, for sizes around the limits") {
  testing::ScratchFolder scratch("sorter");
  // 1.5 MiB: a buffer of 16,384 records of 48 bytes and merges of at most 4 sources.
  for (std::size_t count : {0ul, 1ul, 16383ul, 16384ul, 16385ul, 65536ul, 200001ul}) {
    const auto stars = testing::random_stars(count, static_cast<std::uint32_t>(count));
    ExternalSorter sorter(scratch / "out.h5", 3ull << 19);
    // Added from several threads at once, as the readers do.
#pragma omp parallel for schedule(dynamic, 1)
    for (long first = 0; first < static_cast<long>(count); first += 1000) {
      const auto begin = static_cast<std::size_t>(first);
      sorter.add(std::span<const StarRecord>(stars).subspan(
          begin, std::min<std::size_t>(1000, count - begin)));
    }
    CHECK(sorter.size() == count);
    std::vector<StarRecord> out;
    sorter.finish([&](std::span<const StarRecord> batch) {
      out.insert(out.end(), batch.begin(), batch.end());
    });
    auto expected = stars;
    std::sort(expected.begin(), expected.end());
    REQUIRE(out.size() == count);
    bool same = true;
    for (std::size_t i = 0; i < count; ++i)
      same = same && !(out[i] < expected[i]) && !(expected[i] < out[i]);
    CHECK_MESSAGE(same, "count " << count);
    CHECK(sorter.statistics().runs_written == (count > 16384 ? (count - 1) / 16384 : 0));
  }
}

}  // namespace starlens::catalog
