// The traversal on an identity map and a small store: every star in the field imaged once,
// --max-events exact on any thread count, --sky-region and --cells honoured.
// clang-format off
// First: optics/moffat_impl.h names kPi unqualified under a using-directive, which is ambiguous
// once sky/frames.h has declared starlens::kPi (reported to the optics module's owner).
#include "optics/psf.h"
// clang-format on
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <random>

#include "catalog/sky_cells.h"
#include "catalog/store_writer.h"
#include "mesh_fixtures.h"
#include "producer.h"
#include "spacetime/minkowski.h"

using namespace starlens;
using namespace starlens::produce;
using namespace starlens::produce::testing;

namespace {

class CollectingSink final : public EventSink {
 public:
  void submit(std::span<const StarEvent> events, std::uint32_t first, std::uint32_t last) override {
    std::lock_guard lock(mutex_);
    CHECK(first <= last);
    collected.insert(collected.end(), events.begin(), events.end());
    ++chunk_count;
  }
  void finish() override {}
  std::uint64_t chunks() const override { return chunk_count; }
  std::uint64_t events() const override { return collected.size(); }
  std::uint64_t bytes() const override { return 0; }
  std::vector<StarEvent> collected;
  std::uint64_t chunk_count = 0;

 private:
  std::mutex mutex_;
};

struct Fixture {
  std::filesystem::path directory;
  std::filesystem::path store_path;
  PinholeCamera camera{unit_vector_from_angles(0.8, 0.2), 40, 160, 100};
  LensMesh mesh;
  std::vector<Vec3> stars;

  Fixture() {
    directory =
        std::filesystem::temp_directory_path() / ("produce-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory);
    store_path = directory / "store.h5";
    mesh = grid_mesh(camera, MinkowskiSpacetime(), 4, 5 * kDegree);
    std::mt19937_64 random(2);
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<catalog::StarRecord> records;
    for (int i = 0; i < 4000; ++i) {
      const Vec3 d = normalized({camera.forward[0] + 0.6 * uniform(random),
                                 camera.forward[1] + 0.6 * uniform(random),
                                 camera.forward[2] + 0.6 * uniform(random)});
      const auto angles = angles_from_vector(d);
      catalog::StarRecord star;
      star.ra_deg = angles[0] / kDegree;
      star.dec_deg = angles[1] / kDegree;
      star.key = catalog::sky_key(star.ra_deg, star.dec_deg);
      star.teff_k = 5000;
      star.flux_jy = 10;
      records.push_back(star);
    }
    std::sort(records.begin(), records.end());
    for (const auto& r : records)
      stars.push_back(unit_vector_from_angles(r.ra_deg * kDegree, r.dec_deg * kDegree));
    catalog::StoreDescription description;
    description.band = catalog::band_by_name("V", "--band");
    description.teff_relation = "given";
    catalog::StoreWriter writer(store_path, store_path.string(), 4, description);
    writer.append(records);
    writer.finish();
  }
  ~Fixture() { std::filesystem::remove_all(directory); }

  std::size_t stars_in_field() const {
    std::size_t n = 0;
    for (const Vec3& d : stars) {
      const auto xy = camera.project(d);
      n += dot(d, camera.forward) > 0 && xy[0] > 0 && xy[0] < camera.width && xy[1] > 0 &&
           xy[1] < camera.height;
    }
    return n;
  }
};

ProducerResult run(const Fixture& fixture, const RunBounds& bounds, int threads,
                   CollectingSink& sink, std::uint32_t chunk = 64) {
  catalog::CatalogStore store(fixture.store_path);
  const TriangleIndex index(fixture.mesh, store.order());
  const EventAssembler assembler(PsfModel{}, store.band().wavelength_um, ColourMode::table);
  ProducerSettings settings;
  settings.chunk_events = chunk;
  settings.block_stars = 100;
  settings.bounds = bounds;
  settings.width = fixture.mesh.width;
  settings.height = fixture.mesh.height;
  settings.quiet = true;
  omp_set_num_threads(threads);
  return run_producer(index, store, assembler, settings, sink);
}

}  // namespace

TEST_CASE("identity map: every star in the field becomes exactly one event, in chunks") {
  const Fixture fixture;
  CollectingSink sink;
  const ProducerResult result = run(fixture, {}, 2, sink);
  CHECK(fixture.stars_in_field() > 500);
  CHECK(sink.collected.size() == fixture.stars_in_field());
  CHECK(result.counts.events_written() == sink.collected.size());
  CHECK(result.counts.stars_imaged == fixture.stars_in_field());
  CHECK(result.chunks.size() == sink.chunk_count);
  CHECK(result.coverage["complete"] == true);
  for (const StarEvent& event : sink.collected) {
    CHECK(event.x >= 0);
    CHECK(event.x <= fixture.camera.width);
  }
}

TEST_CASE("--max-events: exactly N events, the first N of the traversal on one thread") {
  const Fixture fixture;
  CollectingSink all, capped, capped_parallel;
  run(fixture, {}, 1, all);
  RunBounds bounds;
  bounds.max_events = 333;
  const ProducerResult result = run(fixture, bounds, 1, capped);
  REQUIRE(capped.collected.size() == 333);
  for (std::size_t i = 0; i < 333; ++i) CHECK(capped.collected[i].x == all.collected[i].x);
  CHECK(result.coverage["stopped_by_max_events"] == true);
  CHECK(result.coverage["complete"] == false);
  CHECK(result.counts.stars_read < all.collected.size());  // stopped before the end
  run(fixture, bounds, 2, capped_parallel, 7);
  CHECK(capped_parallel.collected.size() == 333);
}

TEST_CASE("--sky-region keeps the stars within the radius; --cells reads only those cells") {
  const Fixture fixture;
  RunBounds bounds;
  const auto centre = angles_from_vector(fixture.camera.forward);
  bounds.sky_region = SkyRegion{centre[0] / kDegree, centre[1] / kDegree, 5};
  CollectingSink sink;
  const ProducerResult result = run(fixture, bounds, 2, sink);
  std::size_t expected = 0;
  for (const Vec3& d : fixture.stars)
    expected += dot(d, fixture.camera.forward) >= std::cos(5 * kDegree);
  CHECK(sink.collected.size() == expected);
  CHECK(result.counts.stars_outside_region > 0);

  catalog::CatalogStore store(fixture.store_path);
  const TriangleIndex index(fixture.mesh, store.order());
  const auto all_cells = select_cells(index, {});
  REQUIRE(all_cells.size() > 4);
  RunBounds cells;
  cells.cells = IndexRange{all_cells[1], all_cells[3] + 1};
  const auto some = select_cells(index, cells);
  CHECK(some == std::vector<std::uint64_t>(all_cells.begin() + 1, all_cells.begin() + 4));
  CollectingSink bounded;
  const ProducerResult part = run(fixture, cells, 1, bounded);
  CHECK(part.coverage["cells_read"] == 3);
  const catalog::SkyCells sky(store.order());
  std::size_t in_cells = 0;
  for (const Vec3& d : fixture.stars) in_cells += cells.cells->contains(sky.cell_of(d));
  CHECK(part.counts.stars_read == in_cells);
}
