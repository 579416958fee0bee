// EventWriter: chunks submitted by worker threads, written in submission order, hashed while
// written; a file output lives under a temporary name until finish() renames it.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>

#include "core/atomic_output.h"
#include "core/errors.h"
#include "events/event_stream.h"
#include "events/overlapped_sha256.h"
#include "events/stream_layout.h"

namespace starlens {
namespace {

// Headers and small chunks coalesce in the stdio buffer; payloads larger than it go to
// write(2) directly, without a copy.
constexpr std::size_t kWriteBufferBytes = std::size_t(64) << 10;

}  // namespace

struct EventWriter::State {
  std::string path;  // as given; for messages "stdout" when "-"
  StreamHeader header;
  std::optional<AtomicOutput> output;  // absent for stdout
  std::FILE* file = nullptr;
  std::vector<char> buffer;
  std::mutex mutex;
  OverlappedSha256 sha;
  std::string sha_hex;
  std::uint64_t chunks = 0;
  std::uint64_t events = 0;
  std::uint64_t bytes = 0;
  bool finished = false;
  bool failed = false;

  // Closing here (not in ~EventWriter) also covers a constructor that threw after fopen.
  ~State() {
    if (file == nullptr) return;
    if (output) {
      std::fclose(file);  // the AtomicOutput then removes the unfinished temporary file
    } else {
      std::fflush(file);  // stdout: the reader will report the missing end chunk
    }
  }

  void write_bytes(const void* data, std::size_t size) {
    if (size == 0) return;
    errno = 0;
    if (std::fwrite(data, 1, size, file) != size) fail("write failed");
    sha.update(data, size);
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
  State& s = *state_;
  s.path = path == "-" ? "stdout" : path;
  s.header = header;
  validate_stream_header(header, s.path);
  if (path == "-") {
    if (isatty(STDOUT_FILENO))
      throw_input_error("stdout", "", "refusing to write a binary event stream to a terminal");
    s.file = stdout;
  } else {
    s.output.emplace(path, force);
    s.file = std::fopen(s.output->temp_path().c_str(), "wb");
    if (s.file == nullptr) s.fail("cannot create the temporary output");
    s.buffer.resize(kWriteBufferBytes);
    std::setvbuf(s.file, s.buffer.data(), _IOFBF, s.buffer.size());
  }
  const FileHeaderBytes bytes = encode_file_header(header);
  s.write_bytes(bytes.data(), bytes.size());
}

EventWriter::~EventWriter() = default;

void EventWriter::write_chunk(std::span<const StarEvent> events, std::uint32_t first_triangle,
                              std::uint32_t last_triangle) {
  // A chunk of count 0 would read as the end of the stream: empty submissions write nothing.
  if (events.empty()) return;
  // Validation and checksum run in the calling worker; only the write itself is serialised.
  if (events.size() > state_->header.chunk_capacity)
    throw_run_failure(state_->path, "chunk of " + std::to_string(events.size()) +
                                        " events exceeds the chunk capacity " +
                                        std::to_string(state_->header.chunk_capacity));
  const std::size_t invalid = first_invalid_record(events);
  ChunkHeader chunk;
  chunk.count = static_cast<std::uint32_t>(events.size());
  chunk.first_triangle = first_triangle;
  chunk.last_triangle = last_triangle;
  chunk.checksum = payload_checksum(events);

  State& s = *state_;
  std::lock_guard lock(s.mutex);
  s.require_open("write_chunk");
  if (invalid < events.size())
    throw_run_failure(s.path, "chunk " + std::to_string(s.chunks) + " record " +
                                  std::to_string(invalid) +
                                  ": refusing to write an invalid event: " +
                                  event_record_problem(events[invalid]).value_or("invalid"));
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
  errno = 0;
  if (std::fflush(s.file) != 0) s.fail("flush failed");
  if (s.output) {
    std::FILE* file = s.file;
    s.file = nullptr;
    errno = 0;
    if (std::fclose(file) != 0) s.fail("close failed");
    s.output->commit();
  }
  s.sha_hex = s.sha.finish_hex();
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

std::string EventWriter::sha256() const {
  std::lock_guard lock(state_->mutex);
  return state_->sha_hex;
}

}  // namespace starlens
