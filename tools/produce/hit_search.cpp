#include "hit_search.h"

#include "triangle_index.h"

namespace starlens::produce {
namespace {

class CpuSearch final : public HitSearch {
 public:
  explicit CpuSearch(const TriangleIndex& index) : index_(index) {}

  void find(std::span<const StarQuery> queries, QueryHits& result) override {
    result.first.assign(queries.size() + 1, 0);
    result.hits.clear();
    std::size_t q = 0;
    while (q < queries.size()) {
      // A run of queries of one cell, at most kBatchStars (for_each_hit_batch overlaps their
      // cache misses; more stars, more in flight, but their data must stay in cache).
      const std::uint32_t slot = queries[q].slot;
      std::size_t end = q + 1;
      while (end < queries.size() && end - q < kBatchStars && queries[end].slot == slot) ++end;
      const std::size_t count = end - q;
      points_.resize(count);
      min_mu_.resize(count);
      for (std::size_t i = 0; i < count; ++i) {
        points_[i] = queries[q + i].point;
        min_mu_[i] = queries[q + i].min_mu;
      }
      batch_.clear();
      index_.for_each_hit_batch(
          slot, points_.data(), min_mu_.data(), count, scratch_,
          [&](std::uint32_t b, std::uint32_t triangle, const Barycentric& weights) {
            index_.prefetch_image(triangle);
            batch_.push_back({b, {triangle, weights}});
          });
      // for_each_hit_batch gives the hits star by star, in star order.
      for (const auto& [b, hit] : batch_) {
        ++result.first[q + b + 1];
        result.hits.push_back(hit);
      }
      q = end;
    }
    for (std::size_t i = 0; i < queries.size(); ++i) result.first[i + 1] += result.first[i];
  }

 private:
  static constexpr std::size_t kBatchStars = 128;
  const TriangleIndex& index_;
  std::vector<Vec3> points_;
  std::vector<double> min_mu_;
  struct Found {
    std::uint32_t batch;
    QueryHit hit;
  };
  std::vector<Found> batch_;
  TriangleIndex::BatchScratch scratch_;
};

class CpuSearchBackend final : public SearchBackend {
 public:
  explicit CpuSearchBackend(const TriangleIndex& index) : index_(index) {}
  std::unique_ptr<HitSearch> for_worker() override { return std::make_unique<CpuSearch>(index_); }

 private:
  const TriangleIndex& index_;
};

}  // namespace

std::unique_ptr<SearchBackend> make_cpu_search(const TriangleIndex& index) {
  return std::make_unique<CpuSearchBackend>(index);
}

}  // namespace starlens::produce
