#include "unit_reader.h"

#include <algorithm>
#include <chrono>

namespace starlens::produce {

catalog::ReadStatistics reads_between(const catalog::ReadStatistics& before,
                                      const catalog::ReadStatistics& after) {
  return {after.cells_read - before.cells_read, after.stars_read - before.stars_read,
          after.bytes_requested - before.bytes_requested, after.bytes_read - before.bytes_read};
}

catalog::CellBlock decode(ReadBlock& read, PhaseTimes& times) {
  const auto start = std::chrono::steady_clock::now();
  catalog::CellBlock block = catalog::CatalogStore::decode_cells(std::move(read.stored));
  times.add("read", seconds_since(start));
  return block;
}

UnitReader::UnitReader(catalog::CatalogStore& store, const std::vector<ReadUnit>& units,
                       std::size_t depth, std::atomic<bool>& stop, bool read_ids)
    : store_(store),
      units_(units),
      depth_(std::max<std::size_t>(depth, 1)),
      stop_(stop),
      read_ids_(read_ids) {}

std::optional<ReadBlock> UnitReader::next(PhaseTimes& times) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stop_.load()) return std::nullopt;
    if (!ready_.empty()) break;
    if (!reading_ && !more_to_read()) return std::nullopt;
    if (reading_) {
      read_done_.wait(lock);
    } else {
      read_one(lock, times);
    }
  }
  ReadBlock taken = std::move(ready_.front());
  ready_.pop_front();
  // Ahead for the other workers while the store is free, so their reads are off their path;
  // refilled to `depth`, as workers that came while the store was busy took without reading.
  while (!reading_ && ready_.size() < depth_ && more_to_read()) read_one(lock, times);
  return taken;
}

void UnitReader::read_one(std::unique_lock<std::mutex>& lock, PhaseTimes& times) {
  const std::size_t unit_number = next_unit_++;
  reading_ = true;
  lock.unlock();
  ReadBlock read{unit_number, {}, {}, {}};
  try {
    const ReadUnit& unit = units_[unit_number];
    const auto start = std::chrono::steady_clock::now();
    const catalog::ReadStatistics before = store_.statistics();
    read.stored = store_.read_stored_cells(unit.first_cell, unit.end_cell);
    if (read_ids_ && !read.stored.rows.empty()) {
      const auto sources = store_.read_sources(read.stored.first_row, read.stored.rows.size());
      read.ids.reserve(sources.size());
      for (const auto& source : sources) read.ids.push_back(source.id);
    }
    read.reads = reads_between(before, store_.statistics());
    times.add("read", seconds_since(start));
  } catch (...) {
    lock.lock();
    reading_ = false;
    stop_.store(true);
    read_done_.notify_all();
    throw;
  }
  lock.lock();
  ready_.push_back(std::move(read));
  reading_ = false;
  read_done_.notify_all();
}

}  // namespace starlens::produce
