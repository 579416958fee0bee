#include "catalog/external_sorter.h"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <parallel/algorithm>
#include <queue>

#include "core/atomic_output.h"
#include "core/errors.h"

namespace starlens::catalog {
namespace {

constexpr std::size_t kSinkBatch = 1 << 16;
// Share of the memory limit for the in-memory buffer; the rest is for merge reads, the
// writer's batches and the HDF5 chunk cache.
constexpr double kBufferShare = 0.5;
constexpr double kMergeShare = 0.25;
constexpr std::size_t kMinReadBuffer = 64 << 10;
constexpr std::size_t kMaxReadBuffer = 8 << 20;

}  // namespace

std::uint64_t parse_memory_size(const std::string& text, const std::string& option) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const std::string suffix = text.substr(digits);
  std::uint64_t unit = 0;
  if (suffix.empty() || suffix == "B")
    unit = 1;
  else if (suffix == "k" || suffix == "K" || suffix == "KiB")
    unit = 1ull << 10;
  else if (suffix == "M" || suffix == "MiB")
    unit = 1ull << 20;
  else if (suffix == "G" || suffix == "GiB")
    unit = 1ull << 30;
  else if (suffix == "T" || suffix == "TiB")
    unit = 1ull << 40;
  if (digits == 0 || digits > 12 || unit == 0)
    throw_input_error(option, "", "'" + text + "' is not a size (e.g. 4G, 512M, 1048576)");
  const std::uint64_t number = std::stoull(text.substr(0, digits));
  if (number > (std::uint64_t{1} << 50) / unit)
    throw_input_error(option, "", "'" + text + "' is beyond 1 PiB");
  const std::uint64_t bytes = number * unit;
  if (bytes < kMinimumMemoryLimit)
    throw_input_error(option, "", "'" + text + "' is below the minimum of 1M");
  return bytes;
}

void parallel_sort(std::vector<StarRecord>& records) {
  if (omp_get_max_threads() > 1 && records.size() > (1u << 16))
    __gnu_parallel::sort(records.begin(), records.end(), std::less<StarRecord>(),
                         __gnu_parallel::balanced_quicksort_tag());
  else
    std::sort(records.begin(), records.end());
}

// A source of sorted records for the merge.
class RecordCursor {
 public:
  virtual ~RecordCursor() = default;
  virtual const StarRecord* peek() = 0;  // the next record, or nullptr at the end
  virtual void pop() = 0;
};

// A sorted run in a temporary file. The file is an AtomicOutput's temporary that is never
// committed, so it is removed on destruction and on SIGINT/SIGTERM like any other temporary (and
// by the next run when this one was killed); it needs no lock, being this run's alone.
class ExternalSorter::RunFile : public RecordCursor {
 public:
  explicit RunFile(const std::filesystem::path& final_name)
      : output_(final_name, /*force=*/true, OutputLocking::none) {
    file_ = std::fopen(output_.temp_path().c_str(), "wb");
    if (!file_) fail("cannot create");
  }
  ~RunFile() override { close(); }

  void append(std::span<const StarRecord> records) {
    if (!records.empty() &&
        std::fwrite(records.data(), sizeof(StarRecord), records.size(), file_) != records.size())
      fail("cannot write (disk full?)");
    count_ += records.size();
  }
  void end_writing() {
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!closed) fail("cannot write (disk full?)");
  }

  std::uint64_t count() const { return count_; }
  std::uint64_t bytes() const { return count_ * sizeof(StarRecord); }

  // Reading, buffered in `buffer_records` records.
  void open_for_reading(std::size_t buffer_records) {
    file_ = std::fopen(output_.temp_path().c_str(), "rb");
    if (!file_) fail("cannot reopen");
    buffer_.resize(std::max<std::size_t>(1, buffer_records));
    position_ = filled_ = 0;
    remaining_ = count_;
  }
  const StarRecord* peek() override {
    if (position_ == filled_ && !refill()) return nullptr;
    return &buffer_[position_];
  }
  void pop() override { ++position_; }
  void close() {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    buffer_.clear();
    buffer_.shrink_to_fit();
  }

 private:
  bool refill() {
    if (remaining_ == 0) return false;
    const std::size_t want = std::min<std::uint64_t>(buffer_.size(), remaining_);
    if (std::fread(buffer_.data(), sizeof(StarRecord), want, file_) != want) fail("short read");
    remaining_ -= want;
    position_ = 0;
    filled_ = want;
    return true;
  }
  [[noreturn]] void fail(const std::string& what) {
    throw_run_failure(output_.temp_path().string(),
                      "sort run file: " + what + ": " + std::strerror(errno));
  }

  AtomicOutput output_;
  std::FILE* file_ = nullptr;
  std::uint64_t count_ = 0;
  std::vector<StarRecord> buffer_;
  std::size_t position_ = 0;
  std::size_t filled_ = 0;
  std::uint64_t remaining_ = 0;
};

ExternalSorter::ExternalSorter(std::filesystem::path spill_prefix, std::uint64_t memory_limit)
    : spill_prefix_(std::move(spill_prefix)), memory_limit_(memory_limit) {
  statistics_.buffer_capacity = std::max<std::uint64_t>(
      1024, static_cast<std::uint64_t>(kBufferShare * memory_limit) / sizeof(StarRecord));
  // A full buffer is sorted by the reader thread that filled it while the others wait for
  // the lock: let that sort start a nested team so that every core works on it.
  if (omp_get_max_active_levels() < 2) omp_set_max_active_levels(2);
}

ExternalSorter::~ExternalSorter() = default;

void ExternalSorter::add(std::span<const StarRecord> records) {
  std::lock_guard lock(mutex_);
  while (!records.empty()) {
    // A full buffer is spilled only when more records come, so that the last one stays in
    // memory for the merge.
    if (buffer_.size() == statistics_.buffer_capacity) spill_buffer();
    if (buffer_.capacity() < statistics_.buffer_capacity)
      buffer_.reserve(statistics_.buffer_capacity);
    const std::size_t room = statistics_.buffer_capacity - buffer_.size();
    const std::size_t taken = std::min(room, records.size());
    buffer_.insert(buffer_.end(), records.begin(), records.begin() + taken);
    statistics_.records += taken;
    records = records.subspan(taken);
  }
}

void ExternalSorter::spill_buffer() {
  parallel_sort(buffer_);
  auto run = std::make_unique<RunFile>(spill_prefix_.string() + ".sortrun." +
                                       std::to_string(run_serial_++));
  run->append(buffer_);
  run->end_writing();
  statistics_.bytes_spilled += run->bytes();
  ++statistics_.runs_written;
  runs_.push_back(std::move(run));
  buffer_.clear();
}

namespace {

// Merges sorted sources into `emit`, in batches.
void merge_sources(const std::vector<RecordCursor*>& sources, const RecordSink& emit) {
  using Entry = std::pair<StarRecord, std::size_t>;
  auto later = [](const Entry& a, const Entry& b) { return b.first < a.first; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> heap(later);
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (const StarRecord* first = sources[i]->peek()) heap.emplace(*first, i);
  std::vector<StarRecord> batch;
  batch.reserve(kSinkBatch);
  while (!heap.empty()) {
    const auto [record, source] = heap.top();
    heap.pop();
    batch.push_back(record);
    if (batch.size() == kSinkBatch) {
      emit(std::span<const StarRecord>(batch));
      batch.clear();
    }
    sources[source]->pop();
    if (const StarRecord* next = sources[source]->peek()) heap.emplace(*next, source);
  }
  if (!batch.empty()) emit(std::span<const StarRecord>(batch));
}

// The in-memory last run as a merge source.
class MemoryCursor : public RecordCursor {
 public:
  explicit MemoryCursor(const std::vector<StarRecord>& records) : records_(records) {}
  const StarRecord* peek() override {
    return position_ < records_.size() ? &records_[position_] : nullptr;
  }
  void pop() override { ++position_; }

 private:
  const std::vector<StarRecord>& records_;
  std::size_t position_ = 0;
};

std::size_t read_buffer_records(std::uint64_t memory_limit, std::size_t sources) {
  const std::size_t bytes = std::clamp<std::size_t>(
      static_cast<std::size_t>(kMergeShare * static_cast<double>(memory_limit)) /
          std::max<std::size_t>(1, sources),
      kMinReadBuffer, kMaxReadBuffer);
  return bytes / sizeof(StarRecord);
}

}  // namespace

void ExternalSorter::merge_runs_down_to(std::size_t max_runs) {
  // Each pass merges the oldest `max_runs` runs into one new run, until few enough remain.
  while (runs_.size() > max_runs) {
    const std::size_t group = max_runs;
    std::vector<RecordCursor*> sources;
    for (std::size_t i = 0; i < group; ++i) {
      runs_[i]->open_for_reading(read_buffer_records(memory_limit_, group));
      sources.push_back(runs_[i].get());
    }
    auto merged = std::make_unique<RunFile>(spill_prefix_.string() + ".sortrun." +
                                            std::to_string(run_serial_++));
    merge_sources(sources, [&](std::span<const StarRecord> batch) { merged->append(batch); });
    merged->end_writing();
    statistics_.bytes_spilled += merged->bytes();
    ++statistics_.merge_passes;
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(group));
    runs_.push_back(std::move(merged));
  }
}

void ExternalSorter::finish(const RecordSink& sink) {
  std::lock_guard lock(mutex_);
  parallel_sort(buffer_);
  if (runs_.empty()) {
    for (std::size_t first = 0; first < buffer_.size(); first += kSinkBatch)
      sink(std::span<const StarRecord>(buffer_).subspan(
          first, std::min(kSinkBatch, buffer_.size() - first)));
  } else {
    // One source is the in-memory buffer, so at most max_fan_in - 1 file runs.
    const std::size_t max_fan_in = std::max<std::size_t>(
        3, static_cast<std::size_t>(kMergeShare * static_cast<double>(memory_limit_)) /
               kMinReadBuffer);
    merge_runs_down_to(max_fan_in - 1);
    std::vector<RecordCursor*> sources;
    for (auto& run : runs_) {
      run->open_for_reading(read_buffer_records(memory_limit_, runs_.size()));
      sources.push_back(run.get());
    }
    MemoryCursor memory(buffer_);
    sources.push_back(&memory);
    merge_sources(sources, sink);
  }
  buffer_.clear();
  buffer_.shrink_to_fit();
  runs_.clear();
}

}  // namespace starlens::catalog
