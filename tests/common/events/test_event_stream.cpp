// Round trips of the event stream, checked against the independent encoder of
// stream_fixtures.h and against hashes computed a second way.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "core/errors.h"
#include "events/event_stream.h"
#include "manifest/block_tree_sha256.h"
#include "stream_fixtures.h"

using namespace starlens;
using namespace starlens::test;

namespace {

struct WrittenChunk {
  std::vector<StarEvent> events;
  std::uint32_t first_triangle;
  std::uint32_t last_triangle;
};

std::vector<WrittenChunk> sample_chunks() {
  return {{random_events(100, 1), 0, 41},
          {random_events(37, 2), 42, 42},
          {random_events(1, 3), 43, 99},
          {random_events(100, 4), 100, 4000000000u}};
}

void write_stream(const fs::path& path, const StreamHeader& header,
                  const std::vector<WrittenChunk>& chunks) {
  EventWriter writer(path.string(), header, false);
  for (const auto& chunk : chunks)
    writer.write_chunk(chunk.events, chunk.first_triangle, chunk.last_triangle);
  writer.finish();
}

bool same_bits(const StarEvent& a, const StarEvent& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("the writer's bytes equal the documented layout, encoded independently") {
  ScratchFolder folder("layout");
  const StreamHeader header = sample_header();
  const auto chunks = sample_chunks();
  write_stream(folder / "a.sle", header, chunks);

  RawStream expected;
  expected.file_header(header);
  for (std::size_t i = 0; i < chunks.size(); ++i)
    expected.chunk(i, chunks[i].events, chunks[i].first_triangle, chunks[i].last_triangle);
  expected.end_chunk(chunks.size());

  const Bytes written = read_bytes(folder / "a.sle");
  REQUIRE(written.size() == expected.bytes().size());
  CHECK(written == expected.bytes());
  CHECK(written.size() == 256 + 5 * 32 + (100 + 37 + 1 + 100) * 56);
}

TEST_CASE("identical inputs give identical bytes") {
  ScratchFolder folder("twice");
  write_stream(folder / "a.sle", sample_header(), sample_chunks());
  write_stream(folder / "b.sle", sample_header(), sample_chunks());
  CHECK(read_bytes(folder / "a.sle") == read_bytes(folder / "b.sle"));
}

TEST_CASE("header, chunk infos and every record round trip") {
  ScratchFolder folder("roundtrip");
  const StreamHeader header = sample_header();
  const auto chunks = sample_chunks();
  EventWriter writer((folder / "a.sle").string(), header, false);
  for (const auto& chunk : chunks)
    writer.write_chunk(chunk.events, chunk.first_triangle, chunk.last_triangle);
  writer.finish();

  EventReader reader((folder / "a.sle").string());
  const StreamHeader& read = reader.header();
  CHECK(read.version == 1);
  CHECK(read.chunk_capacity == header.chunk_capacity);
  CHECK(read.width == header.width);
  CHECK(read.height == header.height);
  CHECK(read.flags == header.flags);
  CHECK(read.psf.fwhm == header.psf.fwhm);
  CHECK(read.psf.beta == header.psf.beta);
  CHECK(read.psf.cache_radius == header.psf.cache_radius);
  CHECK(read.psf.phases == header.psf.phases);
  CHECK(read.psf.min_y == header.psf.min_y);
  CHECK(read.psf.relative_tail == header.psf.relative_tail);
  CHECK(read.psf.max_radius == header.psf.max_radius);

  std::vector<StarEvent> events;
  ChunkInfo info;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    REQUIRE(reader.next_chunk(events, info));
    CHECK(info.sequence == i);
    CHECK(info.count == chunks[i].events.size());
    CHECK(info.first_triangle == chunks[i].first_triangle);
    CHECK(info.last_triangle == chunks[i].last_triangle);
    REQUIRE(events.size() == chunks[i].events.size());
    CHECK(std::equal(events.begin(), events.end(), chunks[i].events.begin(), same_bits));
  }
  CHECK_FALSE(reader.next_chunk(events, info));
  CHECK(events.empty());
  CHECK_FALSE(reader.next_chunk(events, info));  // stays at the end

  const auto size = fs::file_size(folder / "a.sle");
  CHECK(writer.chunks_written() == chunks.size());
  CHECK(writer.events_written() == 238);
  CHECK(writer.bytes_written() == size);
  CHECK(reader.bytes_read() == size);
  // The tree hash kept while streaming equals the hash of the file read whole afterwards.
  CHECK(writer.tree_sha256() == block_tree_sha256_file(folder / "a.sle"));
  CHECK(reader.tree_sha256() == writer.tree_sha256());
  CHECK(reader.path() == (folder / "a.sle").string());
}

TEST_CASE("next_chunk_into fills caller memory and returns 0 at the end chunk") {
  ScratchFolder folder("into");
  const auto chunks = sample_chunks();
  write_stream(folder / "a.sle", sample_header(), chunks);
  EventReader reader((folder / "a.sle").string());
  std::vector<StarEvent> buffer(reader.header().chunk_capacity);
  ChunkInfo info;
  for (const auto& chunk : chunks) {
    const std::uint32_t count = reader.next_chunk_into(buffer.data(), info);
    REQUIRE(count == chunk.events.size());
    CHECK(std::equal(chunk.events.begin(), chunk.events.end(), buffer.begin(), same_bits));
  }
  CHECK(reader.next_chunk_into(buffer.data(), info) == 0);
  CHECK(reader.tree_sha256() == block_tree_sha256_file(folder / "a.sle"));
}

TEST_CASE("a reader told not to hash reads the same events and reports no hash") {
  ScratchFolder folder("unhashed");
  const auto chunks = sample_chunks();
  write_stream(folder / "a.sle", sample_header(), chunks);
  EventReader reader((folder / "a.sle").string(), StreamHash::none);
  std::vector<StarEvent> events;
  ChunkInfo info;
  std::size_t k = 0;
  while (reader.next_chunk(events, info)) {
    REQUIRE(k < chunks.size());
    CHECK(std::equal(events.begin(), events.end(), chunks[k++].events.begin(), same_bits));
  }
  CHECK(k == chunks.size());
  CHECK(reader.tree_sha256().empty());
  CHECK(reader.bytes_read() == fs::file_size(folder / "a.sle"));
}

TEST_CASE("a stream without data chunks holds its header and the end chunk") {
  ScratchFolder folder("empty");
  write_stream(folder / "a.sle", sample_header(), {});
  RawStream expected;
  expected.file_header(sample_header()).end_chunk(0);
  CHECK(read_bytes(folder / "a.sle") == expected.bytes());
  EventReader reader((folder / "a.sle").string());
  std::vector<StarEvent> events;
  ChunkInfo info;
  CHECK_FALSE(reader.next_chunk(events, info));
}

TEST_CASE("an empty submission writes no chunk (count 0 is the end marker)") {
  ScratchFolder folder("skip");
  {
    EventWriter writer((folder / "a.sle").string(), sample_header(), false);
    writer.write_chunk({}, 0, 0);
    CHECK(writer.chunks_written() == 0);
    writer.finish();
  }
  RawStream expected;
  expected.file_header(sample_header()).end_chunk(0);
  CHECK(read_bytes(folder / "a.sle") == expected.bytes());
}

TEST_CASE("concurrent submissions keep every chunk whole and sequences consecutive") {
  ScratchFolder folder("threads");
  constexpr int kThreads = 4;
  constexpr int kChunksPerThread = 50;
  StreamHeader header = sample_header();
  {
    EventWriter writer((folder / "a.sle").string(), header, false);
    std::vector<std::thread> workers;
    for (int t = 0; t < kThreads; ++t)
      workers.emplace_back([&writer, t] {
        for (int c = 0; c < kChunksPerThread; ++c) {
          // Every record of a chunk carries its submitter and chunk number.
          auto events = random_events(1 + (t * 7 + c) % 100, std::uint64_t(t * 1000 + c));
          for (auto& e : events) e.flux = t * 1000 + c;
          writer.write_chunk(events, std::uint32_t(t), std::uint32_t(c));
        }
      });
    for (auto& worker : workers) worker.join();
    writer.finish();
  }
  EventReader reader((folder / "a.sle").string());
  std::vector<StarEvent> events;
  ChunkInfo info;
  std::vector<int> seen(kThreads * kChunksPerThread, 0);
  std::uint64_t expected_sequence = 0;
  while (reader.next_chunk(events, info)) {
    CHECK(info.sequence == expected_sequence++);
    const int t = int(info.first_triangle);
    const int c = int(info.last_triangle);
    CHECK(info.count == std::uint32_t(1 + (t * 7 + c) % 100));
    const auto original = random_events(info.count, std::uint64_t(t * 1000 + c));
    for (std::size_t i = 0; i < events.size(); ++i) {
      CHECK(events[i].flux == t * 1000 + c);
      CHECK(events[i].x == original[i].x);
    }
    ++seen[t * kChunksPerThread + c];
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

TEST_CASE("a writer destroyed without finish leaves no file behind") {
  ScratchFolder folder("unfinished");
  {
    EventWriter writer((folder / "a.sle").string(), sample_header(), false);
    writer.write_chunk(random_events(50, 9), 0, 0);
  }
  CHECK_FALSE(fs::exists(folder / "a.sle"));
  CHECK(folder.file_count() == 0);  // nor its temporary file
}

TEST_CASE("an existing output is replaced only with force") {
  ScratchFolder folder("force");
  write_bytes(folder / "a.sle", Bytes{'o', 'l', 'd'});
  CHECK_THROWS_AS(EventWriter((folder / "a.sle").string(), sample_header(), false), InputError);
  CHECK(read_bytes(folder / "a.sle") == Bytes{'o', 'l', 'd'});
  write_stream(folder / "b.sle", sample_header(), sample_chunks());
  {
    EventWriter writer((folder / "a.sle").string(), sample_header(), true);
    for (const auto& chunk : sample_chunks())
      writer.write_chunk(chunk.events, chunk.first_triangle, chunk.last_triangle);
    writer.finish();
  }
  CHECK(read_bytes(folder / "a.sle") == read_bytes(folder / "b.sle"));
}

TEST_CASE("the writer refuses what the reader would reject") {
  ScratchFolder folder("refuse");
  EventWriter writer((folder / "a.sle").string(), sample_header(), false);
  auto events = random_events(10, 5);
  events[3].flux = -1;
  CHECK_THROWS_WITH_AS(writer.write_chunk(events, 0, 0),
                       doctest::Contains("chunk 0 record 3: refusing to write an invalid event: "
                                         "flux is negative (-1)"),
                       RunFailure);
  CHECK_THROWS_WITH_AS(writer.write_chunk(random_events(101, 5), 0, 0),
                       doctest::Contains("101 events exceeds the chunk capacity 100"), RunFailure);
  StreamHeader bad = sample_header();
  bad.psf.beta = 1.0;
  CHECK_THROWS_WITH_AS(EventWriter((folder / "b.sle").string(), bad, false),
                       doctest::Contains("header: beta: must be > 1 (got 1)"), InputError);
  CHECK_FALSE(fs::exists(folder / "b.sle"));
}

TEST_CASE("sealed chunks: the same bytes as write_chunk, a seal of other events refused") {
  ScratchFolder folder("sealed");
  write_stream(folder / "plain.sle", sample_header(), sample_chunks());
  {
    EventWriter writer((folder / "sealed.sle").string(), sample_header(), false);
    for (const auto& chunk : sample_chunks()) {
      const ChunkSeal seal = seal_chunk(chunk.events);
      CHECK(seal.count == chunk.events.size());
      CHECK(seal.first_invalid == chunk.events.size());
      writer.write_sealed_chunk(chunk.events, seal, chunk.first_triangle, chunk.last_triangle);
    }
    writer.finish();
  }
  CHECK(read_bytes(folder / "sealed.sle") == read_bytes(folder / "plain.sle"));

  EventWriter writer((folder / "bad.sle").string(), sample_header(), false);
  auto events = random_events(10, 5);
  const ChunkSeal short_seal = seal_chunk(std::span(events).first(9));
  CHECK_THROWS_WITH_AS(writer.write_sealed_chunk(events, short_seal, 0, 0),
                       doctest::Contains("chunk of 10 events sealed as 9"), RunFailure);
  events[7].support = 0;
  const ChunkSeal invalid = seal_chunk(events);
  CHECK(invalid.first_invalid == 7);
  CHECK_THROWS_WITH_AS(writer.write_sealed_chunk(events, invalid, 0, 0),
                       doctest::Contains("chunk 0 record 7: refusing to write an invalid event: "
                                         "support must be > 0"),
                       RunFailure);
}

TEST_CASE("\"-\" writes to standard output and reads from standard input") {
  ScratchFolder folder("stdio");
  const auto chunks = sample_chunks();
  // Standard output redirected to a file for the writer's lifetime.
  std::fflush(stdout);
  const int saved_stdout = dup(STDOUT_FILENO);
  const int out = open((folder / "piped.sle").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(out >= 0);
  dup2(out, STDOUT_FILENO);
  close(out);
  std::string sha;
  {
    EventWriter writer("-", sample_header(), false);
    for (const auto& chunk : chunks)
      writer.write_chunk(chunk.events, chunk.first_triangle, chunk.last_triangle);
    writer.finish();
    sha = writer.tree_sha256();
  }
  std::fflush(stdout);
  dup2(saved_stdout, STDOUT_FILENO);
  close(saved_stdout);

  write_stream(folder / "file.sle", sample_header(), chunks);
  CHECK(read_bytes(folder / "piped.sle") == read_bytes(folder / "file.sle"));
  CHECK(sha == block_tree_sha256_file(folder / "file.sle"));

  // Standard input from the piped file.
  const int saved_stdin = dup(STDIN_FILENO);
  const int in = open((folder / "piped.sle").c_str(), O_RDONLY);
  REQUIRE(in >= 0);
  dup2(in, STDIN_FILENO);
  close(in);
  clearerr(stdin);
  std::size_t total = 0;
  std::string read_sha;
  {
    EventReader reader("-");
    std::vector<StarEvent> events;
    ChunkInfo info;
    while (reader.next_chunk(events, info)) total += events.size();
    read_sha = reader.tree_sha256();
    CHECK(reader.path() == "-");
  }
  dup2(saved_stdin, STDIN_FILENO);
  close(saved_stdin);
  clearerr(stdin);
  CHECK(total == 238);
  CHECK(read_sha == sha);
}

TEST_CASE("a full disk is a run failure naming the output and the system's reason") {
  // Standard output sent to /dev/full, where every write fails with ENOSPC.
  std::fflush(stdout);
  const int saved_stdout = dup(STDOUT_FILENO);
  const int full = open("/dev/full", O_WRONLY);
  REQUIRE(full >= 0);
  dup2(full, STDOUT_FILENO);
  close(full);
  std::string message = "(no RunFailure)";
  try {
    EventWriter writer("-", sample_header(), false);
    for (int k = 0; k < 40; ++k) writer.write_chunk(random_events(100, k), 0, 0);
    writer.finish();
  } catch (const RunFailure& error) {
    message = error.what();
  }
  clearerr(stdout);
  dup2(saved_stdout, STDOUT_FILENO);
  close(saved_stdout);
  CHECK(message.rfind("stdout: write failed: ", 0) == 0);
  CHECK(message.find("No space left on device") != std::string::npos);
}
