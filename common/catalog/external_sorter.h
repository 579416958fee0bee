#pragma once
// Sorting more stars than fit in memory (issue 4: --memory-limit): stars collect in a
// buffer; a full buffer is sorted and written as a run to a temporary file beside the
// output; at the end the runs (and the last buffer, kept in memory) are merged k ways and
// streamed in order to a sink. Run files are removed afterwards, on failure and on signals.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "catalog/star_record.h"

namespace starlens::catalog {

// Parses "4G", "512M", "64k" or a plain byte count (binary units); throws InputError
// naming `option` otherwise or when below kMinimumMemoryLimit.
std::uint64_t parse_memory_size(const std::string& text, const std::string& option);
constexpr std::uint64_t kMinimumMemoryLimit = 1ull << 20;

struct SortStatistics {
  std::uint64_t records = 0;
  std::uint64_t runs_written = 0;     // sorted runs spilled to temporary files
  std::uint64_t bytes_spilled = 0;    // written to run files, intermediate passes included
  std::uint64_t merge_passes = 0;     // intermediate passes (fan-in limited by memory)
  std::uint64_t buffer_capacity = 0;  // records held in memory at most
};

using RecordSink = std::function<void(std::span<const StarRecord>)>;

class ExternalSorter {
 public:
  // Run files are named "<spill_prefix>.sortrun.<n>.tmp...". `memory_limit` bounds the
  // buffer and the merge's read buffers together.
  ExternalSorter(std::filesystem::path spill_prefix, std::uint64_t memory_limit);
  ~ExternalSorter();
  ExternalSorter(const ExternalSorter&) = delete;
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  // Thread-safe. Spills a sorted run whenever the buffer fills.
  void add(std::span<const StarRecord> records);
  std::uint64_t size() const { return statistics_.records; }
  // Streams every record added, in order, to `sink` in batches; the sorter is empty after.
  void finish(const RecordSink& sink);
  const SortStatistics& statistics() const { return statistics_; }

 private:
  class RunFile;
  void spill_buffer();
  void merge_runs_down_to(std::size_t max_runs);

  std::filesystem::path spill_prefix_;
  std::uint64_t memory_limit_;
  std::vector<StarRecord> buffer_;
  std::vector<std::unique_ptr<RunFile>> runs_;
  std::uint64_t run_serial_ = 0;
  SortStatistics statistics_;
  std::mutex mutex_;
};

// Sorts in place with all OpenMP threads (libstdc++ parallel mode, in place).
void parallel_sort(std::vector<StarRecord>& records);

}  // namespace starlens::catalog
