#pragma once
// The producer's traversal (docs/design.md section 5): the selected catalogue cells are cut into
// read units of whole cells (read_plan.h), read one at a time (HDF5 is serial) a little ahead of
// the OpenMP workers (unit_reader.h), which process them in parallel. Each star of a cell is tested
// against that cell's triangles (triangle_index.h), on the CPU or the GPU (hit_search.h), a unit's
// stars in one search; every image becomes an event (event_assembly.h)
// in the unit's own chunks of at most --chunk-events, which go to the sink whole and in unit order
// (ordered_writer.h): the stream is the same on any thread count.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "catalog/store_reader.h"
#include "chunk_statistics.h"
#include "core/stopwatch.h"
#include "event_assembly.h"
#include "event_sink.h"
#include "hit_search.h"
#include "image_catalogue.h"
#include "producer_counts.h"
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
  // Units a worker may run ahead of the next unit to write, per thread (bounds the memory of
  // finished units waiting for their turn). Units cost from ~0.5 to ~25 ms (the dense cells
  // behind the lens): with 4, a worker often waited behind another's slow unit.
  std::size_t units_ahead_per_thread = 16;
  // Units read ahead of the workers, per thread (each holds its stars until a worker takes it).
  std::size_t units_read_ahead_per_thread = 1;
  // The triangle-index search (hit_search.h); null: the CPU's.
  SearchBackend* search = nullptr;
  // --images: one row per written event (star id, order, position, mu, parity, g, flux), in
  // stream order; the units' star ids are then read too.
  ImageCatalogueWriter* images = nullptr;
};

struct ProducerResult {
  ProducerCounts counts;
  // Thread-seconds per phase (read, mapping, colour, write), summed over the workers, and
  // produce_cpu: the workers' CPU time over the whole traversal (waits and preemption left out).
  PhaseTimes thread_times;
  double wall_seconds = 0;
  std::vector<ChunkSummary> chunks;  // in stream order
  // The catalogue reads the stream's units (and the plan) made: under --max-events, units
  // workers read past the cut are left out, so these do not depend on the thread count.
  catalog::ReadStatistics catalog_reads;
  nlohmann::json coverage;
};

// The catalogue cells a run reads: the index's cells within the bounds, ascending.
std::vector<std::uint64_t> select_cells(const TriangleIndex& index, const RunBounds& bounds);

ProducerResult run_producer(const TriangleIndex& index, catalog::CatalogStore& store,
                            const EventAssembler& assembler, const ProducerSettings& settings,
                            EventSink& sink);

}  // namespace starlens::produce
