#include "producer.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>

#include "catalog/sky_cells.h"
#include "core/errors.h"
#include "core/progress.h"
#include "events/stream_layout.h"

namespace starlens::produce {
namespace {

using Clock = std::chrono::steady_clock;

// Consecutive selected cells read in one go: [first_cell, end_cell) holding `stars` stars.
struct ReadUnit {
  std::uint64_t first_cell;
  std::uint64_t end_cell;
  std::uint64_t stars;
};

// Runs of consecutive cells, cut into units of at most block_stars stars (a larger cell is
// a unit of its own). Reads only the offsets of the selected cells.
std::vector<ReadUnit> plan_reads(const std::vector<std::uint64_t>& cells,
                                 catalog::CatalogStore& store, std::uint64_t block_stars) {
  std::vector<ReadUnit> units;
  std::size_t run_start = 0;
  while (run_start < cells.size()) {
    std::size_t run_end = run_start + 1;
    while (run_end < cells.size() && cells[run_end] == cells[run_end - 1] + 1) ++run_end;
    const std::uint64_t first = cells[run_start];
    const std::uint64_t end = cells[run_end - 1] + 1;
    const std::vector<std::uint64_t> offsets = store.read_offsets(first, end);
    std::uint64_t unit_first = first;
    for (std::uint64_t cell = first; cell < end; ++cell) {
      const std::uint64_t stars_before = offsets[cell - first] - offsets[unit_first - first];
      const std::uint64_t cell_stars = offsets[cell + 1 - first] - offsets[cell - first];
      if (cell > unit_first && stars_before + cell_stars > block_stars) {
        units.push_back({unit_first, cell, stars_before});
        unit_first = cell;
      }
    }
    units.push_back({unit_first, end, offsets[end - first] - offsets[unit_first - first]});
    run_start = run_end;
  }
  return units;
}

struct Hit {
  std::uint32_t star;  // within the cell
  std::uint32_t triangle;
  ImagePoint point;
};

// Shared state of one run.
struct RunState {
  const TriangleIndex& index;
  const EventAssembler& assembler;
  const ProducerSettings& settings;
  EventSink& sink;
  const std::string& catalogue_path;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> accepted{0};  // events admitted under --max-events
};

// One OpenMP thread's private chunk, counters and clocks.
class Worker {
 public:
  explicit Worker(RunState& run)
      : run_(run), tally_(run.index.triangle_count(), run.settings.width, run.settings.height) {
    producing.assign(run.index.triangle_count(), 0);
    events_.reserve(run.settings.chunk_events);
    triangles_.reserve(run.settings.chunk_events);
    if (const auto& region = run.settings.bounds.sky_region) {
      bounded_region_ = true;
      region_centre_ = region->centre();
      region_cos_radius_ = std::cos(region->radius_deg * kDegree);
    }
  }

  void process(const catalog::CellBlock& block) {
    for (std::uint64_t cell = block.first_cell; cell < block.end_cell && !stopped(); ++cell) {
      const std::size_t slot = run_.index.slot_of(cell);
      if (slot == TriangleIndex::kNoSlot)
        throw std::logic_error("read a cell the index does not hold");
      process_cell(cell, slot, block.cell(cell));
    }
  }

  // Submits the last, partial chunk.
  void flush() {
    if (!events_.empty()) submit();
  }

  ProducerCounts counts;
  PhaseTimes times;
  std::vector<ChunkSummary> chunks;
  std::vector<std::uint8_t> producing;  // triangles with at least one written event

 private:
  bool stopped() const { return run_.stop.load(std::memory_order_relaxed); }

  // Mapping (each star against its cell's grid), then colour and class per image.
  void process_cell(std::uint64_t cell, std::size_t slot,
                    std::span<const catalog::CatalogStar> stars) {
    const auto start = Clock::now();
    const std::size_t count = stars.size();
    hits_.clear();
    imaged_.assign(count, 0);
    spectrum_scale_.assign(count, 0.0);
    const double max_mu = run_.index.max_mu(slot);
    const double max_g = run_.index.max_g(slot);
    const double log_max_mu = std::log(max_mu);
    const double log_max_g = std::log(max_g);
    for (std::size_t s = 0; s < count; ++s) {
      const catalog::CatalogStar& star = stars[s];
      if (const auto problem = star_photometry_problem(star)) throw_bad_star(cell, s, *problem);
      // The region first (a bounded run counts what it leaves out), then the brightness bound
      // (most stars of a deep catalogue are too faint for any image of this cell to be seen),
      // then the direction, which only stars that may be seen need.
      Vec3 p{};
      if (bounded_region_) {
        p = direction_of(star);
        if (inline_dot(p, region_centre_) < region_cos_radius_) {
          ++counts.stars_outside_region;
          continue;
        }
      }
      if (!run_.assembler.quick_bound().may_be_visible(star.teff_k, star.flux_jy, log_max_mu,
                                                       log_max_g)) {
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
      run_.index.for_each_hit(
          slot, p,
          [&](std::uint32_t triangle, const Barycentric& weights) {
            hits_.push_back(
                {static_cast<std::uint32_t>(s), triangle, run_.index.map(triangle, weights)});
            imaged_[s] = 1;
          },
          min_mu);
    }
    for (const std::uint8_t flag : imaged_) counts.stars_imaged += flag;
    counts.stars_read += count;
    counts.images += hits_.size();
    const auto mapped = Clock::now();
    times.add("mapping", std::chrono::duration<double>(mapped - start).count());

    write_seconds_ = 0;
    for (const Hit& hit : hits_) {
      if (stopped()) break;
      const catalog::CatalogStar& star = stars[hit.star];
      const double k = spectrum_scale_[hit.star];
      StarEvent event;
      const Classification classification =
          run_.assembler.assemble(star.teff_k, k, hit.point, run_.index.mu(hit.triangle), event);
      ++counts.events_by_class[static_cast<int>(classification.event_class)];
      if (classification.event_class == EventClass::discarded) continue;
      if (classification.bounded_by_max) ++counts.direct_bounded;
      if (!admit()) {
        --counts.events_by_class[static_cast<int>(classification.event_class)];
        break;
      }
      events_.push_back(event);
      triangles_.push_back(hit.triangle);
      producing[hit.triangle] = 1;
      if (events_.size() == run_.settings.chunk_events) submit();
    }
    const double colour_and_write = std::chrono::duration<double>(Clock::now() - mapped).count();
    times.add("colour", colour_and_write - write_seconds_);
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

  // Under --max-events: whether one more event may be written; the last one stops the run.
  bool admit() {
    const std::uint64_t limit = run_.settings.bounds.max_events;
    if (limit == 0) return true;
    const std::uint64_t number = run_.accepted.fetch_add(1, std::memory_order_relaxed);
    if (number + 1 >= limit) run_.stop.store(true, std::memory_order_relaxed);
    return number < limit;
  }

  void submit() {
    const auto start = Clock::now();
    chunks.push_back(tally_.summarise(events_, triangles_));
    const auto [lowest, highest] = std::minmax_element(triangles_.begin(), triangles_.end());
    const std::uint32_t first = run_.settings.first_triangle;
    run_.sink.submit(events_, first + *lowest, first + *highest);
    events_.clear();
    triangles_.clear();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    write_seconds_ += seconds;
    times.add("write", seconds);
  }

  RunState& run_;
  ChunkTally tally_;
  std::vector<StarEvent> events_;
  std::vector<std::uint32_t> triangles_;
  std::vector<Hit> hits_;
  std::vector<std::uint8_t> imaged_;    // stars with at least one image
  std::vector<double> spectrum_scale_;  // K of each star of the cell
  bool bounded_region_ = false;
  Vec3 region_centre_{};
  double region_cos_radius_ = -2;
  double write_seconds_ = 0;
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

  RunState run{index, assembler, settings, sink, store.path()};
  Progress progress("produce", stars_selected, settings.quiet);
  std::mutex read_mutex;
  std::mutex merge_mutex;
  std::exception_ptr failure;
  std::size_t next_unit = 0;
  std::uint64_t cells_read = 0;
  std::uint64_t cells_completed = 0;
  std::vector<std::uint8_t> producing(index.triangle_count(), 0);

#pragma omp parallel
  {
    Worker worker(run);
    std::uint64_t worker_cells_read = 0;
    std::uint64_t worker_cells_completed = 0;
    try {
      for (;;) {
        catalog::CellBlock block;
        {
          std::lock_guard lock(read_mutex);
          if (run.stop.load() || next_unit >= units.size()) break;
          const ReadUnit& unit = units[next_unit++];
          const auto read_start = Clock::now();
          block = store.read_cells(unit.first_cell, unit.end_cell);
          worker.times.add("read",
                           std::chrono::duration<double>(Clock::now() - read_start).count());
        }
        worker_cells_read += block.end_cell - block.first_cell;
        worker.process(block);
        if (!run.stop.load()) worker_cells_completed += block.end_cell - block.first_cell;
        progress.advance(block.stars.size());
      }
      worker.flush();
    } catch (...) {
      std::lock_guard lock(merge_mutex);
      if (!failure) failure = std::current_exception();
      run.stop.store(true);
    }
    std::lock_guard lock(merge_mutex);
    ProducerCounts& total = result.counts;
    total.stars_read += worker.counts.stars_read;
    total.stars_outside_region += worker.counts.stars_outside_region;
    total.stars_too_faint += worker.counts.stars_too_faint;
    total.stars_imaged += worker.counts.stars_imaged;
    total.images += worker.counts.images;
    for (int c = 0; c < 4; ++c) total.events_by_class[c] += worker.counts.events_by_class[c];
    total.direct_bounded += worker.counts.direct_bounded;
    for (const auto& [phase, seconds] : worker.times.all()) result.thread_times.add(phase, seconds);
    result.chunks.insert(result.chunks.end(), worker.chunks.begin(), worker.chunks.end());
    for (std::size_t t = 0; t < producing.size(); ++t) producing[t] |= worker.producing[t];
    cells_read += worker_cells_read;
    cells_completed += worker_cells_completed;
  }
  if (failure) std::rethrow_exception(failure);
  progress.finish();

  for (const std::uint8_t flag : producing) result.counts.triangles_with_events += flag;
  const bool stopped_by_max =
      settings.bounds.max_events > 0 && run.accepted.load() >= settings.bounds.max_events;
  const bool complete = cells_completed == cells.size() && !stopped_by_max;
  result.coverage = {
      {"cells_selected", cells.size()},
      {"cells_read", cells_read},
      {"cells_completed", cells_completed},
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
