// The producer's read-ahead (unit_reader.h): units in plan order, each taken once, read at most
// `depth` ahead, none after a stop; the stars of a unit those of CatalogStore::read_cells, from
// uncompressed and compressed stores alike.
#include <doctest/doctest.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <random>

#include "catalog/sky_cells.h"
#include "catalog/store_writer.h"
#include "read_plan.h"
#include "unit_reader.h"

using namespace starlens;
using namespace starlens::produce;

namespace {

// A store of 3000 random stars at order 3 (768 cells), uncompressed or deflated.
struct StoreFixture {
  std::filesystem::path path;

  explicit StoreFixture(int deflate) {
    path = std::filesystem::temp_directory_path() /
           ("unit-reader-" + std::to_string(::getpid()) + "-" + std::to_string(deflate) + ".h5");
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> ra(0, 360), sin_dec(-1, 1), teff(3000, 9000);
    std::vector<catalog::StarRecord> records(3000);
    for (catalog::StarRecord& star : records) {
      star.ra_deg = ra(random);
      star.dec_deg = std::asin(sin_dec(random)) / kDegree;
      star.key = catalog::sky_key(star.ra_deg, star.dec_deg);
      star.teff_k = static_cast<float>(teff(random));
      star.flux_jy = 1;
    }
    std::sort(records.begin(), records.end());
    catalog::StoreDescription description;
    description.band = catalog::band_by_name("V", "--band");
    description.teff_relation = "given";
    description.deflate = deflate;
    catalog::StoreWriter writer(path, path.string(), 3, description);
    writer.append(records);
    writer.finish();
  }
  ~StoreFixture() { std::filesystem::remove(path); }
};

std::vector<std::uint64_t> all_cells(const catalog::CatalogStore& store) {
  std::vector<std::uint64_t> cells(store.cell_count());
  for (std::uint64_t cell = 0; cell < cells.size(); ++cell) cells[cell] = cell;
  return cells;
}

void check_same_stars(const catalog::CellBlock& a, const catalog::CellBlock& b) {
  CHECK(a.first_cell == b.first_cell);
  CHECK(a.end_cell == b.end_cell);
  CHECK(a.offsets == b.offsets);
  REQUIRE(a.stars.size() == b.stars.size());
  for (std::size_t i = 0; i < a.stars.size(); ++i) {
    CHECK(a.stars[i].ra == b.stars[i].ra);
    CHECK(a.stars[i].dec == b.stars[i].dec);
    CHECK(a.stars[i].teff_k == b.stars[i].teff_k);
    CHECK(a.stars[i].cell == b.stars[i].cell);
  }
}

}  // namespace

TEST_CASE("units in plan order, decoded as read_cells reads them") {
  const StoreFixture fixture(0);
  catalog::CatalogStore store(fixture.path);
  catalog::CatalogStore check(fixture.path);
  const std::vector<ReadUnit> units = plan_reads(all_cells(store), store, 200);
  REQUIRE(units.size() > 10);
  std::atomic<bool> stop{false};
  UnitReader reader(store, units, 2, stop);
  PhaseTimes times;
  for (std::size_t expected = 0; expected < units.size(); ++expected) {
    std::optional<ReadBlock> read = reader.next(times);
    REQUIRE(read);
    CHECK(read->unit == expected);
    CHECK(read->reads.stars_read == units[expected].stars);
    const catalog::CellBlock block = decode(*read, times);
    check_same_stars(block, check.read_cells(units[expected].first_cell, units[expected].end_cell));
  }
  CHECK_FALSE(reader.next(times));
  CHECK(reader.take_untaken().empty());
  CHECK(times.get("read") > 0);
}

TEST_CASE("every unit taken once on many threads, each thread's units ascending") {
  const StoreFixture fixture(0);
  catalog::CatalogStore store(fixture.path);
  const std::vector<ReadUnit> units = plan_reads(all_cells(store), store, 50);
  std::atomic<bool> stop{false};
  UnitReader reader(store, units, 4, stop);
  std::mutex mutex;
  std::vector<std::size_t> taken;
  bool ascending = true;
#pragma omp parallel num_threads(4)
  {
    PhaseTimes times;
    std::size_t last = 0;
    bool first = true;
    while (std::optional<ReadBlock> read = reader.next(times)) {
      const catalog::CellBlock block = decode(*read, times);
      std::lock_guard lock(mutex);
      ascending = ascending && (first || read->unit > last);
      first = false;
      last = read->unit;
      taken.push_back(read->unit);
    }
  }
  CHECK(ascending);
  std::sort(taken.begin(), taken.end());
  REQUIRE(taken.size() == units.size());
  for (std::size_t unit = 0; unit < taken.size(); ++unit) CHECK(taken[unit] == unit);
}

TEST_CASE("read at most depth units ahead; none taken after a stop") {
  const StoreFixture fixture(0);
  catalog::CatalogStore store(fixture.path);
  const std::vector<ReadUnit> units = plan_reads(all_cells(store), store, 200);
  std::atomic<bool> stop{false};
  UnitReader reader(store, units, 2, stop);
  PhaseTimes times;
  REQUIRE(reader.next(times)->unit == 0);
  stop = true;
  CHECK_FALSE(reader.next(times));
  const std::deque<ReadBlock> untaken = reader.take_untaken();
  REQUIRE(untaken.size() == 2);
  CHECK(untaken[0].unit == 1);
  CHECK(untaken[1].unit == 2);
  CHECK(store.statistics().cells_read == units[0].end_cell - units[0].first_cell +
                                             untaken[0].reads.cells_read +
                                             untaken[1].reads.cells_read);
}

TEST_CASE("a deflated store: the same stars, fewer stored bytes counted") {
  const StoreFixture plain(0), deflated(6);
  catalog::CatalogStore plain_store(plain.path), deflated_store(deflated.path);
  const catalog::CellBlock a = plain_store.read_cells(10, 400);
  const catalog::CellBlock b = deflated_store.read_cells(10, 400);
  check_same_stars(a, b);
  const catalog::ReadStatistics& p = plain_store.statistics();
  const catalog::ReadStatistics& d = deflated_store.statistics();
  CHECK(d.bytes_requested == p.bytes_requested);
  CHECK(d.bytes_read > 0);
  CHECK(d.bytes_read < p.bytes_read);
}
