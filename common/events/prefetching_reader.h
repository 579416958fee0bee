#pragma once
// An EventReader on its own thread, a few chunks ahead of the consumer. Reading and
// validating a chunk (xxh3, every record checked, the copy out of the file) costs about as
// much as the GPU backend's host work on it; with the reader ahead, the two overlap instead
// of adding up. The reader thread only reads and frames chunks; each chunk's checksum and
// record checks run on the hash pool, several chunks at once, so no one thread does all the
// per-byte work. Memory stays bounded: `depth` chunk buffers, reused, each allocated when the
// reader first fills it. Chunks come out in stream order, and a reader error is rethrown by
// next() exactly where the plain reader would have thrown it (after the chunks before the bad
// one). The stream's tree hash is the reader's: of the blocks it read, hashed on the hash pool
// as they are read.
//
// The automatic depth holds kPrefetchAheadBytes of events: more than a GPU batch (2^22
// events, 235 MB), so that while the consumer summarises and submits a batch the reader goes
// on draining its input. Behind a pipe this matters most: a reader that stops stops the
// writer at the other end, and the producer's work and the consumer's then add up instead of
// overlapping.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "events/event_stream.h"

namespace starlens {

constexpr std::uint64_t kPrefetchAheadBytes = std::uint64_t(512) << 20;

// The automatic depth for chunks of at most `chunk_capacity` events.
std::size_t automatic_prefetch_depth(std::uint32_t chunk_capacity);

class PrefetchingReader {
 public:
  // Opens the stream and reads its header on the calling thread (header errors throw here).
  // `depth` chunk buffers; 0: automatic (kPrefetchAheadBytes of full chunks, 8 to 4096).
  explicit PrefetchingReader(const std::string& path, StreamHash hash = StreamHash::tree_sha256,
                             std::size_t depth = 0);
  ~PrefetchingReader();  // stops the reader thread, even while it waits for a free buffer
  PrefetchingReader(const PrefetchingReader&) = delete;
  PrefetchingReader& operator=(const PrefetchingReader&) = delete;

  const StreamHeader& header() const;
  // The next chunk's events, valid until the following call; false after the end chunk.
  bool next(std::span<const StarEvent>& events, ChunkInfo& info);

  std::uint64_t bytes_read() const;  // through the last chunk handed out
  // Valid after next() returned false (next() throws RunFailure instead if a regular file
  // changed while it was read).
  std::string tree_sha256() const;
  double reader_busy_seconds() const;  // the reader thread's time in EventReader (so far)
  double hash_busy_seconds() const;    // pool thread-seconds spent hashing the stream

 private:
  struct Slot {
    std::vector<StarEvent> events;
    ChunkInfo info;
    std::uint64_t bytes_after = 0;  // reader's bytes_read() once this chunk was read
    bool end = false;               // the end chunk (no events)
    bool checked = false;           // its checks have run (failure set if they failed)
    std::exception_ptr failure;     // the reader's error in place of this chunk
  };
  void read_ahead();

  EventReader reader_;
  std::vector<Slot> slots_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t filled_ = 0;    // slots ready for the consumer, starting at consumed_
  std::size_t consumed_ = 0;  // index of the next slot to hand out (modulo depth)
  bool holding_ = false;      // the consumer still uses the slot handed out last
  std::size_t checks_in_flight_ = 0;
  bool stopping_ = false;
  bool finished_ = false;  // the consumer saw the end
  std::uint64_t bytes_read_ = 0;
  double busy_seconds_ = 0;
  std::thread thread_;
};

}  // namespace starlens
