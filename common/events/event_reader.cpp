// EventReader: validates the file header, then each chunk as it is read (magic, sequence,
// capacity, checksum, records) and the end chunk; payloads are read straight into the
// caller's memory and hashed there.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/errors.h"
#include "events/event_stream.h"
#include "events/overlapped_sha256.h"
#include "events/stream_layout.h"

namespace starlens {
namespace {

// Small stdio buffer: headers are buffered, payloads larger than it bypass it (glibc reads
// them directly into the destination), so each record is copied once.
constexpr std::size_t kReadBufferBytes = std::size_t(64) << 10;

std::string chunk_field(std::uint64_t sequence) {
  return "chunk " + std::to_string(sequence);
}

}  // namespace

struct EventReader::State {
  std::string path;  // as given
  std::string name;  // for messages
  std::FILE* file = nullptr;
  bool owns_file = false;
  std::vector<char> buffer;
  StreamHeader header;
  std::unique_ptr<OverlappedSha256> sha;  // null: not hashing
  std::string sha_hex;
  std::uint64_t bytes = 0;
  std::uint64_t next_sequence = 0;
  bool ended = false;

  ~State() {
    if (owns_file) std::fclose(file);
  }

  // Reads up to `size` bytes; fewer only at end of file. Read errors are run failures.
  std::size_t read_bytes(void* destination, std::size_t size) {
    errno = 0;
    const std::size_t got = std::fread(destination, 1, size, file);
    if (got < size && std::ferror(file))
      throw_run_failure(
          name, std::string("read failed: ") + (errno != 0 ? std::strerror(errno) : "I/O error"));
    if (sha) sha->update(destination, got);
    bytes += got;
    return got;
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
    const std::span<const StarEvent> events(destination, chunk.count);
    if (payload_checksum(events) != chunk.checksum)
      throw_input_error(name, field, "checksum mismatch (payload corrupt)");
    const std::size_t invalid = first_invalid_record(events);
    if (invalid < events.size())
      throw_input_error(name, field + " record " + std::to_string(invalid),
                        event_record_problem(events[invalid]).value_or("invalid record"));
    info.sequence = chunk.sequence;
    info.count = chunk.count;
    info.first_triangle = chunk.first_triangle;
    info.last_triangle = chunk.last_triangle;
    ++next_sequence;
    if (chunk.count == 0) finish_stream();
    return chunk.count;
  }

  void finish_stream() {
    unsigned char extra = 0;
    errno = 0;
    if (std::fread(&extra, 1, 1, file) == 1)
      throw_input_error(name, "end chunk", "trailing data after the end chunk");
    if (std::ferror(file))
      throw_run_failure(
          name, std::string("read failed: ") + (errno != 0 ? std::strerror(errno) : "I/O error"));
    if (sha) sha_hex = sha->finish_hex();
    ended = true;
  }
};

EventReader::EventReader(const std::string& path, StreamHash hash)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  if (hash == StreamHash::sha256) s.sha = std::make_unique<OverlappedSha256>();
  if (path == "-") {
    s.name = "stdin";
    s.file = stdin;
  } else {
    s.name = path;
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
      throw_input_error(path, "", "is a folder, not an event stream");
    s.file = std::fopen(path.c_str(), "rb");
    if (s.file == nullptr)
      throw_input_error(path, "", std::string("cannot be opened: ") + std::strerror(errno));
    s.owns_file = true;
    s.buffer.resize(kReadBufferBytes);
    std::setvbuf(s.file, s.buffer.data(), _IOFBF, s.buffer.size());
  }
  s.read_file_header();
}

EventReader::~EventReader() = default;

const StreamHeader& EventReader::header() const {
  return state_->header;
}

bool EventReader::next_chunk(std::vector<StarEvent>& events, ChunkInfo& info) {
  State& s = *state_;
  if (s.ended) {
    events.clear();
    return false;
  }
  const ChunkHeader chunk = s.read_chunk_header();
  events.resize(chunk.count);
  return s.read_payload(chunk, events.data(), info) > 0;
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

std::string EventReader::sha256() const {
  return state_->sha_hex;
}

const std::string& EventReader::path() const {
  return state_->path;
}

}  // namespace starlens
