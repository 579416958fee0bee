#include "events/file_hash_ahead.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "core/stopwatch.h"

namespace starlens {
namespace {

constexpr std::uint64_t kBlockBytes = std::uint64_t(4) << 20;
constexpr std::size_t kBlocks = 3;  // one being read, one being hashed, one waiting

}  // namespace

FileHashAhead::FileHashAhead(const std::string& path, std::uint64_t lead_bytes)
    : path_(path), lead_bytes_(std::max<std::uint64_t>(lead_bytes, 1)), allowed_(lead_bytes_) {
  descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0)
    throw_input_error(path, "", std::string("cannot be opened: ") + std::strerror(errno));
  ::posix_fadvise(descriptor_, 0, 0, POSIX_FADV_SEQUENTIAL);
  opened_ = identity();
  for (std::size_t k = 0; k < kBlocks; ++k)
    empty_.push_back({std::vector<unsigned char>(std::min(kBlockBytes, lead_bytes_)), 0});
  reading_ = std::thread([this] { read_blocks(); });
  hashing_ = std::thread([this] { hash_blocks(); });
}

FileHashAhead::~FileHashAhead() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  reading_.join();
  if (hashing_.joinable()) hashing_.join();  // finish_hex() may have joined it
  ::close(descriptor_);
}

FileHashAhead::Identity FileHashAhead::identity() const {
  struct stat status {};
  if (::fstat(descriptor_, &status) != 0)
    throw_run_failure(path_, std::string("cannot stat: ") + std::strerror(errno));
  return {std::uint64_t(status.st_size), std::uint64_t(status.st_ino), std::uint64_t(status.st_dev),
          std::int64_t(status.st_mtim.tv_sec), std::int64_t(status.st_mtim.tv_nsec)};
}

void FileHashAhead::reader_reached(std::uint64_t bytes_read) {
  {
    std::lock_guard lock(mutex_);
    const std::uint64_t limit = bytes_read > std::numeric_limits<std::uint64_t>::max() - lead_bytes_
                                    ? std::numeric_limits<std::uint64_t>::max()
                                    : bytes_read + lead_bytes_;
    if (limit <= allowed_) return;
    allowed_ = limit;
  }
  changed_.notify_all();
}

void FileHashAhead::read_blocks() {
  std::unique_lock lock(mutex_);
  while (!stopping_ && !end_of_file_) {
    changed_.wait(lock, [this] { return stopping_ || (read_ < allowed_ && !empty_.empty()); });
    if (stopping_) break;
    Block block = std::move(empty_.back());
    empty_.pop_back();
    const std::size_t want = std::min<std::uint64_t>(block.bytes.size(), allowed_ - read_);
    const std::uint64_t offset = read_;
    lock.unlock();
    ssize_t got;
    do got = ::pread(descriptor_, block.bytes.data(), want, off_t(offset));
    while (got < 0 && errno == EINTR);
    const std::string error = got < 0 ? std::strerror(errno) : "";
    lock.lock();
    if (got <= 0) {
      read_error_ = error;
      end_of_file_ = true;
      empty_.push_back(std::move(block));
    } else {
      block.size = std::size_t(got);
      read_ += std::uint64_t(got);
      full_.push_back(std::move(block));
    }
    changed_.notify_all();
  }
}

void FileHashAhead::hash_blocks() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !full_.empty() || end_of_file_; });
    if (stopping_ || full_.empty()) break;  // stopped, or everything read is hashed
    Block block = std::move(full_.front());
    full_.pop_front();
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    sha_.update(block.bytes.data(), block.size);
    const double seconds = seconds_since(start);
    lock.lock();
    busy_seconds_ += seconds;
    hashed_ += block.size;
    empty_.push_back(std::move(block));
    changed_.notify_all();
  }
}

std::string FileHashAhead::finish_hex(std::uint64_t bytes_read) {
  reader_reached(std::numeric_limits<std::uint64_t>::max());
  hashing_.join();  // it ends once the reading thread has reached the end and all is hashed
  std::lock_guard lock(mutex_);
  if (!read_error_.empty()) throw_run_failure(path_, "read failed while hashing: " + read_error_);
  if (hashed_ != bytes_read || !(identity() == opened_))
    throw_run_failure(path_, "changed while being read (" + std::to_string(hashed_) +
                                 " bytes hashed, " + std::to_string(bytes_read) +
                                 " read as the stream): its hash would not be the hash of the "
                                 "events used");
  return sha_.finish_hex();
}

double FileHashAhead::busy_seconds() const {
  std::lock_guard lock(mutex_);
  return busy_seconds_;
}

}  // namespace starlens
