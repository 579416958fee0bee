#pragma once
// The chunked event stream events.sle (docs/design.md section 5; byte layout in
// docs/formats/events.md): a 256-byte file header, chunks of a 32-byte header plus `count`
// StarEvent records with an xxh3-64 checksum of the payload, and an end chunk of count 0. "-" is
// stdin/stdout.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/output_set.h"
#include "events/star_event.h"

namespace starlens {

constexpr std::uint32_t kEventStreamVersion = 1;
constexpr std::uint32_t kStreamFlagScatterControl = 1u << 0;  // produce scatter's control stream

struct StreamHeader {
  std::uint32_t version = kEventStreamVersion;
  std::uint32_t chunk_capacity = 16384;  // most events in one chunk
  std::uint32_t width = 0;               // frame size, px
  std::uint32_t height = 0;
  std::uint32_t flags = 0;
  PsfModel psf;
};

struct ChunkInfo {
  std::uint64_t sequence = 0;  // 0, 1, 2, ... in stream order
  std::uint32_t count = 0;
  std::uint32_t first_triangle = 0;  // triangle index range that produced the chunk
  std::uint32_t last_triangle = 0;
};

// A chunk's checksum and record checks, taken by the thread that made it: writing a sealed
// chunk then only copies it (a writer fed in order by one thread at a time would otherwise
// check every record of the stream on that one thread).
struct ChunkSeal {
  std::uint64_t checksum = 0;     // payload_checksum of the events
  std::size_t first_invalid = 0;  // first_invalid_record: == count when all are valid
  std::size_t count = 0;          // the events sealed
};
ChunkSeal seal_chunk(std::span<const StarEvent> events);

// Writes to a temporary file renamed on finish() (or to stdout for "-"). Thread-safe:
// workers submit whole chunks; sequence numbers follow submission order.
class EventWriter {
 public:
  EventWriter(const std::string& path, const StreamHeader& header, bool force);
  // A file output of `outputs` (added to it if it is not yet): finish() completes the
  // temporary, the set's commit makes it visible with the manifest. "-" is standard output.
  EventWriter(OutputSet& outputs, const std::string& path, const StreamHeader& header);
  ~EventWriter();  // without finish(): removes the temporary file, final name untouched
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  void write_chunk(std::span<const StarEvent> events, std::uint32_t first_triangle,
                   std::uint32_t last_triangle);
  // The same with the checks already taken: `seal` is seal_chunk(events).
  void write_sealed_chunk(std::span<const StarEvent> events, const ChunkSeal& seal,
                          std::uint32_t first_triangle, std::uint32_t last_triangle);
  // Writes the end chunk, flushes, and moves the file to its final name (with an OutputSet:
  // closes it, for the set's commit).
  void finish();

  std::uint64_t chunks_written() const;
  std::uint64_t events_written() const;
  std::uint64_t bytes_written() const;
  // The tree hash (block_tree_sha256.h) of all bytes written; valid after finish().
  std::string tree_sha256() const;

 private:
  void open(const std::string& path, const StreamHeader& header);
  struct State;
  std::unique_ptr<State> state_;
};

// Whether a reader keeps the tree hash of the bytes it reads (the default: manifests record it
// without re-reading the file). Timed replays of a stream already hashed may skip it.
enum class StreamHash { tree_sha256, none };

// Reads and validates: magic, version, record size, header fields, chunk magic, sequence,
// count <= capacity, checksum, every record (finite, flux >= 0, colour >= 0, support > 0),
// and the end chunk. Any violation throws InputError naming the file, the chunk and field. A
// regular file that changed while it was read (size, modification time, inode) is a
// RunFailure at the end chunk.
class EventReader {
 public:
  explicit EventReader(const std::string& path, StreamHash hash = StreamHash::tree_sha256);
  ~EventReader();
  EventReader(const EventReader&) = delete;
  EventReader& operator=(const EventReader&) = delete;

  const StreamHeader& header() const;
  // Fills `events` with the next chunk; false at the end chunk (after which the stream is
  // fully validated).
  bool next_chunk(std::vector<StarEvent>& events, ChunkInfo& info);
  // The same into caller-owned memory of at least header().chunk_capacity records (pinned
  // host buffers); returns the record count, 0 at the end chunk.
  std::uint32_t next_chunk_into(StarEvent* destination, ChunkInfo& info);

  // The next chunk as read, its checksum and records not yet checked: check_chunk() must be
  // applied before its events are used (PrefetchingReader checks chunks on the hash pool, in
  // parallel). The end chunk (false) is checked here.
  bool next_chunk_unchecked(std::vector<StarEvent>& events, ChunkInfo& info,
                            std::uint64_t& checksum);
  // next_chunk()'s checks of a payload (InputError naming the file, chunk and record). Safe to
  // call from other threads, for chunks already read.
  void check_chunk(std::span<const StarEvent> events, const ChunkInfo& info,
                   std::uint64_t checksum) const;

  std::uint64_t bytes_read() const;
  // The tree hash of all bytes read; valid after the end chunk ("" if not hashed).
  std::string tree_sha256() const;
  double hash_busy_seconds() const;  // pool thread-seconds spent hashing (so far)
  const std::string& path() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace starlens
