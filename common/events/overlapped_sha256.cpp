#include "events/overlapped_sha256.h"

#include <cstring>

namespace starlens {
namespace {

// A staging buffer is handed to the helper once it holds this much (headers coalesce with
// payloads); at most kMaxQueued buffers wait, so the hash lags by a few MiB at most.
constexpr std::size_t kHandOverBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxQueued = 4;

}  // namespace

OverlappedSha256::OverlappedSha256() = default;

OverlappedSha256::~OverlappedSha256() {
  if (!helper_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  helper_.join();
}

void OverlappedSha256::update(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  staging_.insert(staging_.end(), bytes, bytes + size);
  if (staging_.size() >= kHandOverBytes) hand_over_staging();
}

void OverlappedSha256::hand_over_staging() {
  // Started on the first hand-over: small streams never pay for a thread.
  if (!helper_.joinable()) helper_ = std::thread([this] { work(); });
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queued_.size() < kMaxQueued; });
  queued_.push_back(std::move(staging_));
  if (spare_.empty()) {
    staging_ = Buffer();
  } else {
    staging_ = std::move(spare_.back());
    spare_.pop_back();
  }
  staging_.clear();
  changed_.notify_all();
}

std::string OverlappedSha256::finish_hex() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queued_.empty() && !hashing_; });
  }
  // The helper is idle now: the rest is hashed here, after everything queued before it.
  sha_.update(staging_.data(), staging_.size());
  staging_.clear();
  return sha_.finish_hex();
}

void OverlappedSha256::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return !queued_.empty() || stopping_; });
    if (queued_.empty()) return;  // stopping with nothing left to hash
    Buffer buffer = std::move(queued_.front());
    queued_.pop_front();
    hashing_ = true;
    lock.unlock();
    sha_.update(buffer.data(), buffer.size());
    lock.lock();
    hashing_ = false;
    spare_.push_back(std::move(buffer));
    changed_.notify_all();
  }
}

}  // namespace starlens
