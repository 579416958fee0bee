// The producer's triangle-index search on the GPU (gpu_search.h): the search itself is
// index_lookup.h's, run by one thread per star.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.h"
#include "gpu/device_memory.h"
#include "gpu/gpu_check.h"
#include "gpu_search.h"
#include "index_lookup.h"
#include "triangle_index.h"

namespace starlens::produce {
namespace {

constexpr unsigned kThreadsPerBlock = 128;
// Queries per copy to the device and hits per copy back: a worker's buffers (~12 MB pinned and
// as much on the device) whatever the unit's size.
constexpr std::size_t kPieceQueries = std::size_t{1} << 16;
constexpr std::size_t kPieceHits = std::size_t{1} << 18;
// Group-grid entries staged per copy while the index goes to the device.
constexpr std::size_t kUploadEntries = std::size_t{1} << 22;

__global__ void count_hits(IndexArrays index, const StarQuery* queries, std::uint32_t count,
                           std::uint32_t* hits) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const StarQuery query = queries[i];
  std::uint32_t found = 0;
  for_each_star_hit(index, query.slot, query.point, query.min_mu,
                    [&](std::uint32_t, const Barycentric&) { ++found; });
  hits[i] = found;
}

// The hits of queries [first, end), at their exclusive-scan offsets relative to first's.
__global__ void write_hits(IndexArrays index, const StarQuery* queries, std::uint32_t first,
                           std::uint32_t end, const std::uint32_t* offsets, QueryHit* hits) {
  const std::uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end) return;
  const StarQuery query = queries[i];
  QueryHit* out = hits + (offsets[i] - offsets[first]);
  for_each_star_hit(index, query.slot, query.point, query.min_mu,
                    [&](std::uint32_t triangle, const Barycentric& weights) {
                      out->triangle = triangle;
                      out->weights = weights;
                      ++out;
                    });
}

unsigned blocks_for(std::size_t threads) {
  return static_cast<unsigned>((threads + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

template <typename T>
DeviceArray<T> upload(const T* host, std::size_t count, const char* phase) {
  DeviceArray<T> device(count, phase);
  if (count > 0)
    check_gpu(hipMemcpy(device.data(), host, device.bytes(), hipMemcpyHostToDevice), phase);
  return device;
}

// One worker's stream and buffers.
struct WorkerBuffers {
  explicit WorkerBuffers(const char* phase)
      : stream(phase),
        queries_host(kPieceQueries, phase),
        queries(kPieceQueries, phase),
        counts_host(kPieceQueries, phase),
        counts(kPieceQueries, phase),
        offsets_host(kPieceQueries + 1, phase),
        offsets(kPieceQueries + 1, phase),
        hits_host(kPieceHits, phase),
        hits(kPieceHits, phase) {}
  GpuStream stream;
  PinnedArray<StarQuery> queries_host;
  DeviceArray<StarQuery> queries;
  PinnedArray<std::uint32_t> counts_host;
  DeviceArray<std::uint32_t> counts;
  PinnedArray<std::uint32_t> offsets_host;
  DeviceArray<std::uint32_t> offsets;
  PinnedArray<QueryHit> hits_host;
  DeviceArray<QueryHit> hits;
  std::uint64_t queries_searched = 0;
  std::uint64_t launches = 0;
};

class GpuSearch final : public HitSearch {
 public:
  GpuSearch(const IndexArrays& index, WorkerBuffers& buffers) : index_(index), buffers_(buffers) {}

  void find(std::span<const StarQuery> queries, QueryHits& result) override {
    WorkerBuffers& b = buffers_;
    const hipStream_t stream = b.stream.get();
    result.first.assign(queries.size() + 1, 0);
    result.hits.clear();
    for (std::size_t piece = 0; piece < queries.size(); piece += kPieceQueries) {
      const auto count =
          static_cast<std::uint32_t>(std::min(kPieceQueries, queries.size() - piece));
      std::memcpy(b.queries_host.data(), queries.data() + piece, count * sizeof(StarQuery));
      check_gpu(hipMemcpyAsync(b.queries.data(), b.queries_host.data(), count * sizeof(StarQuery),
                               hipMemcpyHostToDevice, stream),
                "search copy");
      count_hits<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(index_, b.queries.data(),
                                                                     count, b.counts.data());
      check_launch("search kernel");
      check_gpu(hipMemcpyAsync(b.counts_host.data(), b.counts.data(), count * sizeof(std::uint32_t),
                               hipMemcpyDeviceToHost, stream),
                "search copy");
      check_gpu(hipStreamSynchronize(stream), "search kernel");
      // The exclusive scan of the counts: each star's place among the piece's hits.
      std::uint32_t* offsets = b.offsets_host.data();
      offsets[0] = 0;
      for (std::uint32_t i = 0; i < count; ++i)
        offsets[i + 1] = offsets[i] + b.counts_host.data()[i];
      check_gpu(hipMemcpyAsync(b.offsets.data(), offsets, (count + 1) * sizeof(std::uint32_t),
                               hipMemcpyHostToDevice, stream),
                "search copy");
      const auto base = static_cast<std::uint32_t>(result.hits.size());
      for (std::uint32_t i = 0; i < count; ++i) result.first[piece + i + 1] = base + offsets[i + 1];
      // Runs of stars whose hits fit the hit buffer, written and copied back in turn.
      for (std::uint32_t first = 0; first < count;) {
        std::uint32_t end = first;
        while (end < count && offsets[end + 1] - offsets[first] <= kPieceHits) ++end;
        if (end == first)
          throw_run_failure("gpu search",
                            "a star has more than " + std::to_string(kPieceHits) + " images");
        const std::uint32_t hits = offsets[end] - offsets[first];
        if (hits > 0) {
          write_hits<<<blocks_for(end - first), kThreadsPerBlock, 0, stream>>>(
              index_, b.queries.data(), first, end, b.offsets.data(), b.hits.data());
          check_launch("search kernel");
          check_gpu(hipMemcpyAsync(b.hits_host.data(), b.hits.data(), hits * sizeof(QueryHit),
                                   hipMemcpyDeviceToHost, stream),
                    "search copy");
          check_gpu(hipStreamSynchronize(stream), "search kernel");
          result.hits.insert(result.hits.end(), b.hits_host.data(), b.hits_host.data() + hits);
          ++b.launches;
        }
        first = end;
      }
      b.queries_searched += count;
      ++b.launches;
    }
  }

 private:
  IndexArrays index_;
  WorkerBuffers& buffers_;
};

class DeviceSearchBackend final : public GpuSearchBackend {
 public:
  DeviceSearchBackend(const TriangleIndex& index, int device_index, std::size_t workers)
      : device_(select_gpu_device(device_index)) {
    const std::size_t device_before = GpuMemoryTally::get().device.now;
    const IndexArrays host = index.arrays();
    const TriangleIndex::ArraySizes sizes = index.array_sizes();
    const auto copy = [](auto& device, const auto* data, std::size_t count) {
      device = upload(data, count, "index upload");
    };
    copy(grids_, host.grids, sizes.grids);
    copy(levels_, host.levels, sizes.levels);
    copy(bin_offsets_, host.bin_offsets, sizes.bin_offsets);
    copy(buckets_, host.buckets, sizes.buckets);
    copy(entries_, host.entries, sizes.entries);
    copy(group_max_mu_, host.group_max_mu, sizes.groups);
    copy(group_bin_offsets_, host.group_bin_offsets, sizes.group_bin_offsets);
    copy(sources_, host.sources, sizes.sources);
    upload_group_grids(index.groups());
    index_bytes_ = GpuMemoryTally::get().device.now - device_before;
    arrays_ = {
        grids_.data(),   levels_.data(),       bin_offsets_.data(),  buckets_.data(),
        entries_.data(), group_max_mu_.data(), group_frames_.data(), group_bin_offsets_.data(),
        sources_.data()};
    buffers_.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w)
      buffers_.push_back(std::make_unique<WorkerBuffers>("search buffers"));
  }

  std::unique_ptr<HitSearch> for_worker() override {
    std::lock_guard lock(mutex_);
    if (handed_out_ == buffers_.size()) throw std::logic_error("more GPU search workers than made");
    // The current device is the calling thread's.
    check_gpu(hipSetDevice(device_.index), "device");
    return std::make_unique<GpuSearch>(arrays_, *buffers_[handed_out_++]);
  }

  GpuSearchReport report() const override {
    GpuSearchReport report;
    report.device = device_;
    report.index_bytes = index_bytes_;
    report.device_bytes_peak = GpuMemoryTally::get().device.peak;
    report.pinned_bytes_peak = GpuMemoryTally::get().pinned.peak;
    for (const auto& buffers : buffers_) {
      report.queries += buffers->queries_searched;
      report.kernel_launches += buffers->launches;
    }
    return report;
  }

 private:
  // The groups' entries in one device array (staged through pinned memory, not a second host
  // copy of them all), and frames that point into it.
  void upload_group_grids(const GroupGrids& groups) {
    const std::vector<GroupGrids::Frame>& frames = groups.frames();
    std::size_t total = 0;
    for (std::uint32_t g = 0; g < frames.size(); ++g) total += groups.group_entries(g).size();
    group_entries_ = DeviceArray<GroupGridEntry>(total, "index upload");
    std::vector<GroupGrids::Frame> device_frames(frames);
    {
      PinnedArray<GroupGridEntry> staging(std::min(total, kUploadEntries), "index upload");
      std::size_t staged = 0, at = 0;
      const auto flush = [&] {
        if (staged == 0) return;
        check_gpu(hipMemcpy(group_entries_.data() + at, staging.data(),
                            staged * sizeof(GroupGridEntry), hipMemcpyHostToDevice),
                  "index upload");
        at += staged;
        staged = 0;
      };
      for (std::uint32_t g = 0; g < frames.size(); ++g) {
        const std::vector<GroupGridEntry>& entries = groups.group_entries(g);
        device_frames[g].entries = group_entries_.data() + at + staged;
        for (std::size_t e = 0; e < entries.size();) {
          if (staged == staging.size()) flush();
          const std::size_t n = std::min(entries.size() - e, staging.size() - staged);
          std::copy_n(entries.data() + e, n, staging.data() + staged);
          staged += n;
          e += n;
        }
      }
      flush();
    }
    group_frames_ = upload(device_frames.data(), device_frames.size(), "index upload");
  }

  GpuDeviceInfo device_;
  DeviceArray<CellGrid> grids_;
  DeviceArray<CellGridLevel> levels_;
  DeviceArray<std::uint32_t> bin_offsets_;
  DeviceArray<CellGridBucket> buckets_;
  DeviceArray<CellGridEntry> entries_;
  DeviceArray<double> group_max_mu_;
  DeviceArray<std::uint32_t> group_bin_offsets_;
  DeviceArray<SourceTriangle> sources_;
  DeviceArray<GroupGridEntry> group_entries_;
  DeviceArray<GroupGrids::Frame> group_frames_;
  IndexArrays arrays_{};
  std::uint64_t index_bytes_ = 0;
  std::vector<std::unique_ptr<WorkerBuffers>> buffers_;
  std::mutex mutex_;
  std::size_t handed_out_ = 0;
};

}  // namespace

std::unique_ptr<GpuSearchBackend> make_gpu_search(const TriangleIndex& index, int device_index,
                                                  std::size_t workers) {
  return std::make_unique<DeviceSearchBackend>(index, device_index, workers);
}

}  // namespace starlens::produce
