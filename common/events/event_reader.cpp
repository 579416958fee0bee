// EventReader: validates the file header, then each chunk as it is read (magic, sequence,
// capacity, checksum, records) and the end chunk. The stream is read in whole 4 MiB blocks
// (one read(2) each where the kernel allows; a pipe is enlarged first), and each block read is
// tree-hashed on the hash pool while the reader parses it and reads the next: the hash is of
// exactly the bytes read, with no second copy. Chunks are copied out of the blocks into the
// caller's memory.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "core/errors.h"
#include "events/event_stream.h"
#include "events/pipe_capacity.h"
#include "events/stream_layout.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/file_identity.h"

namespace starlens {
namespace {

std::string chunk_field(std::uint64_t sequence) {
  return "chunk " + std::to_string(sequence);
}

// Blocks a reader keeps: one it parses, the others being hashed. More than the hash needs to
// keep up with the reads gains nothing.
std::size_t reader_blocks() {
  return std::clamp<std::size_t>(std::size_t(hash_threads()) + 2, 3, 10);
}

}  // namespace

struct EventReader::State {
  struct Block {
    // Not zeroed: read(2) fills what is used, and a short stream touches only its own pages.
    std::unique_ptr<unsigned char[]> bytes;
    std::size_t size = 0;
    bool hashing = false;  // the pool still reads it
  };

  std::string path;  // as given
  std::string name;  // for messages
  int descriptor = -1;
  bool owns_descriptor = false;
  std::optional<FileIdentity> opened;  // a regular file's, checked at the end
  StreamHeader header;
  std::mutex mutex;
  std::condition_variable hashed;
  std::vector<Block> blocks;
  std::size_t current = 0;   // the block being parsed
  std::size_t position = 0;  // within it
  bool end_of_input = false;
  std::unique_ptr<BlockTreeSha256> tree;  // null: not hashing; destroyed before the blocks
  std::string tree_hex;
  std::uint64_t bytes = 0;
  std::uint64_t next_sequence = 0;
  bool ended = false;
  bool defer_checks = false;  // next_chunk_unchecked: the caller checks payloads

  ~State() {
    tree.reset();  // waits for blocks being hashed
    if (owns_descriptor) ::close(descriptor);
  }

  [[noreturn]] void read_failed() const {
    throw_run_failure(name, std::string("read failed: ") + std::strerror(errno));
  }

  // Reads the next block whole (a pipe delivers it in pieces): only the last is shorter.
  void load_next_block() {
    if (blocks.empty()) {
      blocks.resize(tree ? reader_blocks() : 1);
    } else {
      current = (current + 1) % blocks.size();
    }
    Block& block = blocks[current];
    {
      std::unique_lock lock(mutex);
      hashed.wait(lock, [&] { return !block.hashing; });
    }
    if (!block.bytes)
      block.bytes = std::make_unique_for_overwrite<unsigned char[]>(kTreeBlockBytes);
    block.size = 0;
    position = 0;
    while (block.size < kTreeBlockBytes) {
      const ssize_t got =
          ::read(descriptor, block.bytes.get() + block.size, kTreeBlockBytes - block.size);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) read_failed();
      if (got == 0) {
        end_of_input = true;
        break;
      }
      block.size += std::size_t(got);
    }
    if (tree && block.size > 0) {
      {
        std::lock_guard lock(mutex);
        block.hashing = true;
      }
      tree->add_block(block.bytes.get(), block.size, [this, &block] {
        std::lock_guard lock(mutex);
        block.hashing = false;
        hashed.notify_all();
      });
    }
  }

  // Copies up to `size` bytes; fewer only at the end of the input. Read errors are run
  // failures.
  std::size_t read_bytes(void* destination, std::size_t size) {
    auto* out = static_cast<unsigned char*>(destination);
    std::size_t copied = 0;
    while (copied < size) {
      if (blocks.empty() || position == blocks[current].size) {
        if (end_of_input) break;
        load_next_block();
        continue;
      }
      const Block& block = blocks[current];
      const std::size_t take = std::min(size - copied, block.size - position);
      std::memcpy(out + copied, block.bytes.get() + position, take);
      position += take;
      copied += take;
    }
    bytes += copied;
    return copied;
  }

  void read_file_header() {
    FileHeaderBytes bytes{};
    const std::size_t got = read_bytes(bytes.data(), bytes.size());
    if (got == 0) throw_input_error(name, "", "empty file: not an event stream");
    // A short file that starts like the magic is a truncated stream, anything else is foreign.
    if (std::memcmp(bytes.data(), kFileMagic.data(), std::min(got, kFileMagic.size())) != 0)
      throw_input_error(name, "",
                        "not an event stream (magic " +
                            hex_bytes({bytes.data(), std::min(got, kFileMagic.size())}) +
                            ", expected \"STLNEVT1\")");
    if (got < bytes.size())
      throw_input_error(name, "truncated",
                        "file header is " + std::to_string(got) + " of " +
                            std::to_string(kFileHeaderBytes) + " bytes");
    header = decode_file_header(bytes, name);
  }

  // Reads and checks the next chunk header (not yet its payload).
  ChunkHeader read_chunk_header() {
    const std::string field = chunk_field(next_sequence);
    ChunkHeaderBytes bytes{};
    const std::size_t got = read_bytes(bytes.data(), bytes.size());
    if (got == 0)
      throw_input_error(
          name, "truncated",
          "stream ends without its end chunk (after " + std::to_string(next_sequence) + " chunks)");
    if (got < bytes.size())
      throw_input_error(name, field,
                        "truncated: chunk header is " + std::to_string(got) + " of " +
                            std::to_string(kChunkHeaderBytes) + " bytes");
    ChunkHeader chunk;
    if (!decode_chunk_header(bytes, chunk))
      throw_input_error(name, field,
                        "bad chunk magic (" + hex_bytes({bytes.data(), kChunkMagic.size()}) +
                            ", expected \"CHNK\")");
    if (chunk.sequence != next_sequence)
      throw_input_error(name, field,
                        "sequence number is " + std::to_string(chunk.sequence) + ", expected " +
                            std::to_string(next_sequence) +
                            " (a chunk is missing or out of order)");
    if (chunk.count > header.chunk_capacity)
      throw_input_error(name, field,
                        "count " + std::to_string(chunk.count) + " exceeds the chunk capacity " +
                            std::to_string(header.chunk_capacity));
    // A file says how much payload can follow: a corrupt count is refused before its records
    // are allocated, not after.
    const std::uint64_t payload = std::uint64_t(chunk.count) * kEventRecordBytes;
    const std::uint64_t left = opened ? opened->size - std::min(opened->size, this->bytes) : 0;
    if (opened && payload > left)
      throw_input_error(name, field,
                        "truncated: payload is " + std::to_string(left) + " of " +
                            std::to_string(payload) + " bytes");
    return chunk;
  }

  // Reads the payload into `destination` and validates it; returns the record count.
  std::uint32_t read_payload(const ChunkHeader& chunk, StarEvent* destination, ChunkInfo& info) {
    const std::string field = chunk_field(chunk.sequence);
    const std::size_t size = std::size_t(chunk.count) * kEventRecordBytes;
    const std::size_t got = size == 0 ? 0 : read_bytes(destination, size);
    if (got < size)
      throw_input_error(name, field,
                        "truncated: payload is " + std::to_string(got) + " of " +
                            std::to_string(size) + " bytes");
    if (!defer_checks || chunk.count == 0)
      check_payload({destination, chunk.count}, chunk.sequence, chunk.checksum);
    info.sequence = chunk.sequence;
    info.count = chunk.count;
    info.first_triangle = chunk.first_triangle;
    info.last_triangle = chunk.last_triangle;
    ++next_sequence;
    if (chunk.count == 0) finish_stream();
    return chunk.count;
  }

  void check_payload(std::span<const StarEvent> events, std::uint64_t sequence,
                     std::uint64_t checksum) const {
    const std::string field = chunk_field(sequence);
    if (payload_checksum(events) != checksum)
      throw_input_error(name, field, "checksum mismatch (payload corrupt)");
    const std::size_t invalid = first_invalid_record(events);
    if (invalid < events.size())
      throw_input_error(name, field + " record " + std::to_string(invalid),
                        event_record_problem(events[invalid]).value_or("invalid record"));
  }

  void finish_stream() {
    unsigned char extra = 0;
    if (read_bytes(&extra, 1) == 1)
      throw_input_error(name, "end chunk", "trailing data after the end chunk");
    if (tree) tree_hex = tree->finish_hex();
    if (opened) {
      const FileIdentity now = file_identity(descriptor, name);
      if (!(now == *opened) || now.size != bytes) {
        tree_hex.clear();
        throw_run_failure(name, "changed while being read (" + std::to_string(now.size) +
                                    " bytes now, " + std::to_string(bytes) +
                                    " read as the stream): its hash would not be the hash of "
                                    "the events used");
      }
    }
    ended = true;
  }

  // The next chunk's events into `events`, its checks done now or left to check_chunk
  // (`defer`); false after the end chunk. `checksum`: the chunk header's.
  bool next_chunk(std::vector<StarEvent>& events, ChunkInfo& info, bool defer,
                  std::uint64_t& checksum) {
    if (ended) {
      events.clear();
      return false;
    }
    const ChunkHeader chunk = read_chunk_header();
    events.resize(chunk.count);
    defer_checks = defer;
    const std::uint32_t count = read_payload(chunk, events.data(), info);
    defer_checks = false;
    checksum = chunk.checksum;
    return count > 0;
  }
};

EventReader::EventReader(const std::string& path, StreamHash hash)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  if (hash == StreamHash::tree_sha256) s.tree = std::make_unique<BlockTreeSha256>();
  if (path == "-") {
    s.name = "stdin";
    s.descriptor = STDIN_FILENO;
    enlarge_pipe(s.descriptor);
  } else {
    s.name = path;
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
      throw_input_error(path, "", "is a folder, not an event stream");
    s.descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (s.descriptor < 0)
      throw_input_error(path, "", std::string("cannot be opened: ") + std::strerror(errno));
    s.owns_descriptor = true;
    ::posix_fadvise(s.descriptor, 0, 0, POSIX_FADV_SEQUENTIAL);
    const FileIdentity identity = file_identity(s.descriptor, s.name);
    if (std::filesystem::is_regular_file(path, error)) s.opened = identity;
  }
  s.read_file_header();
}

EventReader::~EventReader() = default;

const StreamHeader& EventReader::header() const {
  return state_->header;
}

bool EventReader::next_chunk(std::vector<StarEvent>& events, ChunkInfo& info) {
  std::uint64_t checksum = 0;
  return state_->next_chunk(events, info, false, checksum);
}

bool EventReader::next_chunk_unchecked(std::vector<StarEvent>& events, ChunkInfo& info,
                                       std::uint64_t& checksum) {
  return state_->next_chunk(events, info, true, checksum);
}

void EventReader::check_chunk(std::span<const StarEvent> events, const ChunkInfo& info,
                              std::uint64_t checksum) const {
  state_->check_payload(events, info.sequence, checksum);
}

std::uint32_t EventReader::next_chunk_into(StarEvent* destination, ChunkInfo& info) {
  State& s = *state_;
  if (s.ended) return 0;
  const ChunkHeader chunk = s.read_chunk_header();
  return s.read_payload(chunk, destination, info);
}

std::uint64_t EventReader::bytes_read() const {
  return state_->bytes;
}

std::string EventReader::tree_sha256() const {
  return state_->tree_hex;
}

double EventReader::hash_busy_seconds() const {
  return state_->tree ? state_->tree->busy_seconds() : 0.0;
}

const std::string& EventReader::path() const {
  return state_->path;
}

}  // namespace starlens
