#include "producer.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "catalog/sky_cells.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "events/stream_layout.h"
#include "flux_floor.h"
#include "ordered_writer.h"
#include "read_plan.h"
#include "unit_reader.h"

namespace starlens::produce {
namespace {

using Clock = std::chrono::steady_clock;

struct Hit {
  std::uint32_t star;           // within the cell
  std::uint32_t mesh_triangle;  // the lens map's number
  ImagePoint point;
  double mu;  // of the triangle
};

// Shared state of one run.
struct RunState {
  const TriangleIndex& index;
  const EventAssembler& assembler;
  const ProducerSettings& settings;
  const std::string& catalogue_path;
  std::atomic<bool> stop{false};  // --max-events reached or a worker failed
};

// One OpenMP thread: turns read units into their events, chunk by chunk. What a unit gives
// depends on the unit alone (and, under --max-events, on N), never on the other workers.
class UnitWorker {
 public:
  explicit UnitWorker(RunState& run)
      : run_(run),
        tally_(run.index.triangle_count(), run.settings.width, run.settings.height),
        flux_floors_(run.assembler.quick_bound()) {
    if (const auto& region = run.settings.bounds.sky_region) {
      bounded_region_ = true;
      region_centre_ = region->centre();
      region_cos_radius_ = std::cos(region->radius_deg * kDegree);
    }
  }

  UnitOutput process(const catalog::CellBlock& block) {
    output_ = UnitOutput{};
    output_.cells = block.end_cell - block.first_cell;
    unit_events_ = 0;
    for (std::uint64_t cell = block.first_cell; cell < block.end_cell && !unit_done(); ++cell) {
      const std::size_t slot = run_.index.slot_of(cell);
      if (slot == TriangleIndex::kNoSlot)
        throw std::logic_error("read a cell the index does not hold");
      process_cell(cell, slot, block.cell(cell));
    }
    output_.whole = !unit_done();
    close_chunk();
    return std::move(output_);
  }

  PhaseTimes times;

 private:
  // The run stopped, or this unit alone holds --max-events events (none after them can be
  // written, whatever the units before it hold).
  bool unit_done() const {
    const std::uint64_t limit = run_.settings.bounds.max_events;
    return (limit > 0 && unit_events_ >= limit) || run_.stop.load(std::memory_order_relaxed);
  }

  // Mapping (each star against its cell's grid), then colour and class per image.
  void process_cell(std::uint64_t cell, std::size_t slot,
                    std::span<const catalog::CatalogStar> stars) {
    const auto start = Clock::now();
    ProducerCounts& counts = output_.counts;
    const std::size_t count = stars.size();
    hits_.clear();
    imaged_.assign(count, 0);
    spectrum_scale_.assign(count, 0.0);
    const double max_mu = run_.index.max_mu(slot);
    const double max_g = run_.index.max_g(slot);
    const double* floors = flux_floors_.for_max_g(max_g);
    for (std::size_t s = 0; s < count; ++s) {
      const catalog::CatalogStar& star = stars[s];
      if (!plausible_photometry(star)) throw_bad_star(cell, s, *star_photometry_problem(star));
      // The region first (a bounded run counts what it leaves out), then the brightness floor
      // (most stars of a deep catalogue are too faint for any image of this cell to be seen),
      // then the exact bound and the direction, which only stars that may be seen need.
      Vec3 p{};
      if (bounded_region_) {
        p = direction_of(star);
        if (inline_dot(p, region_centre_) < region_cos_radius_) {
          ++counts.stars_outside_region;
          continue;
        }
      }
      if (FluxFloors::too_faint(floors, star.teff_k, star.flux_jy, max_mu)) {
        ++counts.stars_too_faint;
        continue;
      }
      double& k = spectrum_scale_[s];
      try {
        k = run_.assembler.spectrum_scale(star);
      } catch (const std::domain_error& error) {
        throw_bad_star(cell, s, error.what());
      }
      const double min_mu = run_.assembler.smallest_visible_mu(star.teff_k, k, max_g);
      if (!(max_mu >= min_mu)) {
        ++counts.stars_too_faint;
        continue;
      }
      if (!bounded_region_) p = direction_of(star);
      batch_stars_.push_back(static_cast<std::uint32_t>(s));
      batch_points_.push_back(p);
      batch_min_mu_.push_back(min_mu);
      if (batch_stars_.size() == kBatchStars) map_batch(slot);
    }
    map_batch(slot);
    std::uint64_t imaged = 0;
    for (const std::uint8_t flag : imaged_) imaged += flag;
    counts.stars_imaged += imaged;
    counts.stars_read += count;
    counts.images += hits_.size();
    const auto mapped = Clock::now();
    times.add("mapping", std::chrono::duration<double>(mapped - start).count());

    for (const Hit& hit : hits_) {
      if (unit_done()) break;
      const catalog::CatalogStar& star = stars[hit.star];
      const double k = spectrum_scale_[hit.star];
      StarEvent event;
      const Classification classification =
          run_.assembler.assemble(star.teff_k, k, hit.point, hit.mu, event);
      ++counts.events_by_class[static_cast<int>(classification.event_class)];
      if (classification.event_class == EventClass::discarded) continue;
      if (classification.bounded_by_max) ++counts.direct_bounded;
      add_event(event, hit.mesh_triangle, classification);
    }
    times.add("colour", std::chrono::duration<double>(Clock::now() - mapped).count());
  }

  // The images of the stars batched so far (in star order, as for_each_hit gives them one
  // star at a time), then their positions: triangles, then their vertices, asked for ahead.
  void map_batch(std::size_t slot) {
    if (batch_stars_.empty()) return;
    const TriangleIndex& index = run_.index;
    batch_hits_.clear();
    index.for_each_hit_batch(
        slot, batch_points_.data(), batch_min_mu_.data(), batch_stars_.size(), scratch_,
        [&](std::uint32_t b, std::uint32_t triangle, const Barycentric& weights) {
          index.prefetch_image(triangle);
          batch_hits_.push_back({b, triangle, weights});
        });
    for (const BatchHit& hit : batch_hits_) index.prefetch_image_vertices(hit.triangle);
    const schwarzschild::PointLens* lens = index.point_lens();
    const ObserverMotion& motion = index.motion();
    const bool point_values = lens || motion.moving();
    ProducerCounts& counts = output_.counts;
    for (const BatchHit& hit : batch_hits_) {
      const std::uint32_t star = batch_stars_[hit.batch];
      ImagePoint point = index.map(hit.triangle, hit.weights);
      double mu = index.mu(hit.triangle);
      const std::uint8_t order = index.image_order(hit.triangle);
      const Vec3& source = batch_points_[hit.batch];
      if (point_values && index.max_mu_of(hit.triangle) < batch_min_mu_[hit.batch]) {
        // Too faint at the triangle's bound of the point magnification: discarded with it as
        // with the exact value, which the search would only find to be smaller.
        mu = index.max_mu_of(hit.triangle);
      } else if (lens) {
        // The exact image of the star of this order, from the interpolated one.
        const schwarzschild::PointImage image =
            lens->image(source, order, index.psi(hit.triangle, hit.weights));
        if (image.converged && std::isfinite(image.mu)) {
          mu = image.mu;
          if (motion.moving()) {
            // Seen by the moving camera (observer_motion.h): mu / D^2 and g D, D at the
            // image's static direction.
            const double d =
                motion.doppler_of_static(lens->image_direction(source, order, image.psi));
            mu /= d * d;
            point.g = lens->frequency_ratio() * d;
          }
        } else {
          ++counts.images_triangle_mu;
        }
      } else if (point_values) {
        // Flat space seen by a moving camera: the star's own direction is the static one.
        const double d = motion.doppler_of_static(source);
        mu = 1 / (d * d);
        point.g = d;
      }
      ++counts.images_by_order[std::min<int>(order, 3)];
      hits_.push_back({star, index.mesh_triangle(hit.triangle), point, mu});
      imaged_[star] = 1;
    }
    batch_stars_.clear();
    batch_points_.clear();
    batch_min_mu_.clear();
  }

  // Into the unit's open chunk, which is closed when it holds --chunk-events events.
  void add_event(const StarEvent& event, std::uint32_t triangle,
                 const Classification& classification) {
    if (output_.chunks.empty() || chunk_closed_) {
      output_.chunks.emplace_back();
      chunk_closed_ = false;
    }
    UnitChunk& chunk = output_.chunks.back();
    chunk.events.push_back(event);
    chunk.triangles.push_back(triangle);
    chunk.classes.push_back(classification);
    ++unit_events_;
    if (chunk.events.size() == run_.settings.chunk_events) close_chunk();
  }

  void close_chunk() {
    if (output_.chunks.empty() || chunk_closed_) return;
    UnitChunk& chunk = output_.chunks.back();
    chunk.summary = tally_.summarise(chunk.events, chunk.triangles);
    chunk_closed_ = true;
  }

  // star_photometry_problem's test without building its message.
  static bool plausible_photometry(const catalog::CatalogStar& star) {
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    return star.teff_k > 0 && star.teff_k < kInfinity && star.flux_jy >= 0 &&
           star.flux_jy < kInfinity;
  }

  static Vec3 direction_of(const catalog::CatalogStar& star) {
    const double cos_dec = std::cos(star.dec);
    return {cos_dec * std::cos(star.ra), cos_dec * std::sin(star.ra), std::sin(star.dec)};
  }

  [[noreturn]] void throw_bad_star(std::uint64_t cell, std::size_t star,
                                   const std::string& problem) const {
    throw_input_error(run_.catalogue_path,
                      "star " + std::to_string(star) + " of cell " + std::to_string(cell), problem);
  }

  RunState& run_;
  ChunkTally tally_;
  FluxFloors flux_floors_;
  UnitOutput output_;
  bool chunk_closed_ = false;
  std::uint64_t unit_events_ = 0;
  struct BatchHit {
    std::uint32_t batch;  // the star's place in the batch
    std::uint32_t triangle;
    Barycentric weights;
  };
  // Stars looked up together (their cache misses overlap); more stars, more in flight, but
  // their data must stay in cache between the steps.
  static constexpr std::size_t kBatchStars = 128;
  std::vector<std::uint32_t> batch_stars_;  // within the cell
  std::vector<Vec3> batch_points_;
  std::vector<double> batch_min_mu_;
  std::vector<BatchHit> batch_hits_;
  TriangleIndex::BatchScratch scratch_;
  std::vector<Hit> hits_;
  std::vector<std::uint8_t> imaged_;    // stars with at least one image
  std::vector<double> spectrum_scale_;  // K of each star of the cell
  bool bounded_region_ = false;
  Vec3 region_centre_{};
  double region_cos_radius_ = -2;
};

}  // namespace

std::vector<std::uint64_t> select_cells(const TriangleIndex& index, const RunBounds& bounds) {
  std::vector<std::uint64_t> cells = index.cells();
  if (bounds.cells) {
    std::erase_if(cells, [&](std::uint64_t cell) { return !bounds.cells->contains(cell); });
  }
  if (bounds.sky_region) {
    const catalog::SkyCells sky(index.catalogue_order());
    std::vector<std::uint64_t> region =
        sky.cells_in_disc(bounds.sky_region->centre(), bounds.sky_region->radius_deg * kDegree);
    std::sort(region.begin(), region.end());
    std::vector<std::uint64_t> both;
    std::set_intersection(cells.begin(), cells.end(), region.begin(), region.end(),
                          std::back_inserter(both));
    cells = std::move(both);
  }
  return cells;
}

ProducerResult run_producer(const TriangleIndex& index, catalog::CatalogStore& store,
                            const EventAssembler& assembler, const ProducerSettings& settings,
                            EventSink& sink) {
  const auto start = Clock::now();
  ProducerResult result;
  const std::vector<std::uint64_t> cells = select_cells(index, settings.bounds);
  const std::vector<ReadUnit> units = plan_reads(cells, store, settings.block_stars);
  std::uint64_t stars_selected = 0;
  for (const ReadUnit& unit : units) stars_selected += unit.stars;

  RunState run{index, assembler, settings, store.path()};
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  OrderedWriterSettings writing;
  writing.max_events = settings.bounds.max_events;
  writing.first_triangle = settings.first_triangle;
  writing.triangle_count = index.triangle_count();
  writing.width = settings.width;
  writing.height = settings.height;
  writing.window = settings.units_ahead_per_thread * threads;
  OrderedWriter writer(sink, writing, run.stop);
  Progress progress("produce", stars_selected, settings.quiet);
  UnitReader reader(store, units, settings.units_read_ahead_per_thread * threads, run.stop);
  std::mutex merge_mutex;
  std::exception_ptr failure;

#pragma omp parallel
  {
    const double cpu_start = thread_cpu_seconds();
    UnitWorker worker(run);
    try {
      while (std::optional<ReadBlock> read = reader.next(worker.times)) {
        writer.wait_for_turn(read->unit);
        const catalog::CellBlock block = decode(*read, worker.times);
        UnitOutput output = worker.process(block);
        output.reads = read->reads;
        progress.advance(block.stars.size());
        writer.deliver(read->unit, std::move(output));
      }
    } catch (...) {
      {
        std::lock_guard lock(merge_mutex);
        if (!failure) failure = std::current_exception();
      }
      writer.abandon();
    }
    worker.times.add("produce_cpu", thread_cpu_seconds() - cpu_start);
    std::lock_guard lock(merge_mutex);
    for (const auto& [phase, seconds] : worker.times.all()) result.thread_times.add(phase, seconds);
  }
  if (failure) std::rethrow_exception(failure);
  progress.finish();
  // Read ahead past the --max-events cut: counted as read past it, like the units workers took.
  for (ReadBlock& untaken : reader.take_untaken()) {
    UnitOutput unprocessed;
    unprocessed.reads = untaken.reads;
    unprocessed.cells = untaken.stored.end_cell - untaken.stored.first_cell;
    writer.deliver(untaken.unit, std::move(unprocessed));
  }

  result.counts = writer.counts();
  result.counts.triangles_with_events = writer.triangles_with_events();
  result.chunks = writer.chunks();
  result.thread_times.add("write", writer.write_seconds());
  // What the stream's units cost to read (and planning them), not what workers read past the
  // --max-events cut: the counts do not depend on the thread count.
  result.catalog_reads = reads_between(writer.reads_discarded(), store.statistics());
  const bool stopped_by_max = writer.reached_max_events();
  const bool complete = writer.cells_completed() == cells.size() && !stopped_by_max;
  result.coverage = {
      {"cells_selected", cells.size()},
      {"cells_read", writer.cells_read()},
      {"cells_completed", writer.cells_completed()},
      {"cells_read_past_max_events", writer.cells_discarded()},
      {"stars_selected", stars_selected},
      {"stars_read", result.counts.stars_read},
      {"first_cell", cells.empty() ? nlohmann::json() : nlohmann::json(cells.front())},
      {"last_cell", cells.empty() ? nlohmann::json() : nlohmann::json(cells.back())},
      {"stopped_by_max_events", stopped_by_max},
      {"complete", complete}};
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace starlens::produce
