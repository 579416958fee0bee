#pragma once
// The triangle-index search of a read unit's selected stars, on the CPU or the GPU: every star
// of the unit that passed the region and brightness tests becomes a query, and the search gives
// each query's hits (triangle and gnomonic weights) in the order TriangleIndex::for_each_hit
// gives them. Both backends run the same search (index_lookup.h), so they find the same hits
// with the same weights; what follows (the exact magnification, colour and class) runs on the
// producer's CPU threads.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "source_triangle.h"

namespace starlens::produce {

class TriangleIndex;

struct StarQuery {
  Vec3 point;          // the star's unit direction
  double min_mu;       // groups whose triangles all have mu below it are passed over
  std::uint32_t slot;  // the index's slot of the star's cell
};

struct QueryHit {
  std::uint32_t triangle;  // the index's numbering
  Barycentric weights;
};

// The hits of a batch of queries: those of query q are hits[first[q] .. first[q + 1]).
struct QueryHits {
  std::vector<std::uint32_t> first;
  std::vector<QueryHit> hits;
};

// One worker's search (not shared between threads).
class HitSearch {
 public:
  virtual ~HitSearch() = default;
  virtual void find(std::span<const StarQuery> queries, QueryHits& result) = 0;
};

// Makes each worker its search; made and destroyed by the thread that runs the producer.
class SearchBackend {
 public:
  virtual ~SearchBackend() = default;
  // Called once by each worker thread (thread-safe).
  virtual std::unique_ptr<HitSearch> for_worker() = 0;
};

// The CPU's: TriangleIndex::for_each_hit_batch over runs of queries of one cell.
std::unique_ptr<SearchBackend> make_cpu_search(const TriangleIndex& index);

}  // namespace starlens::produce
