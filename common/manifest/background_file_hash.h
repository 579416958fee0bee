#pragma once
// The tree hash of an input file computed on the pool while the stage works (its blocks queue
// behind any stream's, hash_pool.h), joined when the manifest is written: hashing an input
// never delays the first output. The file is opened at once (a file that cannot be opened is
// bad input there and then); result() fails if it changed from then until the join (size,
// modification time, inode), the time during which the stage read it.
#include <cstdint>
#include <memory>
#include <string>

#include "manifest/block_tree_sha256.h"
#include "manifest/file_identity.h"

namespace starlens {

class BackgroundFileHash {
 public:
  explicit BackgroundFileHash(const std::string& path);
  ~BackgroundFileHash();  // waits for blocks in flight
  BackgroundFileHash(const BackgroundFileHash&) = delete;
  BackgroundFileHash& operator=(const BackgroundFileHash&) = delete;

  struct Result {
    std::uint64_t size = 0;
    std::string hex;
  };
  // Waits for the hash; RunFailure naming the file if a read failed or the file changed.
  Result result();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int descriptor_ = -1;
  FileIdentity opened_;
  std::unique_ptr<BlockTreeSha256> tree_;
  std::unique_ptr<Result> result_;
};

}  // namespace starlens
