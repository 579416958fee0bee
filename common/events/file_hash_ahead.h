#pragma once
// SHA-256 of a regular file on its own thread and its own descriptor, ahead of the reader.
// SHA-256 (~1.5 GB/s on one core) is the slowest thing a replay does per byte; fed by the
// reader, it would stall whenever the consumer does (a GPU backend's 0.3-0.4 s of start-up,
// with the reader only a few chunks ahead). Reading the file a second time lets the hash run
// from the first moment at its own speed. Copying the file out of the page cache costs about
// half as much as hashing it, so one thread reads blocks and another hashes them, two blocks
// of 4 MiB apart at most. The hash stays at most `lead_bytes` ahead of the reader,
// so the reader finds those pages still in the page cache instead of reading them from disk
// again. finish_hex() checks that the hash covered exactly the bytes the reader read and that
// the file did not change while it was read (size, modification time, inode).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "manifest/sha256.h"

namespace starlens {

class FileHashAhead {
 public:
  static constexpr std::uint64_t kDefaultLeadBytes = std::uint64_t(1) << 30;

  // Opens the file and starts hashing; a file that cannot be opened is an InputError.
  FileHashAhead(const std::string& path, std::uint64_t lead_bytes = kDefaultLeadBytes);
  ~FileHashAhead();  // stops the thread wherever it is
  FileHashAhead(const FileHashAhead&) = delete;
  FileHashAhead& operator=(const FileHashAhead&) = delete;

  // The reader has read the file up to `bytes_read`: the hash may go `lead_bytes` beyond.
  void reader_reached(std::uint64_t bytes_read);
  // Hashes to the end of the file and returns the lowercase hex digest; RunFailure if the
  // file could not be read, was not `bytes_read` bytes long, or changed since it was opened.
  std::string finish_hex(std::uint64_t bytes_read);
  double busy_seconds() const;  // the hashing thread's time in SHA-256 (so far)

 private:
  struct Identity {
    std::uint64_t size = 0, inode = 0, device = 0;
    std::int64_t modified_s = 0, modified_ns = 0;
    bool operator==(const Identity&) const = default;
  };
  struct Block {
    std::vector<unsigned char> bytes;  // allocated once
    std::size_t size = 0;              // bytes read into it
  };
  Identity identity() const;
  void read_blocks();
  void hash_blocks();

  std::string path_;
  int descriptor_ = -1;
  std::uint64_t lead_bytes_;
  Identity opened_;
  Sha256Stream sha_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t allowed_ = 0;  // the file may be read up to here
  std::uint64_t read_ = 0;     // bytes read into blocks
  std::uint64_t hashed_ = 0;
  std::deque<Block> full_;    // read, waiting for the hash, in file order
  std::vector<Block> empty_;  // free for the next read
  bool end_of_file_ = false;  // or a read error: nothing more will be read
  bool stopping_ = false;
  std::string read_error_;
  double busy_seconds_ = 0;
  std::thread reading_, hashing_;
};

}  // namespace starlens
