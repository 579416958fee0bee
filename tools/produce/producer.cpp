#include "producer.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "catalog/sky_cells.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "events/stream_layout.h"
#include "flux_floor.h"
#include "hit_search.h"
#include "ordered_writer.h"
#include "photon_ring.h"
#include "read_plan.h"
#include "traced_images.h"
#include "unit_reader.h"

namespace starlens::produce {
namespace {

using Clock = std::chrono::steady_clock;

struct Hit {
  std::uint32_t query;          // the unit's query of the star
  std::uint32_t mesh_triangle;  // the lens map's number
  ImagePoint point;
  double mu;  // of the triangle
  std::uint8_t order;
  std::int8_t parity;
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
  UnitWorker(RunState& run, std::unique_ptr<HitSearch> search)
      : run_(run),
        search_(std::move(search)),
        tally_(run.index.triangle_count(), run.settings.width, run.settings.height),
        flux_floors_(run.assembler.quick_bound()) {
    if (const auto& region = run.settings.bounds.sky_region) {
      bounded_region_ = true;
      region_centre_ = region->centre();
      region_cos_radius_ = std::cos(region->radius_deg * kDegree);
    }
  }

  // The unit's stars selected cell by cell, their images found in one search (hit_search.h),
  // then each cell's images in order until the unit is done.
  // ids: with --images, the star id of each of the unit's rows.
  UnitOutput process(const catalog::CellBlock& block, const std::vector<std::int64_t>& ids) {
    output_ = UnitOutput{};
    block_ = &block;
    ids_ = &ids;
    output_.cells = block.end_cell - block.first_cell;
    unit_events_ = 0;
    const auto start = Clock::now();
    cells_.clear();
    queries_.clear();
    query_stars_.clear();
    query_scales_.clear();
    query_observed_.clear();
    for (std::uint64_t cell = block.first_cell; cell < block.end_cell; ++cell) {
      const std::size_t slot = run_.index.slot_of(cell);
      if (slot == TriangleIndex::kNoSlot)
        throw std::logic_error("read a cell the index does not hold");
      select_stars(cell, slot, block.cell(cell));
      if (!cells_.back().problem.empty()) break;  // reported when the cell's turn comes
    }
    search_->find(queries_, found_);
    times.add("mapping", std::chrono::duration<double>(Clock::now() - start).count());
    for (const SelectedCell& selected : cells_) {
      if (unit_done()) break;
      process_cell(selected, block.cell(selected.cell));
    }
    output_.whole = !unit_done();
    close_chunk();
    return std::move(output_);
  }

  PhaseTimes times;

 private:
  // What the selection of one cell's stars left for its turn.
  struct SelectedCell {
    std::uint64_t cell;
    std::size_t slot;
    std::size_t stars;
    std::uint32_t first_query;
    std::uint32_t end_query;
    std::uint64_t outside_region = 0;
    std::uint64_t too_faint = 0;
    std::size_t bad_star = 0;  // the first star with bad photometry, when `problem` says one
    std::string problem;
  };

  // The run stopped, or this unit alone holds --max-events events (none after them can be
  // written, whatever the units before it hold).
  bool unit_done() const {
    const std::uint64_t limit = run_.settings.bounds.max_events;
    return (limit > 0 && unit_events_ >= limit) || run_.stop.load(std::memory_order_relaxed);
  }

  // The cell's stars that may have a visible image become queries of the unit's search.
  void select_stars(std::uint64_t cell, std::size_t slot,
                    std::span<const catalog::CatalogStar> stars) {
    SelectedCell& selected = cells_.emplace_back();
    selected.cell = cell;
    selected.slot = slot;
    selected.stars = stars.size();
    selected.first_query = static_cast<std::uint32_t>(queries_.size());
    const double max_mu = run_.index.max_mu(slot);
    const double max_g = run_.index.max_g(slot);
    const double* floors = flux_floors_.for_max_g(max_g);
    for (std::size_t s = 0; s < stars.size(); ++s) {
      const catalog::CatalogStar& star = stars[s];
      if (!plausible_photometry(star)) {
        selected.bad_star = s;
        selected.problem = *star_photometry_problem(star);
        break;
      }
      // The region first (a bounded run counts what it leaves out), then the brightness floor
      // (most stars of a deep catalogue are too faint for any image of this cell to be seen),
      // then the exact bound and the direction, which only stars that may be seen need.
      Vec3 p{};
      if (bounded_region_) {
        p = direction_of(star);
        if (inline_dot(p, region_centre_) < region_cos_radius_) {
          ++selected.outside_region;
          continue;
        }
      }
      if (FluxFloors::too_faint(floors, star.teff_k, star.flux_jy, max_mu)) {
        ++selected.too_faint;
        continue;
      }
      double k = 0;
      try {
        k = run_.assembler.spectrum_scale(star);
      } catch (const std::domain_error& error) {
        selected.bad_star = s;
        selected.problem = error.what();
        break;
      }
      const EventAssembler::Observed observed = run_.assembler.observed(star.teff_k, max_g);
      const double min_mu = run_.assembler.smallest_visible_mu(observed, k);
      if (!(max_mu >= min_mu)) {
        ++selected.too_faint;
        continue;
      }
      if (!bounded_region_) p = direction_of(star);
      queries_.push_back({p, min_mu, static_cast<std::uint32_t>(slot)});
      query_stars_.push_back(static_cast<std::uint32_t>(s));
      query_scales_.push_back(k);
      query_observed_.push_back(observed);
    }
    selected.end_query = static_cast<std::uint32_t>(queries_.size());
  }

  // The cell's images (in star order, and per star in for_each_hit's), then their colour and
  // class.
  void process_cell(const SelectedCell& selected, std::span<const catalog::CatalogStar> stars) {
    if (!selected.problem.empty())
      throw_bad_star(selected.cell, selected.bad_star, selected.problem);
    const auto start = Clock::now();
    ProducerCounts& counts = output_.counts;
    counts.stars_outside_region += selected.outside_region;
    counts.stars_too_faint += selected.too_faint;
    hits_.clear();
    const TriangleIndex& index = run_.index;
    const std::uint32_t* first = found_.first.data();
    for (std::uint32_t h = first[selected.first_query]; h < first[selected.end_query]; ++h)
      index.prefetch_image_vertices(found_.hits[h].triangle);
    const schwarzschild::PointLens* lens = index.point_lens();
    const PhotonRing* ring = index.photon_ring();
    const ObserverMotion& motion = index.motion();
    const TracedImages* traced = index.traced_images();
    const bool point_values = lens || traced || motion.moving();
    std::uint64_t imaged = 0;
    for (std::uint32_t q = selected.first_query; q < selected.end_query; ++q) {
      const std::size_t hits_before = hits_.size();
      const Vec3& source = queries_[q].point;
      const double min_mu = queries_[q].min_mu;
      // The star's angle from the hole, shared by its images of every order: computed at the
      // first that needs it.
      std::optional<schwarzschild::PointLens::SourceAngle> angle;
      const auto source_angle = [&] {
        if (!angle) angle = lens->source_angle(source);
        return *angle;
      };
      for (std::uint32_t h = first[q]; h < first[q + 1]; ++h) {
        const QueryHit& hit = found_.hits[h];
        // Of order < PhotonRing::kFirstOrder where the run has the ring: the index leaves out
        // the triangles of the point lens's orders.
        const std::uint8_t order = index.image_order(hit.triangle);
        ImagePoint point = index.map(hit.triangle, hit.weights);
        double mu = index.mu(hit.triangle);
        if (point_values && index.max_mu_of(hit.triangle) < min_mu) {
          // Too faint at the triangle's bound of the point magnification: discarded with it as
          // with the exact value, which the search would only find to be smaller.
          mu = index.max_mu_of(hit.triangle);
        } else if (lens) {
          // The exact image of the star of this order, from the interpolated one.
          const schwarzschild::PointImage image =
              lens->image(source_angle(), order, index.psi(hit.triangle, hit.weights));
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
        } else if (traced) {
          // The star's exact image next to the interpolated one, from traced rays; the
          // triangle's values where the search fails or finds the other parity.
          const TracedImages::Image image = traced->refine(source, point.x, point.y, min_mu);
          if (image.faint) {
            mu = image.mu;  // below min_mu: discarded, as with the exact value
          } else if (image.found && image.parity == index.parity(hit.triangle)) {
            point = {image.x, image.y, image.g};
            mu = image.mu;
            if (mu > index.max_mu_of(hit.triangle)) ++counts.images_point_mu_above_bound;
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
        hits_.push_back(
            {q, index.mesh_triangle(hit.triangle), point, mu, order, index.parity(hit.triangle)});
      }
      if (ring) {
        PhotonRing::Star star = lens ? ring->star(source, source_angle()) : ring->star(source);
        add_ring_images(*ring, q, star, stars[query_stars_[q]], index.max_g(selected.slot),
                        index.ring_beyond_first_max_mu(selected.slot), counts);
      }
      imaged += hits_.size() > hits_before;
    }
    counts.stars_imaged += imaged;
    counts.stars_read += selected.stars;
    counts.images += hits_.size();
    const auto mapped = Clock::now();
    times.add("mapping", std::chrono::duration<double>(mapped - start).count());

    for (const Hit& hit : hits_) {
      if (unit_done()) break;
      const catalog::CatalogStar& star = stars[query_stars_[hit.query]];
      const double k = query_scales_[hit.query];
      StarEvent event;
      const EventAssembler::Observed& observed = query_observed_[hit.query];
      const Classification classification =
          hit.point.g == observed.g
              ? run_.assembler.assemble(observed, k, hit.point, hit.mu, event)
              : run_.assembler.assemble(star.teff_k, k, hit.point, hit.mu, event);
      ++counts.events_by_class[static_cast<int>(classification.event_class)];
      if (classification.event_class == EventClass::discarded) continue;
      if (classification.bounded_by_max) ++counts.direct_bounded;
      add_event(event, hit.mesh_triangle, classification);
      if (run_.settings.images) {
        const std::uint64_t row =
            block_->offsets[selected.cell - block_->first_cell] + query_stars_[hit.query];
        output_.chunks.back().images.push_back(
            {ids_->at(row), hit.point.g, hit.parity * hit.mu, hit.order, hit.parity});
      }
    }
    times.add("colour", std::chrono::duration<double>(Clock::now() - mapped).count());
  }

  // The star's images from the point lens, order by order from PhotonRing::kFirstOrder (the
  // secondary, then the photon ring's), until two orders in a row are too faint to be seen: the
  // orders alternate sides of the hole, and the next on either side is fainter than the last
  // (from order 2 on by e^(-2 pi) ~ 1/535), far more than the Doppler factor of a moving camera
  // changes along the ring.
  // cell_max_g: the index's max_g of the star's cell, at which the selection found the query's
  // min_mu; beyond_first_max_mu: the cell's bound on the orders above the first.
  void add_ring_images(const PhotonRing& ring, std::uint32_t q, PhotonRing::Star& source,
                       const catalog::CatalogStar& star, double cell_max_g,
                       double beyond_first_max_mu, ProducerCounts& counts) {
    const double k = query_scales_[q];
    // The smallest visible mu of the star depends on g alone: the selection's value where the
    // cell's max_g is the ring's, and the value at the ring's max_g for every image of that g
    // (all of them for a camera at rest).
    const auto visible_mu_at = [&](double g) {
      return run_.assembler.smallest_visible_mu(star.teff_k, k, g);
    };
    const double ring_g = ring.max_g();
    // The smallest visible mu at the ring's largest g: the quick estimate's threshold.
    const double visible_mu = ring_g == cell_max_g ? queries_[q].min_mu : visible_mu_at(ring_g);
    int faint_in_a_row = 0;
    // Beyond the first order nothing of this star can be seen where the cell's bound says so.
    const int last_order = beyond_first_max_mu < visible_mu ? PhotonRing::kFirstOrder : INT_MAX;
    for (int order = PhotonRing::kFirstOrder; faint_in_a_row < 2 && order <= last_order; ++order) {
      const PhotonRing::Image image = ring.image(source, order, visible_mu);
      if (!image.exists) break;
      if (image.faint ||
          !(image.mu >= (image.point.g == ring_g ? visible_mu : visible_mu_at(image.point.g)))) {
        ++faint_in_a_row;
        continue;
      }
      faint_in_a_row = 0;
      if (!image.in_frame) {
        ++counts.ring_images_outside_frame;
        continue;
      }
      ++counts.ring_images;
      ++counts.images_by_order[std::min(order, 3)];
      hits_.push_back({q, kNoTriangle, image.point, image.mu, static_cast<std::uint8_t>(order),
                       static_cast<std::int8_t>(image.parity)});
    }
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
    chunk.seal = seal_chunk(chunk.events);
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
  const catalog::CellBlock* block_ = nullptr;       // the unit being processed
  const std::vector<std::int64_t>* ids_ = nullptr;  // its rows' star ids (--images)
  std::unique_ptr<HitSearch> search_;
  ChunkTally tally_;
  FluxFloors flux_floors_;
  UnitOutput output_;
  bool chunk_closed_ = false;
  std::uint64_t unit_events_ = 0;
  std::vector<SelectedCell> cells_;
  std::vector<StarQuery> queries_;          // the unit's, cell by cell
  std::vector<std::uint32_t> query_stars_;  // each query's star, within its cell
  std::vector<double> query_scales_;        // K of each query's star
  // Each query's star seen at its cell's max_g, from the selection: the colour of every image
  // of that g (every ring image of a camera at rest where no mesh triangle of the cell has a
  // larger g).
  std::vector<EventAssembler::Observed> query_observed_;
  QueryHits found_;
  std::vector<Hit> hits_;  // of the cell being processed
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
  std::unique_ptr<SearchBackend> cpu_search;
  SearchBackend* search = settings.search;
  if (!search) {
    cpu_search = make_cpu_search(index);
    search = cpu_search.get();
  }
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  OrderedWriterSettings writing;
  writing.max_events = settings.bounds.max_events;
  writing.first_triangle = settings.first_triangle;
  writing.triangle_count = index.triangle_count();
  writing.width = settings.width;
  writing.height = settings.height;
  writing.window = settings.units_ahead_per_thread * threads;
  writing.images = settings.images;
  OrderedWriter writer(sink, writing, run.stop);
  Progress progress("produce", stars_selected, settings.quiet);
  UnitReader reader(store, units, settings.units_read_ahead_per_thread * threads, run.stop,
                    settings.images != nullptr);
  std::mutex merge_mutex;
  std::exception_ptr failure;

#pragma omp parallel
  {
    const double cpu_start = thread_cpu_seconds();
    std::optional<UnitWorker> worker_slot;
    try {
      worker_slot.emplace(run, search->for_worker());
      UnitWorker& worker = *worker_slot;
      while (std::optional<ReadBlock> read = reader.next(worker.times)) {
        writer.wait_for_turn(read->unit);
        const catalog::CellBlock block = decode(*read, worker.times);
        UnitOutput output = worker.process(block, read->ids);
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
    if (worker_slot) {
      worker_slot->times.add("produce_cpu", thread_cpu_seconds() - cpu_start);
      std::lock_guard lock(merge_mutex);
      for (const auto& [phase, seconds] : worker_slot->times.all())
        result.thread_times.add(phase, seconds);
    }
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
