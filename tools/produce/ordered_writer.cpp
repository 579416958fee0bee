#include "ordered_writer.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace starlens::produce {
namespace {

void add_reads(catalog::ReadStatistics& total, const catalog::ReadStatistics& more) {
  total.cells_read += more.cells_read;
  total.stars_read += more.stars_read;
  total.bytes_requested += more.bytes_requested;
  total.bytes_read += more.bytes_read;
}

}  // namespace

OrderedWriter::OrderedWriter(EventSink& sink, const OrderedWriterSettings& settings,
                             std::atomic<bool>& stop)
    : sink_(sink), settings_(settings), stop_(stop), producing_(settings.triangle_count) {
  settings_.window = std::max<std::size_t>(settings_.window, 1);
}

void OrderedWriter::wait_for_turn(std::size_t unit) {
  std::unique_lock lock(mutex_);
  turn_.wait(lock, [&] { return unit < next_ + settings_.window || stop_.load(); });
}

void OrderedWriter::abandon() {
  std::lock_guard lock(mutex_);
  stop_.store(true);
  turn_.notify_all();
}

void OrderedWriter::deliver(std::size_t unit, UnitOutput output) {
  std::unique_lock lock(mutex_);
  delivered_.emplace(unit, std::move(output));
  if (writing_) return;  // the writing thread will reach it
  writing_ = true;
  for (auto ready = delivered_.find(next_); ready != delivered_.end();
       ready = delivered_.find(next_)) {
    UnitOutput output_in_turn = std::move(ready->second);
    delivered_.erase(ready);
    lock.unlock();
    try {
      write_unit(output_in_turn);
    } catch (...) {
      lock.lock();
      writing_ = false;
      stop_.store(true);
      turn_.notify_all();
      throw;
    }
    lock.lock();
    ++next_;
    turn_.notify_all();
  }
  writing_ = false;
}

void OrderedWriter::write_unit(UnitOutput& output) {
  // Read past the --max-events cut, or the run failed: neither written nor counted.
  if (reached_max_ || stop_.load()) {
    add_reads(discarded_reads_, output.reads);
    cells_discarded_ += output.cells;
    return;
  }
  ProducerCounts& counts = output.counts;
  bool cut = false;
  for (UnitChunk& chunk : output.chunks) {
    const std::uint64_t room = settings_.max_events == 0 ? std::numeric_limits<std::uint64_t>::max()
                                                         : settings_.max_events - events_;
    if (chunk.events.size() > room) {
      cut_chunk(chunk, static_cast<std::size_t>(room), counts);
      cut = true;
    }
    if (!chunk.events.empty()) write_chunk(chunk);
  }
  counts_.add(counts);
  add_reads(reads_, output.reads);
  cells_read_ += output.cells;
  if (output.whole && !cut) cells_completed_ += output.cells;
  if (settings_.max_events > 0 && events_ == settings_.max_events) {
    reached_max_ = true;
    stop_.store(true);
  }
}

void OrderedWriter::cut_chunk(UnitChunk& chunk, std::size_t keep, ProducerCounts& counts) {
  for (std::size_t i = keep; i < chunk.classes.size(); ++i) {
    --counts.events_by_class[static_cast<int>(chunk.classes[i].event_class)];
    if (chunk.classes[i].bounded_by_max) --counts.direct_bounded;
  }
  chunk.events.resize(keep);
  chunk.triangles.resize(keep);
  chunk.classes.resize(keep);
  if (!chunk.images.empty()) chunk.images.resize(keep);
  if (keep == 0) return;
  chunk.seal = seal_chunk(chunk.events);
  if (!cut_tally_) cut_tally_.emplace(settings_.triangle_count, settings_.width, settings_.height);
  chunk.summary = cut_tally_->summarise(chunk.events, chunk.triangles);
}

void OrderedWriter::write_chunk(const UnitChunk& chunk) {
  const auto start = std::chrono::steady_clock::now();
  // The range of the triangles that produced it; a chunk of photon-ring images only records
  // kNoTriangle for both ends.
  std::uint32_t lowest = kNoTriangle, highest = 0;
  for (const std::uint32_t triangle : chunk.triangles) {
    if (triangle == kNoTriangle) continue;
    lowest = std::min(lowest, triangle);
    highest = std::max(highest, triangle);
    producing_.mark(triangle);
  }
  const std::uint32_t first = settings_.first_triangle;
  if (lowest == kNoTriangle)
    sink_.submit(chunk.events, chunk.seal, kNoTriangle, kNoTriangle);
  else
    sink_.submit(chunk.events, chunk.seal, first + lowest, first + highest);
  if (settings_.images) settings_.images->write(chunk.events, chunk.images);
  chunks_.push_back(chunk.summary);
  events_ += chunk.events.size();
  write_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::uint64_t OrderedWriter::triangles_with_events() const {
  return producing_.count();
}

}  // namespace starlens::produce
