#include "events/file_hash_ahead.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <vector>

#include "core/errors.h"
#include "core/stopwatch.h"

namespace starlens {
namespace {

constexpr std::uint64_t kBlockBytes = std::uint64_t(4) << 20;

}  // namespace

FileHashAhead::FileHashAhead(const std::string& path, std::uint64_t lead_bytes)
    : path_(path), lead_bytes_(std::max<std::uint64_t>(lead_bytes, 1)), allowed_(lead_bytes_) {
  descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0)
    throw_input_error(path, "", std::string("cannot be opened: ") + std::strerror(errno));
  ::posix_fadvise(descriptor_, 0, 0, POSIX_FADV_SEQUENTIAL);
  opened_ = identity();
  thread_ = std::thread([this] { hash_file(); });
}

FileHashAhead::~FileHashAhead() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
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

void FileHashAhead::hash_file() {
  std::vector<unsigned char> block(std::min(kBlockBytes, lead_bytes_));
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    changed_.wait(lock, [this] { return stopping_ || hashed_ < allowed_; });
    if (stopping_) break;
    const std::size_t want = std::min<std::uint64_t>(block.size(), allowed_ - hashed_);
    const std::uint64_t offset = hashed_;
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    ssize_t got;
    do got = ::pread(descriptor_, block.data(), want, off_t(offset));
    while (got < 0 && errno == EINTR);
    const std::string error = got < 0 ? std::strerror(errno) : "";
    if (got > 0) sha_.update(block.data(), std::size_t(got));
    const double seconds = seconds_since(start);
    lock.lock();
    busy_seconds_ += seconds;
    if (got <= 0) {
      read_error_ = error;
      done_ = true;
      break;
    }
    hashed_ += std::uint64_t(got);
  }
  changed_.notify_all();
}

std::string FileHashAhead::finish_hex(std::uint64_t bytes_read) {
  reader_reached(std::numeric_limits<std::uint64_t>::max());
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return done_; });
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
