// The reader thread fills slots in ring order; the consumer takes them in the same order.
// A slot is refilled only after the consumer has moved past it, so the span handed out by
// next() stays valid until the following call.
#include "events/prefetching_reader.h"

#include <algorithm>
#include <chrono>

#include "manifest/hash_pool.h"

namespace starlens {

std::size_t automatic_prefetch_depth(std::uint32_t chunk_capacity) {
  const std::uint64_t chunk_bytes =
      std::uint64_t(std::max<std::uint32_t>(chunk_capacity, 1)) * sizeof(StarEvent);
  return std::size_t(std::clamp<std::uint64_t>(kPrefetchAheadBytes / chunk_bytes, 8, 4096));
}

PrefetchingReader::PrefetchingReader(const std::string& path, StreamHash hash, std::size_t depth)
    : reader_(path, hash),
      slots_(depth == 0 ? automatic_prefetch_depth(reader_.header().chunk_capacity)
                        : std::max<std::size_t>(depth, 2)) {
  thread_ = std::thread([this] { read_ahead(); });
}

PrefetchingReader::~PrefetchingReader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return checks_in_flight_ == 0; });  // they use the slots
}

const StreamHeader& PrefetchingReader::header() const {
  return reader_.header();
}

void PrefetchingReader::read_ahead() {
  std::size_t next_slot = 0;
  for (;;) {
    {
      // Wait for a slot the consumer neither holds nor has yet to take.
      std::unique_lock lock(mutex_);
      changed_.wait(lock,
                    [&] { return stopping_ || filled_ + (holding_ ? 1 : 0) < slots_.size(); });
      if (stopping_) return;
    }
    Slot& slot = slots_[next_slot];
    const auto start = std::chrono::steady_clock::now();
    slot.failure = nullptr;
    std::uint64_t checksum = 0;
    try {
      slot.end = !reader_.next_chunk_unchecked(slot.events, slot.info, checksum);
    } catch (...) {
      slot.failure = std::current_exception();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    slot.bytes_after = reader_.bytes_read();
    const bool last = slot.end || slot.failure;
    {
      std::lock_guard lock(mutex_);
      busy_seconds_ += seconds;
      slot.checked = last;
      if (!last) ++checks_in_flight_;
      ++filled_;
    }
    changed_.notify_all();
    if (!last) {
      // The checksum and record checks on the hash pool: chunks are checked side by side, and
      // handed out in order once checked.
      submit_hash_task(
          [this, &slot, checksum] {
            std::exception_ptr failure;
            try {
              reader_.check_chunk(slot.events, slot.info, checksum);
            } catch (...) {
              failure = std::current_exception();
            }
            std::lock_guard lock(mutex_);
            slot.failure = failure;
            slot.checked = true;
            --checks_in_flight_;
            changed_.notify_all();
          },
          HashPriority::stream);
    }
    if (last) return;
    next_slot = (next_slot + 1) % slots_.size();
  }
}

bool PrefetchingReader::next(std::span<const StarEvent>& events, ChunkInfo& info) {
  std::unique_lock lock(mutex_);
  if (finished_) return false;
  if (holding_) {  // the previous chunk is done with: its slot may be refilled
    holding_ = false;
    consumed_ = (consumed_ + 1) % slots_.size();
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return filled_ > 0 && slots_[consumed_].checked; });
  Slot& slot = slots_[consumed_];
  --filled_;
  if (slot.failure) {
    finished_ = true;
    std::rethrow_exception(slot.failure);
  }
  bytes_read_ = slot.bytes_after;
  if (slot.end) {
    finished_ = true;
    return false;
  }
  holding_ = true;
  events = slot.events;
  info = slot.info;
  return true;
}

std::uint64_t PrefetchingReader::bytes_read() const {
  return bytes_read_;
}

std::string PrefetchingReader::tree_sha256() const {
  return finished_ ? reader_.tree_sha256() : std::string();
}

double PrefetchingReader::hash_busy_seconds() const {
  return reader_.hash_busy_seconds();
}

double PrefetchingReader::reader_busy_seconds() const {
  std::lock_guard lock(mutex_);
  return busy_seconds_;
}

}  // namespace starlens
