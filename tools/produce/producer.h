#pragma once
// The producer's traversal (DESIGN section 5): the selected catalogue cells are read in
// blocks of whole cells, one block at a time on one thread (HDF5 is serial), and processed
// by OpenMP workers in parallel. Each star of a cell is tested against that cell's
// triangles (triangle_index.h); every image becomes an event (event_assembly.h) in the
// worker's private chunk, submitted whole to the sink when full.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "catalog/store_reader.h"
#include "chunk_statistics.h"
#include "core/stopwatch.h"
#include "event_assembly.h"
#include "event_sink.h"
#include "run_bounds.h"
#include "triangle_index.h"

namespace starlens::produce {

struct ProducerSettings {
  std::uint32_t chunk_events = 16384;
  std::uint64_t block_stars = 1 << 16;  // stars per catalogue read (bounded memory)
  RunBounds bounds;                     // cells, sky region and max events (triangles: at load)
  std::uint32_t first_triangle = 0;     // file number of the index's triangle 0
  std::uint32_t width = 0;              // frame, for the centre-tile statistics
  std::uint32_t height = 0;
  bool quiet = false;
};

struct ProducerCounts {
  std::uint64_t stars_read = 0;
  std::uint64_t stars_outside_region = 0;  // read, but outside --sky-region
  std::uint64_t stars_too_faint = 0;       // no image of theirs could reach min-Y: not mapped
  std::uint64_t stars_imaged = 0;          // with at least one image
  std::uint64_t images = 0;                // star-triangle hits
  std::uint64_t events_by_class[4] = {0, 0, 0, 0};  // by EventClass; [discarded] never written
  std::uint64_t direct_bounded = 0;                 // direct supports cut at --psf-max-radius
  std::uint64_t triangles_with_events = 0;
  std::uint64_t events_written() const {
    return events_by_class[1] + events_by_class[2] + events_by_class[3];
  }
};

struct ProducerResult {
  ProducerCounts counts;
  // Thread-seconds per phase (read, mapping, colour, write), summed over the workers.
  PhaseTimes thread_times;
  double wall_seconds = 0;
  std::vector<ChunkSummary> chunks;
  nlohmann::json coverage;
};

// The catalogue cells a run reads: the index's cells within the bounds, ascending.
std::vector<std::uint64_t> select_cells(const TriangleIndex& index, const RunBounds& bounds);

ProducerResult run_producer(const TriangleIndex& index, catalog::CatalogStore& store,
                            const EventAssembler& assembler, const ProducerSettings& settings,
                            EventSink& sink);

}  // namespace starlens::produce
