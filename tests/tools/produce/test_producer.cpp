// The traversal on an identity map and a small store: every star in the field imaged once,
// the same chunks byte for byte on any thread count, --max-events exactly the first N events
// of that stream, --sky-region and --cells honoured.
#include <doctest/doctest.h>
#include <omp.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "catalog/sky_cells.h"
#include "catalog/store_writer.h"
#include "mesh_fixtures.h"
#include "optics/event_class.h"
#include "producer.h"
#include "spacetime/minkowski.h"
#include "store_fixture.h"

using namespace starlens;
using namespace starlens::produce;
using namespace starlens::produce::testing;

namespace {

class CollectingSink final : public EventSink {
 public:
  void submit(std::span<const StarEvent> events, const ChunkSeal& seal, std::uint32_t first,
              std::uint32_t last) override {
    std::lock_guard lock(mutex_);
    CHECK(first <= last);
    // The worker's seal is of exactly these events (a cut chunk is sealed again).
    CHECK(seal.count == events.size());
    CHECK(seal.checksum == XXH3_64bits(events.data(), events.size_bytes()));
    CHECK(seal.first_invalid == events.size());
    collected.insert(collected.end(), events.begin(), events.end());
    chunk_sizes.push_back(events.size());
    chunk_ranges.push_back({first, last});
    ++chunk_count;
  }
  // The stream's records and chunking, byte for byte.
  bool same_stream(const CollectingSink& other) const {
    return chunk_sizes == other.chunk_sizes && chunk_ranges == other.chunk_ranges &&
           collected.size() == other.collected.size() &&
           std::memcmp(collected.data(), other.collected.data(),
                       collected.size() * sizeof(StarEvent)) == 0;
  }
  void finish() override {}
  std::uint64_t chunks() const override { return chunk_count; }
  std::uint64_t events() const override { return collected.size(); }
  std::uint64_t bytes() const override { return 0; }
  std::vector<StarEvent> collected;
  std::vector<std::size_t> chunk_sizes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> chunk_ranges;
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
    write_store(store_path, records, 4);
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
                   CollectingSink& sink, std::uint32_t chunk = 64, std::size_t units_ahead = 4) {
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
  settings.units_ahead_per_thread = units_ahead;
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

// The counts a manifest records (the replay compares them), less the timings.
void check_same_counts(const ProducerResult& a, const ProducerResult& b) {
  CHECK(a.counts.stars_read == b.counts.stars_read);
  CHECK(a.counts.stars_too_faint == b.counts.stars_too_faint);
  CHECK(a.counts.stars_imaged == b.counts.stars_imaged);
  CHECK(a.counts.images == b.counts.images);
  for (int c = 0; c < 4; ++c) CHECK(a.counts.events_by_class[c] == b.counts.events_by_class[c]);
  CHECK(a.counts.triangles_with_events == b.counts.triangles_with_events);
  CHECK(a.catalog_reads.cells_read == b.catalog_reads.cells_read);
  CHECK(a.catalog_reads.stars_read == b.catalog_reads.stars_read);
  CHECK(a.catalog_reads.bytes_read == b.catalog_reads.bytes_read);
  CHECK(a.chunks.size() == b.chunks.size());
  for (std::size_t i = 0; i < std::min(a.chunks.size(), b.chunks.size()); ++i) {
    CHECK(a.chunks[i].triangles == b.chunks[i].triangles);
    CHECK(a.chunks[i].tiles == b.chunks[i].tiles);
  }
  CHECK(a.coverage["cells_read"] == b.coverage["cells_read"]);
  CHECK(a.coverage["cells_completed"] == b.coverage["cells_completed"]);
}

TEST_CASE("the stream is the same byte for byte on 1, 2 and 3 threads") {
  const Fixture fixture;
  CollectingSink one;
  const ProducerResult reference = run(fixture, {}, 1, one, 7);
  REQUIRE(one.chunk_count > 40);  // units of ~100 stars, several chunks of 7 each
  for (const int threads : {2, 3}) {
    // A window of one unit a thread as well as the default: workers wait their turn.
    for (const std::size_t units_ahead : {std::size_t{1}, std::size_t{4}}) {
      CAPTURE(threads);
      CAPTURE(units_ahead);
      CollectingSink many;
      const ProducerResult result = run(fixture, {}, threads, many, 7, units_ahead);
      CHECK(many.same_stream(one));
      check_same_counts(result, reference);
    }
  }
  for (const std::size_t size : one.chunk_sizes) CHECK(size <= 7);
}

TEST_CASE("--max-events: exactly the first N events of the stream, on any thread count") {
  const Fixture fixture;
  CollectingSink all;
  run(fixture, {}, 1, all, 7);
  RunBounds bounds;
  bounds.max_events = 333;
  CollectingSink capped;
  const ProducerResult result = run(fixture, bounds, 1, capped, 7);
  REQUIRE(capped.collected.size() == 333);
  CHECK(std::memcmp(capped.collected.data(), all.collected.data(), 333 * sizeof(StarEvent)) == 0);
  CHECK(result.counts.events_written() == 333);
  CHECK(result.coverage["stopped_by_max_events"] == true);
  CHECK(result.coverage["complete"] == false);
  CHECK(result.counts.stars_read < all.collected.size());  // stopped before the end
  for (const int threads : {2, 3}) {
    CAPTURE(threads);
    CollectingSink capped_parallel;
    const ProducerResult parallel = run(fixture, bounds, threads, capped_parallel, 7);
    CHECK(capped_parallel.same_stream(capped));
    check_same_counts(parallel, result);
  }
  // N inside the first unit: that unit stops at N; N = every event: the whole stream.
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{all.collected.size()}}) {
    bounds.max_events = n;
    CollectingSink first, parallel;
    run(fixture, bounds, 1, first, 7);
    run(fixture, bounds, 2, parallel, 7);
    CHECK(first.collected.size() == n);
    CHECK(parallel.same_stream(first));
  }
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
