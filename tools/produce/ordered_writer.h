#pragma once
// Writes the producer's read units to the sink strictly in unit order, whatever order the
// workers finish them in, so the event stream is a function of the inputs and parameters only
// (not of the thread count or scheduling). Workers stay within a window of units ahead of the
// next one to write (bounded memory). Under --max-events the stream is cut after exactly the
// first N events in unit order; the counts then cover the units up to the one holding the N-th
// event, less that unit's events past N.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "catalog/store_reader.h"
#include "chunk_statistics.h"
#include "event_sink.h"
#include "image_catalogue.h"
#include "optics/event_class.h"
#include "producer_counts.h"

namespace starlens::produce {

// One chunk of a unit, at most --chunk-events events, made by one worker.
struct UnitChunk {
  std::vector<StarEvent> events;
  std::vector<std::uint32_t> triangles;  // mesh numbering: triangles[i] produced events[i]
  std::vector<Classification> classes;   // of each event, to uncount those cut off
  std::vector<ImageRecord> images;       // with --images: images[i] made events[i]; else empty
  ChunkSummary summary;
  ChunkSeal seal;  // of events, taken by the worker
};

// Everything one read unit produced.
struct UnitOutput {
  std::vector<UnitChunk> chunks;
  ProducerCounts counts;
  catalog::ReadStatistics reads;  // what reading the unit cost
  std::uint64_t cells = 0;
  bool whole = false;  // every star of the unit processed
};

struct OrderedWriterSettings {
  std::uint64_t max_events = 0;      // 0: no limit
  std::uint32_t first_triangle = 0;  // file number of the mesh's triangle 0
  std::size_t triangle_count = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::size_t window = 1;                  // units a worker may be ahead of the next unit to write
  ImageCatalogueWriter* images = nullptr;  // --images: each written chunk's rows go here too
};

class OrderedWriter {
 public:
  OrderedWriter(EventSink& sink, const OrderedWriterSettings& settings, std::atomic<bool>& stop);

  // Blocks while `unit` is a window or more ahead of the next unit to write (and the run goes on).
  void wait_for_turn(std::size_t unit);
  // Hands over a finished unit; writes it and the delivered units after it, in order.
  void deliver(std::size_t unit, UnitOutput output);
  // Stops the run (a worker failed): no more writes, waiting workers wake.
  void abandon();

  // After the run: what was written.
  const ProducerCounts& counts() const { return counts_; }
  const catalog::ReadStatistics& reads() const { return reads_; }
  const catalog::ReadStatistics& reads_discarded() const { return discarded_reads_; }
  std::uint64_t cells_read() const { return cells_read_; }
  std::uint64_t cells_completed() const { return cells_completed_; }
  std::uint64_t cells_discarded() const { return cells_discarded_; }
  std::size_t units_written() const { return next_; }
  bool reached_max_events() const { return reached_max_; }
  const std::vector<ChunkSummary>& chunks() const { return chunks_; }
  std::uint64_t triangles_with_events() const;
  double write_seconds() const { return write_seconds_; }

 private:
  void write_unit(UnitOutput& output);
  // Drops the events of `chunk` from `keep` on, uncounting them; re-summarises what is left.
  void cut_chunk(UnitChunk& chunk, std::size_t keep, ProducerCounts& counts);
  void write_chunk(const UnitChunk& chunk);

  EventSink& sink_;
  OrderedWriterSettings settings_;
  std::atomic<bool>& stop_;
  std::mutex mutex_;
  std::condition_variable turn_;
  std::map<std::size_t, UnitOutput> delivered_;  // finished, waiting for their turn
  std::size_t next_ = 0;                         // the next unit to write
  bool writing_ = false;                         // a thread is writing: others only deliver

  // Touched only by the writing thread.
  ProducerCounts counts_;
  catalog::ReadStatistics reads_;
  catalog::ReadStatistics discarded_reads_;
  std::uint64_t cells_read_ = 0;
  std::uint64_t cells_completed_ = 0;
  std::uint64_t cells_discarded_ = 0;
  std::uint64_t events_ = 0;
  bool reached_max_ = false;
  std::vector<ChunkSummary> chunks_;
  MarkBits producing_;                   // triangles with at least one written event
  std::optional<ChunkTally> cut_tally_;  // for a chunk cut at --max-events
  double write_seconds_ = 0;
};

}  // namespace starlens::produce
