// CPU backend: OpenMP over bands of frame rows. Each band adds its events in stream order
// (the cached events of each batch, the direct events of each direct batch), so the frame is
// bit-identical whatever the thread count (the GPU's reference).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

#include "backend.h"
#include "core/stopwatch.h"
#include "optics/accumulate.h"
#include "splat_counts.h"

namespace starlens {
namespace {

// Rows of frame per band: 16 while that leaves at least kBandsPerThread bands for each thread
// (fewer events span two bands), else 8 (with too few bands, threads wait for the last ones;
// docs/benchmarks/splat_cpu.md).
constexpr std::uint32_t kWideBandRows = 16;
constexpr std::uint32_t kNarrowBandRows = 8;
constexpr std::uint32_t kBandsPerThread = 8;
// The batches whose boundaries are part of the frame's bits: after each batch of
// kBatchEvents events the gathered direct events may be added (below), so this must not
// change. Between two such additions the cached events of consecutive batches land on every
// pixel in stream order whether the batches are added one by one or together, so the cached
// pass takes up to kPassEvents events at once (235 MB): a batch's events come from a small
// patch of sky (the stream follows the catalogue's cells) and crowd into a few dozen rows of
// the frame, so that one batch alone leaves most threads waiting for the bands holding them.
constexpr std::size_t kBatchEvents = 1 << 18;
constexpr std::size_t kPassEvents = kBatchEvents << 4;
// Direct events are few (~0.1%) but large (up to 256 px in radius): they are gathered over
// batches until their pixels (pi support^2 summed) reach kDirectBatchPixels, or kBatchEvents of
// them, so that one pass has enough work for every thread, and added in bands of
// kDirectBandRows rows, fine enough that the busiest band is a small part of the pass. Both
// are part of the frame's bits, as kBatchEvents is.
constexpr double kDirectBatchPixels = double(1 << 26);
constexpr std::uint32_t kDirectBandRows = 2;
// A band's events lie scattered over the batch, each one a cache miss unless fetched this many
// events ahead.
constexpr std::size_t kPrefetchAhead = 8;

class CpuBackend final : public SplatBackend {
 public:
  explicit CpuBackend(const SplatSettings& settings) : settings_(settings) {}

  std::string name() const override { return "cpu"; }

  void begin(const StreamHeader& header, const PhaseCache& cache) override {
    header_ = header;
    cache_ = &cache;
    psf_ = moffat_from_fwhm(header.psf.fwhm, header.psf.beta);
    frame_ = Frame(header.width, header.height);
    const std::uint32_t threads = std::uint32_t(std::max(1, omp_get_max_threads()));
    band_rows_ = header.height / kWideBandRows >= kBandsPerThread * threads ? kWideBandRows
                                                                            : kNarrowBandRows;
    band_count_ = (header.height + band_rows_ - 1) / band_rows_;
    direct_band_count_ = (header.height + kDirectBandRows - 1) / kDirectBandRows;
    batch_.reserve(kPassEvents);
  }

  void accumulate(std::span<const StarEvent> events) override {
    while (!events.empty()) {
      const std::size_t take = std::min(events.size(), kPassEvents - batch_.size());
      batch_.insert(batch_.end(), events.begin(), events.begin() + take);
      events = events.subspan(take);
      if (batch_.size() == kPassEvents) flush_batches();
    }
  }

  void finish(Frame& frame) override {
    flush_batches();
    flush_direct();
    frame = std::move(frame_);
  }

  nlohmann::json statistics() const override {
    nlohmann::json statistics;
    statistics["counts"] = counts_.to_json();
    statistics["counts"]["contributions"] = contributions_cache_ + contributions_direct_;
    statistics["counts"]["contributions_cache"] = contributions_cache_;
    statistics["counts"]["contributions_direct"] = contributions_direct_;
    const double cache_seconds = times_.get("accumulate_cache");
    const double direct_seconds = times_.get("accumulate_direct");
    statistics["timings_s"] = {{"binning", times_.get("binning")},
                               {"accumulate", cache_seconds + direct_seconds},
                               {"accumulate_cache", cache_seconds},
                               {"accumulate_direct", direct_seconds},
                               {"accumulate_cache_cpu", cpu_cache_seconds_},
                               {"accumulate_direct_cpu", cpu_direct_seconds_}};
    statistics["threads"] = omp_get_max_threads();
    return statistics;
  }

 private:
  // Rows [first, last] an event can touch, clipped to the frame; false if none.
  bool event_rows(const StarEvent& event, std::uint32_t& first, std::uint32_t& last) const {
    const double top = std::floor(event.y - event.support);
    const double bottom = std::floor(event.y + event.support);
    if (bottom < 0 || top >= header_.height) return false;
    first = static_cast<std::uint32_t>(std::max(0.0, top));
    last = static_cast<std::uint32_t>(std::min<double>(header_.height - 1, bottom));
    return true;
  }

  bool evaluated_directly(const StarEvent& event) const {
    return settings_.all_direct || event.support > header_.psf.cache_radius;
  }

  // Bins `events` (only the cached ones where `cached_only`) by row band (of `rows` rows,
  // `bands` of them): a counting sort on all threads, each over its own contiguous slice, so
  // that every band keeps stream order; also each band's work, the pixels of its events' rows
  // (band_work_).
  void bin_by_band(std::span<const StarEvent> events, bool cached_only, std::uint32_t rows,
                   std::uint32_t bands) {
    const std::size_t count = events.size();
    const std::size_t max_threads = std::size_t(std::max(1, omp_get_max_threads()));
    slice_counts_.assign(max_threads * bands, 0);
    slice_work_.assign(max_threads * bands, 0.0);
    band_offsets_.assign(bands + 1, 0);
    band_work_.assign(bands, 0.0);
#pragma omp parallel
    {
      const std::size_t thread = std::size_t(omp_get_thread_num());
      const std::size_t threads = std::size_t(omp_get_num_threads());
      const std::size_t begin = count * thread / threads;
      const std::size_t end = count * (thread + 1) / threads;
      std::size_t* slots = slice_counts_.data() + thread * bands;
      double* work = slice_work_.data() + thread * bands;
      const auto for_each_band = [&](auto&& visit) {
        for (std::size_t index = begin; index < end; ++index) {
          const StarEvent& event = events[index];
          std::uint32_t first = 0, last = 0;
          if ((cached_only && evaluated_directly(event)) || !event_rows(event, first, last))
            continue;
          for (std::uint32_t band = first / rows; band <= last / rows; ++band)
            visit(band, index, event);
        }
      };
      for_each_band([&](std::uint32_t band, std::size_t, const StarEvent& event) {
        ++slots[band];
        work[band] += 2 * double(event.support) + 1;  // a row's pixels, at most
      });
#pragma omp barrier
#pragma omp single
      {
        // Each slice's place in each band: the bands in order, the slices in order within.
        std::size_t position = 0;
        for (std::size_t band = 0; band < bands; ++band) {
          band_offsets_[band] = position;
          for (std::size_t slice = 0; slice < threads; ++slice) {
            const std::size_t in_slice = slice_counts_[slice * bands + band];
            slice_counts_[slice * bands + band] = position;
            position += in_slice;
            band_work_[band] += slice_work_[slice * bands + band];
          }
        }
        band_offsets_[bands] = position;
        band_events_.resize(position);
      }
      for_each_band([&](std::uint32_t band, std::size_t index, const StarEvent&) {
        band_events_[slots[band]++] = static_cast<std::uint32_t>(index);
      });
    }
  }

  // Adds each band's events (binned by bin_by_band) to its rows, bands in parallel; returns
  // the contributions and adds the threads' CPU time in the pass (not their wait at its end)
  // to `cpu_seconds`. Bands are handed out busiest first (by their pixels), so that the last
  // ones taken are short (the order of the bands changes no bit: each pixel belongs to one
  // band, whose events keep stream order).
  template <class Evaluate>
  std::uint64_t accumulate_bands(std::span<const StarEvent> events, std::uint32_t rows,
                                 std::uint32_t bands, double& cpu_seconds, Evaluate evaluate) {
    band_order_.resize(bands);
    for (std::uint32_t band = 0; band < bands; ++band) band_order_[band] = band;
    std::stable_sort(band_order_.begin(), band_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return band_work_[a] > band_work_[b];
    });
    const std::size_t row_doubles = 3 * std::size_t(header_.width);
    std::uint64_t added = 0;
    double cpu = 0;
#pragma omp parallel reduction(+ : added, cpu)
    {
      const double start = thread_cpu_seconds();
#pragma omp for schedule(dynamic, 1) nowait
      for (std::uint32_t slot = 0; slot < bands; ++slot) {
        const std::uint32_t band = band_order_[slot];
        const std::uint32_t row_begin = band * rows;
        const std::uint32_t row_end = std::min(header_.height, row_begin + rows);
        const std::size_t end = band_offsets_[band + 1];
        if (band_offsets_[band] == end) continue;
        // The band's rows, fetched in one sweep before its events land on them in random
        // order (a miss each, one line after another, when the frame is out of cache).
        const double* rows_end = frame_.rgb.data() + row_end * row_doubles;
        for (const double* line = frame_.rgb.data() + row_begin * row_doubles; line < rows_end;
             line += 8)
          __builtin_prefetch(line, 1);
        for (std::size_t k = band_offsets_[band]; k < end; ++k) {
          if (k + kPrefetchAhead < end) {
            const char* ahead =
                reinterpret_cast<const char*>(&events[band_events_[k + kPrefetchAhead]]);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + sizeof(StarEvent) - 1);
          }
          added += evaluate(events[band_events_[k]], row_begin, row_end);
        }
      }
      cpu += thread_cpu_seconds() - start;
    }
    cpu_seconds += cpu;
    return added;
  }

  // The gathered batches in order: each batch's direct events move to the direct batch, added
  // when that holds enough work (flush_direct) after the cached events of the batches so far;
  // the cached events between two such additions go in one pass. Separate passes, so that
  // each evaluator's time and contributions are measured on their own (the cache figure is
  // the one that scales).
  void flush_batches() {
    const std::size_t count = batch_.size();
    std::size_t cached_from = 0;  // the first event whose cached pass is still to come
    for (std::size_t begin = 0; begin < count; begin += kBatchEvents) {
      const std::size_t end = std::min(count, begin + kBatchEvents);
      gather_direct(begin, end);
      if (direct_pixels_ >= kDirectBatchPixels || direct_.size() >= kBatchEvents) {
        add_cached({batch_.data() + cached_from, end - cached_from});
        cached_from = end;
        flush_direct();
      }
    }
    add_cached({batch_.data() + cached_from, count - cached_from});
    batch_.clear();
  }

  // Counts the classes of batch_[begin, end) and appends its direct events to direct_, in
  // stream order (each thread gathers its slice's).
  void gather_direct(std::size_t begin, std::size_t end) {
    const std::size_t count = end - begin;
    const std::size_t max_threads = std::size_t(std::max(1, omp_get_max_threads()));
    slice_direct_.resize(max_threads);
    std::uint64_t direct_count = 0;
#pragma omp parallel reduction(+ : direct_count)
    {
      const std::size_t thread = std::size_t(omp_get_thread_num());
      const std::size_t threads = std::size_t(omp_get_num_threads());
      std::vector<std::uint32_t>& mine = slice_direct_[thread];
      mine.clear();
      for (std::size_t index = begin + count * thread / threads;
           index < begin + count * (thread + 1) / threads; ++index) {
        const StarEvent& event = batch_[index];
        direct_count += event.support > header_.psf.cache_radius;  // stream_event_class
        if (evaluated_directly(event)) mine.push_back(static_cast<std::uint32_t>(index));
      }
      if (thread == 0)
        for (std::size_t other = threads; other < max_threads; ++other)
          slice_direct_[other].clear();
    }
    counts_.by_class[static_cast<int>(EventClass::direct)] += direct_count;
    counts_.by_class[static_cast<int>(EventClass::cache)] += count - direct_count;
    for (const std::vector<std::uint32_t>& slice : slice_direct_) {
      for (const std::uint32_t index : slice) {
        const StarEvent& event = batch_[index];
        direct_.push_back(event);
        direct_pixels_ += std::numbers::pi * double(event.support) * double(event.support);
      }
    }
  }

  // The cached events of `events` (consecutive batches), in one parallel pass.
  void add_cached(std::span<const StarEvent> events) {
    if (events.empty()) return;
    double* rgb = frame_.rgb.data();
    const std::uint32_t width = header_.width, height = header_.height;
    {
      ScopedPhase phase(times_, "binning");
      bin_by_band(events, true, band_rows_, band_count_);
    }
    if (!band_events_.empty()) {
      ScopedPhase phase(times_, "accumulate_cache");
      contributions_cache_ += accumulate_bands(
          events, band_rows_, band_count_, cpu_cache_seconds_,
          [&](const StarEvent& event, std::uint32_t begin, std::uint32_t end) {
            return accumulate_cached(event, *cache_, rgb, width, height, begin, end);
          });
    }
  }

  void flush_direct() {
    if (direct_.empty()) return;
    double* rgb = frame_.rgb.data();
    const std::uint32_t width = header_.width, height = header_.height;
    {
      ScopedPhase phase(times_, "binning");
      bin_by_band(direct_, false, kDirectBandRows, direct_band_count_);
    }
    if (!band_events_.empty()) {
      ScopedPhase phase(times_, "accumulate_direct");
      contributions_direct_ +=
          accumulate_bands(direct_, kDirectBandRows, direct_band_count_, cpu_direct_seconds_,
                           [&](const StarEvent& event, std::uint32_t begin, std::uint32_t end) {
                             return accumulate_direct(event, psf_, rgb, width, height, begin, end);
                           });
    }
    direct_.clear();
    direct_pixels_ = 0;
  }

  SplatSettings settings_;
  StreamHeader header_;
  const PhaseCache* cache_ = nullptr;
  Moffat psf_{};
  Frame frame_;
  std::uint32_t band_rows_ = kNarrowBandRows;
  std::uint32_t band_count_ = 0;
  std::uint32_t direct_band_count_ = 0;
  std::vector<std::uint32_t> band_order_;  // bands by decreasing work
  std::vector<StarEvent> batch_;
  std::vector<std::vector<std::uint32_t>> slice_direct_;  // per thread: its slice's direct events
  std::vector<StarEvent> direct_;          // direct events not yet added, in stream order
  double direct_pixels_ = 0;               // their pixels, pi support^2 summed
  std::vector<std::size_t> slice_counts_;  // per thread and band: its count, then its cursor
  std::vector<double> slice_work_;         // per thread and band: its pixels
  std::vector<double> band_work_;
  std::vector<std::size_t> band_offsets_;
  std::vector<std::uint32_t> band_events_;
  EventClassCounts counts_;
  std::uint64_t contributions_cache_ = 0;
  std::uint64_t contributions_direct_ = 0;
  double cpu_cache_seconds_ = 0;  // the threads' CPU time in the passes, summed over threads
  double cpu_direct_seconds_ = 0;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<SplatBackend> make_cpu_backend(const SplatSettings& settings) {
  return std::make_unique<CpuBackend>(settings);
}

}  // namespace starlens
