// The tree hash's three parts: BlockTreeSha256 (block digests on the pool, combined in order),
// the whole-buffer and whole-file functions built on it, and the copying stream.
#include "manifest/block_tree_sha256.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>

#include "core/errors.h"
#include "manifest/file_identity.h"

namespace starlens {
namespace {

// Most blocks a stream keeps (in the caller's hands, hashing, or waiting for the sink): enough
// for every pool thread to hash one while the caller fills the next.
std::size_t default_stream_blocks() {
  return std::clamp<std::size_t>(std::size_t(hash_threads()) + 2, 4, 34);
}

// Closes a descriptor when the function that opened it returns or throws.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Sha256Digest sha256_digest(const void* data, std::size_t size) {
  Sha256Digest digest{};
  unsigned int length = 0;
  if (EVP_Digest(data, size, digest.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != digest.size())
    throw_run_failure("sha256", "OpenSSL digest failed");
  return digest;
}

std::string hex_digest(const Sha256Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * digest.size());
  for (const unsigned char byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

BlockTreeSha256::BlockTreeSha256(HashPriority priority) : priority_(priority) {}

BlockTreeSha256::~BlockTreeSha256() {
  abandoned_ = true;  // blocks still queued are skipped: an unfinished hash is not wanted
  wait_in_flight(0);
}

void BlockTreeSha256::run(Sha256Digest* slot, std::function<Sha256Digest()> hash) {
  submit_hash_task(
      [this, slot, hash = std::move(hash)] {
        const auto start = std::chrono::steady_clock::now();
        std::exception_ptr failure;
        try {
          if (!abandoned_) *slot = hash();
        } catch (...) {
          failure = std::current_exception();
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::lock_guard lock(mutex_);
        if (failure && !failure_) failure_ = failure;
        busy_seconds_ += seconds;
        --in_flight_;
        changed_.notify_all();
      },
      priority_);
}

void BlockTreeSha256::add_block(const void* data, std::size_t size,
                                std::function<void()> on_hashed) {
  Sha256Digest* slot;
  {
    std::lock_guard lock(mutex_);
    slot = &digests_.emplace_back();
    ++in_flight_;
  }
  run(slot, [data, size, on_hashed = std::move(on_hashed)] {
    const Sha256Digest digest = sha256_digest(data, size);
    if (on_hashed) on_hashed();
    return digest;
  });
}

void BlockTreeSha256::add_block_task(std::function<Sha256Digest()> hash) {
  Sha256Digest* slot;
  {
    std::lock_guard lock(mutex_);
    slot = &digests_.emplace_back();
    ++in_flight_;
  }
  run(slot, std::move(hash));
}

void BlockTreeSha256::wait_in_flight(std::size_t blocks) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return in_flight_ <= blocks; });
}

std::string BlockTreeSha256::finish_hex() {
  wait_in_flight(0);
  std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  std::vector<unsigned char> concatenated;
  concatenated.reserve(digests_.size() * sizeof(Sha256Digest));
  for (const Sha256Digest& digest : digests_)
    concatenated.insert(concatenated.end(), digest.begin(), digest.end());
  return hex_digest(sha256_digest(concatenated.data(), concatenated.size()));
}

std::uint64_t BlockTreeSha256::blocks() const {
  std::lock_guard lock(mutex_);
  return digests_.size();
}

double BlockTreeSha256::busy_seconds() const {
  std::lock_guard lock(mutex_);
  return busy_seconds_;
}

std::string block_tree_sha256_hex(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  BlockTreeSha256 tree;
  for (std::size_t offset = 0; offset < size; offset += kTreeBlockBytes)
    tree.add_block(bytes + offset, std::min(kTreeBlockBytes, size - offset));
  return tree.finish_hex();
}

void add_file_blocks(BlockTreeSha256& tree, int descriptor, std::uint64_t size,
                     const std::string& name) {
  for (std::uint64_t offset = 0; offset < size; offset += kTreeBlockBytes) {
    const std::size_t want = std::size_t(std::min<std::uint64_t>(kTreeBlockBytes, size - offset));
    tree.add_block_task([descriptor, offset, want, name] {
      // One block buffer per pool thread, kept: no allocation per block.
      thread_local std::vector<unsigned char> buffer(kTreeBlockBytes);
      std::size_t got = 0;
      while (got < want) {
        const ssize_t n = ::pread(descriptor, buffer.data() + got, want - got, off_t(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
          throw_run_failure(name,
                            std::string("read failed while hashing: ") + std::strerror(errno));
        if (n == 0) throw_run_failure(name, "changed while being hashed (shorter than its size)");
        got += std::size_t(n);
      }
      return sha256_digest(buffer.data(), want);
    });
  }
}

std::string block_tree_sha256_file(const std::filesystem::path& path, HashPriority priority) {
  const std::string name = path.string();
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0)
    throw_input_error(name, "",
                      std::string("cannot be opened for reading: ") + std::strerror(errno));
  return block_tree_sha256_open_file(file.fd, name, priority);
}

std::string block_tree_sha256_open_file(int descriptor, const std::string& name,
                                        HashPriority priority) {
  ::posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL);
  const FileIdentity before = file_identity(descriptor, name);
  BlockTreeSha256 tree(priority);
  add_file_blocks(tree, descriptor, before.size, name);
  const std::string hex = tree.finish_hex();
  if (!(file_identity(descriptor, name) == before))
    throw_run_failure(name, "changed while being hashed: its hash would not be its content's");
  return hex;
}

BlockTreeSha256Stream::Block::Block() {
  void* memory =
      ::mmap(nullptr, kTreeBlockBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  bytes = static_cast<unsigned char*>(memory);
}

BlockTreeSha256Stream::Block::~Block() {
  ::munmap(bytes, kTreeBlockBytes);
}

BlockTreeSha256Stream::BlockTreeSha256Stream(Sink sink, std::size_t max_blocks,
                                             std::uint64_t sink_keeps_bytes)
    : sink_(std::move(sink)),
      max_blocks_(max_blocks > 0 ? std::max<std::size_t>(max_blocks, 2) : default_stream_blocks()),
      sink_keeps_bytes_(sink_ ? sink_keeps_bytes : 0) {
  // Room for the kept blocks besides the ones being filled and hashed.
  if (sink_keeps_bytes_ > 0)
    max_blocks_ += std::size_t((sink_keeps_bytes_ + kTreeBlockBytes - 1) / kTreeBlockBytes) + 1;
}

BlockTreeSha256Stream::~BlockTreeSha256Stream() {
  if (sink_thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    sink_thread_.join();
  }
  tree_.wait_in_flight(0);  // blocks being hashed still point into blocks_
}

void BlockTreeSha256Stream::take_free_block() {
  std::unique_lock lock(mutex_);
  if (free_.empty() && blocks_.size() < max_blocks_) {
    blocks_.push_back(std::make_unique<Block>());
    free_.push_back(blocks_.back().get());
  }
  changed_.wait(lock, [this] { return !free_.empty(); });
  current_ = free_.back();
  free_.pop_back();
  current_->size = 0;
  current_->offset = size_;
}

void BlockTreeSha256Stream::release(Block* block) {
  std::lock_guard lock(mutex_);
  if (--block->users == 0) free_.push_back(block);
  changed_.notify_all();
}

void BlockTreeSha256Stream::rethrow_sink_failure() {
  std::lock_guard lock(mutex_);
  if (sink_failure_) std::rethrow_exception(sink_failure_);
}

void BlockTreeSha256Stream::hand_over() {
  Block* block = current_;
  current_ = nullptr;
  {
    std::lock_guard lock(mutex_);
    block->users = sink_ ? 2 : 1;
  }
  tree_.add_block(block->bytes, block->size, [this, block] { release(block); });
  if (!sink_) return;
  {
    std::lock_guard lock(mutex_);
    to_sink_.push_back(block);
    if (!sink_thread_.joinable()) sink_thread_ = std::thread([this] { drain_sink(); });
  }
  changed_.notify_all();
}

void BlockTreeSha256Stream::drain_sink() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !to_sink_.empty(); });
    if (to_sink_.empty()) return;  // stopping with nothing left
    Block* block = to_sink_.front();
    to_sink_.pop_front();
    sink_busy_ = true;
    const bool skip = sink_failure_ != nullptr;
    lock.unlock();
    std::exception_ptr failure;
    if (!skip) {
      try {
        sink_(block->bytes, block->size, block->offset);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    lock.lock();
    if (failure) sink_failure_ = failure;
    sink_busy_ = false;
    sink_done(block);
    changed_.notify_all();
  }
}

void BlockTreeSha256Stream::sink_done(Block* block) {
  if (sink_keeps_bytes_ == 0) {
    if (--block->users == 0) free_.push_back(block);
    return;
  }
  kept_by_sink_.push_back(block);
  kept_bytes_ += block->size;
  while (kept_bytes_ - kept_by_sink_.front()->size >= sink_keeps_bytes_) {
    Block* oldest = kept_by_sink_.front();
    kept_by_sink_.pop_front();
    kept_bytes_ -= oldest->size;
    if (--oldest->users == 0) free_.push_back(oldest);
  }
}

void BlockTreeSha256Stream::update(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (size > 0) {
    if (current_ == nullptr) {
      rethrow_sink_failure();
      take_free_block();
    }
    const std::size_t take = std::min(size, kTreeBlockBytes - current_->size);
    std::memcpy(current_->bytes + current_->size, bytes, take);
    current_->size += take;
    size_ += take;
    bytes += take;
    size -= take;
    if (current_->size == kTreeBlockBytes) hand_over();
  }
}

std::string BlockTreeSha256Stream::finish_hex() {
  if (current_ != nullptr && current_->size > 0) {
    hand_over();
  } else if (current_ != nullptr) {
    std::lock_guard lock(mutex_);
    free_.push_back(current_);
    current_ = nullptr;
  }
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return to_sink_.empty() && !sink_busy_; });
  }
  rethrow_sink_failure();
  return tree_.finish_hex();
}

void BlockTreeSha256Stream::flush_to_sink() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return to_sink_.empty() && !sink_busy_; });
    if (sink_failure_ || !sink_) return;
  }
  if (current_ == nullptr || current_->size == 0) return;
  try {
    sink_(current_->bytes, current_->size, current_->offset);
  } catch (...) {
  }
}

}  // namespace starlens
