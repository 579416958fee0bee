// The prefetching reader against the plain one: the same chunks, bytes and hash in the same
// order whatever its depth; a bad chunk thrown only after the good ones before it; and no
// hang when the consumer stops early while the reader thread waits for a free buffer.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>

#include "core/errors.h"
#include "events/event_stream.h"
#include "events/prefetching_reader.h"
#include "stream_fixtures.h"

using namespace starlens;
using namespace starlens::test;

namespace {

// 25 chunks of varying size (some empty-capacity edge sizes), then the end chunk.
RawStream long_stream() {
  RawStream stream;
  stream.file_header(sample_header());
  for (std::uint64_t i = 0; i < 25; ++i)
    stream.chunk(i, random_events(i % 5 == 0 ? 100 : 1 + 7 * i % 97, 100 + i), std::uint32_t(i),
                 std::uint32_t(2 * i));
  stream.end_chunk(25);
  return stream;
}

bool same_events(std::span<const StarEvent> a, const std::vector<StarEvent>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(StarEvent)) == 0);
}

}  // namespace

TEST_CASE("the automatic depth holds 512 MiB of full chunks, from 8 to 4096 of them") {
  CHECK(automatic_prefetch_depth(16384) == 585);  // 2^29 / (16384 x 56) = 585.1
  CHECK(automatic_prefetch_depth(1) == 4096);     // 9.6 million would fit
  CHECK(automatic_prefetch_depth(0) == 4096);
  CHECK(automatic_prefetch_depth(1u << 24) == 8);  // 940 MB chunks: 0.57 fit
  CHECK(automatic_prefetch_depth(1198372) == 8);   // 67.1 MB: 8.0 fit
  CHECK(automatic_prefetch_depth(1198371) == 8);
  CHECK(automatic_prefetch_depth(1000000) == 9);  // 56 MB: 9.6 fit
}

TEST_CASE("prefetched chunks, byte counts and hash equal the plain reader's, any depth") {
  ScratchFolder folder("prefetch");
  const fs::path path = folder / "events.sle";
  write_bytes(path, long_stream().bytes());
  for (const std::size_t depth : {0, 1, 2, 3, 8, 64}) {  // 0: automatic
    CAPTURE(depth);
    EventReader plain(path.string());
    PrefetchingReader ahead(path.string(), StreamHash::tree_sha256, depth);
    CHECK(std::memcmp(&ahead.header(), &plain.header(), sizeof(StreamHeader)) == 0);
    std::vector<StarEvent> expected;
    ChunkInfo expected_info, info;
    std::span<const StarEvent> events;
    int chunks = 0;
    for (;;) {
      const bool more = plain.next_chunk(expected, expected_info);
      REQUIRE(ahead.next(events, info) == more);
      CHECK(ahead.bytes_read() == plain.bytes_read());
      if (!more) break;
      CHECK(same_events(events, expected));
      CHECK(info.sequence == expected_info.sequence);
      CHECK(info.count == expected_info.count);
      CHECK(info.first_triangle == expected_info.first_triangle);
      CHECK(info.last_triangle == expected_info.last_triangle);
      ++chunks;
    }
    CHECK(chunks == 25);
    CHECK(ahead.tree_sha256() == plain.tree_sha256());
    CHECK(ahead.tree_sha256().size() == 64);
    CHECK_FALSE(ahead.next(events, info));  // stays at the end
  }
}

TEST_CASE("a corrupt chunk is thrown after the chunks before it, with the plain reader's message") {
  ScratchFolder folder("prefetch-corrupt");
  const fs::path path = folder / "events.sle";
  Bytes bytes = long_stream().bytes();
  // The payload of chunk 3: file header, then chunks 0-2 (100, 8 and 15 records).
  const std::size_t chunk3_payload = 256 + 3 * 32 + (100 + 8 + 15) * 56 + 32;
  bytes[chunk3_payload + 5] ^= 0x10;
  write_bytes(path, bytes);
  PrefetchingReader ahead(path.string(), StreamHash::tree_sha256, 8);
  std::span<const StarEvent> events;
  ChunkInfo info;
  for (std::uint64_t chunk = 0; chunk < 3; ++chunk) {
    REQUIRE(ahead.next(events, info));
    CHECK(info.sequence == chunk);
  }
  try {
    ahead.next(events, info);
    FAIL("no error for the corrupt chunk");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()) ==
          path.string() + ": chunk 3: checksum mismatch (payload corrupt)");
  }
  CHECK_FALSE(ahead.next(events, info));
}

TEST_CASE("a header error is thrown by the constructor") {
  ScratchFolder folder("prefetch-header");
  const fs::path path = folder / "events.sle";
  Bytes bytes = long_stream().bytes();
  bytes[0] = 'X';
  write_bytes(path, bytes);
  CHECK_THROWS_AS(PrefetchingReader(path.string()), InputError);
}

TEST_CASE("stopping early while the reader waits for a free buffer returns promptly") {
  ScratchFolder folder("prefetch-early");
  const fs::path path = folder / "events.sle";
  write_bytes(path, long_stream().bytes());
  for (int taken = 0; taken < 4; ++taken) {
    PrefetchingReader ahead(path.string(), StreamHash::tree_sha256, 2);
    std::span<const StarEvent> events;
    ChunkInfo info;
    for (int k = 0; k < taken; ++k) REQUIRE(ahead.next(events, info));
  }  // the destructor must not wait for the rest of the stream
}

TEST_CASE("a file changed while it was read fails at the end, with no hash handed out") {
  ScratchFolder folder("prefetch-changed");
  const fs::path path = folder / "events.sle";
  write_bytes(path, long_stream().bytes());
  PrefetchingReader ahead(path.string());
  // Same bytes, new modification time: the stream itself still reads cleanly.
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(5));
  std::span<const StarEvent> events;
  ChunkInfo info;
  int chunks = 0;
  try {
    while (ahead.next(events, info)) ++chunks;
    FAIL("no error for the changed file");
  } catch (const RunFailure& error) {
    CHECK(std::string(error.what()).find(path.string() + ": changed while being read") == 0);
  }
  CHECK(chunks == 25);
  CHECK(ahead.tree_sha256().empty());
}
