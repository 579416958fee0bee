#pragma once
// The content hash of every file a stage reads or writes (docs/formats/manifest.md, "sha256-
// tree-4MiB"): the SHA-256 of the concatenated raw 32-byte SHA-256 digests of the input's
// consecutive 4 MiB blocks, the last one shorter. An empty input has no block: its hash is the
// SHA-256 of the empty string. Unlike a plain SHA-256, the blocks are independent, so they are
// hashed on all the pool's threads (hash_pool.h), out of order, and combined in order.
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "manifest/hash_pool.h"

namespace starlens {

constexpr std::size_t kTreeBlockBytes = std::size_t(4) << 20;
constexpr const char* kTreeHashScheme = "sha256-tree-4MiB";

using Sha256Digest = std::array<unsigned char, 32>;
Sha256Digest sha256_digest(const void* data, std::size_t size);
std::string hex_digest(const Sha256Digest& digest);

// The tree hash of a buffer in memory.
std::string block_tree_sha256_hex(const void* data, std::size_t size);
// The tree hash of a whole file, its blocks read with pread on the pool's threads. InputError
// if it cannot be opened; RunFailure naming it if a read fails or it changes while hashed.
std::string block_tree_sha256_file(const std::filesystem::path& path,
                                   HashPriority priority = HashPriority::stream);
// The same for an open descriptor, from its start to its size now (a file opened before it is
// renamed is hashed whatever its name by then). RunFailure naming `name` as above.
std::string block_tree_sha256_open_file(int descriptor, const std::string& name,
                                        HashPriority priority = HashPriority::stream);

class BlockTreeSha256;
// Adds the blocks of the first `size` bytes of an open file to `tree`, each read with pread on
// the pool (the descriptor must stay open until the tree is finished or destroyed). A failed
// or short read is a RunFailure naming `name`, rethrown by tree.finish_hex().
void add_file_blocks(BlockTreeSha256& tree, int descriptor, std::uint64_t size,
                     const std::string& name);

// Block digests in order, each computed on the pool. The block count grows as blocks are
// added; finish_hex() waits for all and combines them. The destructor waits for blocks in
// flight (they write into this object); those not yet started are skipped, `on_hashed`
// included (a stage that fails does not wait for the rest of a large input's hash).
class BlockTreeSha256 {
 public:
  explicit BlockTreeSha256(HashPriority priority = HashPriority::stream);
  ~BlockTreeSha256();
  BlockTreeSha256(const BlockTreeSha256&) = delete;
  BlockTreeSha256& operator=(const BlockTreeSha256&) = delete;

  // Hashes `size` bytes at `data` as the next block: kTreeBlockBytes, except for the last. The
  // bytes must stay as they are until `on_hashed` has run (on a pool thread).
  void add_block(const void* data, std::size_t size, std::function<void()> on_hashed = {});
  // The next block's digest, computed by `hash` on the pool (a block read from a file there).
  // An exception `hash` throws is rethrown by finish_hex().
  void add_block_task(std::function<Sha256Digest()> hash);
  // Waits until at most `blocks` added blocks are not yet hashed.
  void wait_in_flight(std::size_t blocks);
  // Waits for every block, then returns the lowercase hex of the tree hash. Call once.
  std::string finish_hex();
  std::uint64_t blocks() const;
  double busy_seconds() const;  // pool thread-seconds spent on this hash's blocks

 private:
  void run(Sha256Digest* slot, std::function<Sha256Digest()> hash);

  HashPriority priority_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Sha256Digest> digests_;  // stable addresses as it grows
  std::size_t in_flight_ = 0;
  std::atomic<bool> abandoned_{false};  // destroyed before finish_hex()
  std::exception_ptr failure_;
  double busy_seconds_ = 0;
};

// The tree hash of bytes fed in order (any piece sizes): update() copies them into 4 MiB
// blocks and hands each full block to the pool, keeping at most `max_blocks` blocks (memory
// stays bounded whatever the stream's size; update() waits for a free block). With a `sink`,
// each block is also passed, in stream order, to the sink on a thread of its own before it is
// reused (a writer writes the blocks it hashes); `offset` is the block's position in the
// stream. An exception the sink throws is rethrown by the next update() or finish_hex().
// A sink that passes a block's pages on without copying them (vmsplice into a pipe) gives
// `sink_keeps_bytes`: a block is then reused only once that many more bytes have gone through
// the sink after it. Blocks are page-aligned mappings of the stream's own, unmapped (never
// handed back to the allocator for reuse) when the stream is destroyed.
class BlockTreeSha256Stream {
 public:
  using Sink =
      std::function<void(const unsigned char* data, std::size_t size, std::uint64_t offset)>;

  explicit BlockTreeSha256Stream(Sink sink = {}, std::size_t max_blocks = 0,
                                 std::uint64_t sink_keeps_bytes = 0);
  ~BlockTreeSha256Stream();  // waits for the sink and the hash of blocks handed over
  BlockTreeSha256Stream(const BlockTreeSha256Stream&) = delete;
  BlockTreeSha256Stream& operator=(const BlockTreeSha256Stream&) = delete;

  void update(const void* data, std::size_t size);
  // Hands over the last block, waits for the hash and the sink, returns the hex digest.
  std::string finish_hex();
  // For an abandoned stream: waits for the sink, then passes it the bytes of the unfinished
  // block too (errors ignored). Nothing may be fed afterwards.
  void flush_to_sink();
  std::uint64_t size() const { return size_; }
  double busy_seconds() const { return tree_.busy_seconds(); }

 private:
  struct Block {
    Block();  // maps kTreeBlockBytes
    ~Block();
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    unsigned char* bytes = nullptr;
    std::size_t size = 0;
    std::uint64_t offset = 0;
    int users = 0;  // the hash and the sink
  };
  void hand_over();
  void release(Block* block);
  // After the sink: the block, or with sink_keeps_bytes the oldest kept one, back to free_.
  void sink_done(Block* block);
  void take_free_block();
  void drain_sink();
  void rethrow_sink_failure();

  Sink sink_;
  std::size_t max_blocks_;
  BlockTreeSha256 tree_;
  std::uint64_t size_ = 0;
  Block* current_ = nullptr;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Block>> blocks_;
  std::vector<Block*> free_;
  std::deque<Block*> to_sink_;
  std::uint64_t sink_keeps_bytes_ = 0;
  std::deque<Block*> kept_by_sink_;  // passed through the sink, oldest first
  std::uint64_t kept_bytes_ = 0;
  bool sink_busy_ = false;
  bool stopping_ = false;
  std::exception_ptr sink_failure_;
  std::thread sink_thread_;
};

}  // namespace starlens
