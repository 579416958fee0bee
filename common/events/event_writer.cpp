// EventWriter: chunks submitted by worker threads, serialised in submission order into 4 MiB
// blocks that are written (one write(2) each, on the stream's sink thread) and tree-hashed (on
// the hash pool) while the next block fills; a file output lives under a temporary name until
// finish() renames it. Into a pipe the blocks' pages are spliced (vmsplice), not copied: see
// kSpliceMarginBytes.
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>

#include "core/errors.h"
#include "core/output_set.h"
#include "events/event_stream.h"
#include "events/pipe_capacity.h"
#include "events/stream_layout.h"
#include "manifest/block_tree_sha256.h"

namespace starlens {
namespace {

constexpr std::uint64_t kWritebackBytes = std::uint64_t(256) << 20;

// Writes all of a block; RunFailure naming the output with the system's reason otherwise.
void write_all(int descriptor, const unsigned char* data, std::size_t size,
               const std::string& name) {
  while (size > 0) {
    const ssize_t written = ::write(descriptor, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0)
      throw_run_failure(name, std::string("write failed: ") +
                                  (written < 0 ? std::strerror(errno) : "nothing written"));
    data += written;
    size -= std::size_t(written);
  }
}

// A block spliced into a pipe lends it its pages: the writer may change them only after the
// reader has taken them out. A pipe holds at most its capacity, so once that much more has
// been spliced after a block, a reader that copies (read(2), as every reader of this project
// does) has taken all of it. A reader that splices the pages on (into another pipe or a
// socket) holds them longer; the blocks stay untouched for this many bytes more, and a reader
// that holds them longer still would find its chunks' checksums failing, never a wrong event.
constexpr std::uint64_t kSpliceMarginBytes = std::uint64_t(64) << 20;

// Splices all of a block into a pipe; RunFailure naming the output as write_all. Where the
// system refuses vmsplice itself (EINVAL, ENOSYS: a sandbox without it) the rest is written.
void splice_all(int descriptor, const unsigned char* data, std::size_t size,
                const std::string& name) {
  while (size > 0) {
    iovec piece{const_cast<unsigned char*>(data), size};
    const ssize_t spliced = ::vmsplice(descriptor, &piece, 1, 0);
    if (spliced < 0 && errno == EINTR) continue;
    if (spliced < 0 && (errno == EINVAL || errno == ENOSYS))
      return write_all(descriptor, data, size, name);
    if (spliced <= 0)
      throw_run_failure(name, std::string("write failed: ") +
                                  (spliced < 0 ? std::strerror(errno) : "nothing written"));
    data += spliced;
    size -= std::size_t(spliced);
  }
}

}  // namespace

struct EventWriter::State {
  std::string path;  // as given; for messages "stdout" when "-"
  StreamHeader header;
  std::optional<OutputSet> own_outputs;  // the standalone constructor's
  OutputSet* outputs = nullptr;          // null for stdout
  std::filesystem::path temp;            // where a file output is written
  bool output = false;                   // a file, not stdout
  int descriptor = -1;
  std::mutex mutex;
  std::optional<BlockTreeSha256Stream> stream;  // writes and hashes
  std::string tree_hex;
  std::uint64_t writeback_from = 0;  // bytes before it were handed to the disk
  std::uint64_t chunks = 0;
  std::uint64_t events = 0;
  std::uint64_t bytes = 0;
  bool finished = false;
  bool failed = false;

  // Closing here (not in ~EventWriter) also covers a constructor that threw after open.
  ~State() {
    if (!output && stream && !finished) stream->flush_to_sink();  // stdout: what was complete
    stream.reset();                                      // waits for the sink thread and the hash
    if (output && descriptor >= 0) ::close(descriptor);  // the OutputSet removes the file
  }

  void start_stream() {
    if (!output && is_pipe(descriptor)) {
      const long capacity = pipe_capacity_bound(descriptor);
      const std::uint64_t keep = std::uint64_t(std::max(capacity, 0L)) + kSpliceMarginBytes;
      stream.emplace([this](const unsigned char* data, std::size_t size,
                            std::uint64_t) { splice_all(descriptor, data, size, path); },
                     0, keep);
      return;
    }
    stream.emplace([this](const unsigned char* data, std::size_t size, std::uint64_t offset) {
      write_all(descriptor, data, size, path);
      // A file's pages are handed to the disk every 256 MiB (without waiting), so that
      // finish()'s fsync finds little left to write.
      const std::uint64_t end = offset + size;
      if (output && end - writeback_from >= kWritebackBytes) {
        ::sync_file_range(descriptor, off_t(writeback_from), off_t(end - writeback_from),
                          SYNC_FILE_RANGE_WRITE);
        writeback_from = end;
      }
    });
  }

  void write_bytes(const void* data, std::size_t size) {
    try {
      stream->update(data, size);
    } catch (...) {
      failed = true;
      throw;
    }
    bytes += size;
  }

  [[noreturn]] void fail(const char* what) {
    const int error = errno;
    failed = true;
    throw_run_failure(
        path, std::string(what) + ": " + (error != 0 ? std::strerror(error) : "unknown error"));
  }

  void require_open(const char* operation) const {
    if (finished) throw_run_failure(path, std::string(operation) + " after finish()");
    if (failed) throw_run_failure(path, std::string(operation) + " after a failed write");
  }
};

EventWriter::EventWriter(const std::string& path, const StreamHeader& header, bool force)
    : state_(std::make_unique<State>()) {
  if (path != "-") state_->own_outputs.emplace(force);
  open(path, header);
}

EventWriter::EventWriter(OutputSet& outputs, const std::string& path, const StreamHeader& header)
    : state_(std::make_unique<State>()) {
  state_->outputs = &outputs;
  open(path, header);
}

void EventWriter::open(const std::string& path, const StreamHeader& header) {
  State& s = *state_;
  if (s.own_outputs) s.outputs = &*s.own_outputs;
  s.path = path == "-" ? "stdout" : path;
  s.header = header;
  validate_stream_header(header, s.path);
  if (path == "-") {
    if (isatty(STDOUT_FILENO))
      throw_input_error("stdout", "", "refusing to write a binary event stream to a terminal");
    std::fflush(stdout);  // anything already buffered there goes first
    s.descriptor = STDOUT_FILENO;
    enlarge_pipe(s.descriptor);
  } else {
    s.temp = s.outputs->add(path);
    s.output = true;
    s.descriptor = ::open(s.temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (s.descriptor < 0) s.fail("cannot create the temporary output");
  }
  s.start_stream();
  const FileHeaderBytes bytes = encode_file_header(header);
  s.write_bytes(bytes.data(), bytes.size());
}

EventWriter::~EventWriter() = default;

ChunkSeal seal_chunk(std::span<const StarEvent> events) {
  return {payload_checksum(events), first_invalid_record(events), events.size()};
}

void EventWriter::write_chunk(std::span<const StarEvent> events, std::uint32_t first_triangle,
                              std::uint32_t last_triangle) {
  write_sealed_chunk(events, seal_chunk(events), first_triangle, last_triangle);
}

void EventWriter::write_sealed_chunk(std::span<const StarEvent> events, const ChunkSeal& seal,
                                     std::uint32_t first_triangle, std::uint32_t last_triangle) {
  // A chunk of count 0 would read as the end of the stream: empty submissions write nothing.
  if (events.empty()) return;
  if (seal.count != events.size())
    throw_run_failure(state_->path, "chunk of " + std::to_string(events.size()) +
                                        " events sealed as " + std::to_string(seal.count));
  if (events.size() > state_->header.chunk_capacity)
    throw_run_failure(state_->path, "chunk of " + std::to_string(events.size()) +
                                        " events exceeds the chunk capacity " +
                                        std::to_string(state_->header.chunk_capacity));
  ChunkHeader chunk;
  chunk.count = static_cast<std::uint32_t>(events.size());
  chunk.first_triangle = first_triangle;
  chunk.last_triangle = last_triangle;
  chunk.checksum = seal.checksum;

  // Only the copy into the blocks is serialised.
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  s.require_open("write_chunk");
  if (seal.first_invalid < events.size())
    throw_run_failure(
        s.path, "chunk " + std::to_string(s.chunks) + " record " +
                    std::to_string(seal.first_invalid) + ": refusing to write an invalid event: " +
                    event_record_problem(events[seal.first_invalid]).value_or("invalid"));
  chunk.sequence = s.chunks;
  const ChunkHeaderBytes header_bytes = encode_chunk_header(chunk);
  s.write_bytes(header_bytes.data(), header_bytes.size());
  s.write_bytes(events.data(), events.size_bytes());
  ++s.chunks;
  s.events += events.size();
}

void EventWriter::finish() {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  s.require_open("finish");
  ChunkHeader end;
  end.sequence = s.chunks;
  end.checksum = payload_checksum({});
  const ChunkHeaderBytes end_bytes = encode_chunk_header(end);
  s.write_bytes(end_bytes.data(), end_bytes.size());
  try {
    s.tree_hex = s.stream->finish_hex();  // every block written
  } catch (...) {
    s.failed = true;
    throw;
  }
  if (s.output) {
    const int descriptor = s.descriptor;
    s.descriptor = -1;
    errno = 0;
    if (::close(descriptor) != 0) s.fail("close failed");
    if (s.own_outputs) s.own_outputs->commit();
  }
  s.finished = true;
}

std::uint64_t EventWriter::chunks_written() const {
  std::lock_guard lock(state_->mutex);
  return state_->chunks;
}

std::uint64_t EventWriter::events_written() const {
  std::lock_guard lock(state_->mutex);
  return state_->events;
}

std::uint64_t EventWriter::bytes_written() const {
  std::lock_guard lock(state_->mutex);
  return state_->bytes;
}

std::string EventWriter::tree_sha256() const {
  std::lock_guard lock(state_->mutex);
  return state_->tree_hex;
}

}  // namespace starlens
