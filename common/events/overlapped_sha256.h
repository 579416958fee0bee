#pragma once
// SHA-256 of a stream computed on a helper thread. SHA-256 is the slowest per-byte cost of
// reading or writing an event stream (~1-2 GB/s on one core, against 6-8 GB/s for xxh3 and
// validation); handing it the bytes lets the reader and writer run at the speed of their
// other work. update() copies the bytes into a staging buffer (the caller's memory is free
// again at once); full buffers queue for the helper, a bounded number at a time, so memory
// stays a few MiB whatever the stream's size. Bytes are hashed strictly in update() order.
// The helper thread starts with the first full buffer: streams under 1 MiB hash inline.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "manifest/sha256.h"

namespace starlens {

class OverlappedSha256 {
 public:
  OverlappedSha256();
  ~OverlappedSha256();
  OverlappedSha256(const OverlappedSha256&) = delete;
  OverlappedSha256& operator=(const OverlappedSha256&) = delete;

  void update(const void* data, std::size_t size);
  // Waits for every queued byte, then returns the lowercase hex digest. Call once.
  std::string finish_hex();

 private:
  using Buffer = std::vector<unsigned char>;
  void hand_over_staging();
  void work();

  Sha256Stream sha_;
  Buffer staging_;  // filled by update() in the caller's thread
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Buffer> queued_;  // full buffers, oldest first
  std::vector<Buffer> spare_;  // hashed buffers kept for reuse
  bool hashing_ = false;       // the helper holds a buffer
  bool stopping_ = false;
  std::thread helper_;  // started by the first hand-over
};

}  // namespace starlens
