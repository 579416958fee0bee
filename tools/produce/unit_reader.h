#pragma once
// Reads the producer's read units (read_plan.h) in unit order for its workers. HDF5 is serial,
// so one thread reads at a time; a worker that takes a unit first reads ahead for the others
// (up to `depth` units waiting), so a worker that finishes its unit seldom waits for a read.
// Reading is only the HDF5 part: each worker decodes the stars of the unit it took.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "catalog/store_reader.h"
#include "core/stopwatch.h"
#include "read_plan.h"

namespace starlens::produce {

// What the store's reads cost between two of its statistics.
catalog::ReadStatistics reads_between(const catalog::ReadStatistics& before,
                                      const catalog::ReadStatistics& after);

struct ReadBlock {
  std::size_t unit = 0;  // number in the plan
  catalog::StoredCells stored;
  catalog::ReadStatistics reads;  // what reading it cost
  std::vector<std::int64_t> ids;  // with read_ids: the star id of each of the unit's rows
};

// The unit's stars: checked and converted by the worker that took it, outside the serial
// reads (counted as read time).
catalog::CellBlock decode(ReadBlock& read, PhaseTimes& times);

class UnitReader {
 public:
  // read_ids: also read each unit's star ids (/stars/source), for the image catalogue.
  UnitReader(catalog::CatalogStore& store, const std::vector<ReadUnit>& units, std::size_t depth,
             std::atomic<bool>& stop, bool read_ids = false);

  // The next unit in plan order (none when every unit is taken or the run stopped). Reads
  // (this thread's "read" time in `times`) happen here; a failed read stops the run.
  std::optional<ReadBlock> next(PhaseTimes& times);
  // After the run: units read ahead but never taken (the run stopped), in unit order.
  std::deque<ReadBlock> take_untaken() { return std::move(ready_); }

 private:
  // With the lock held: reads the next unit into ready_, unlocking while it reads.
  void read_one(std::unique_lock<std::mutex>& lock, PhaseTimes& times);
  bool more_to_read() const { return next_unit_ < units_.size() && !stop_.load(); }

  catalog::CatalogStore& store_;
  const std::vector<ReadUnit>& units_;
  std::size_t depth_;
  std::atomic<bool>& stop_;
  bool read_ids_;
  std::mutex mutex_;
  std::condition_variable read_done_;
  std::deque<ReadBlock> ready_;  // read, not yet taken
  std::size_t next_unit_ = 0;    // the next unit to read
  bool reading_ = false;         // a thread is reading (the store is busy)
};

}  // namespace starlens::produce
