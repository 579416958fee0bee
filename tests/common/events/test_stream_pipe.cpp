// Streams of several 4 MiB blocks: written to a file and to a pipe (standard output), read
// back from both (the pipe through standard input, enlarged on both ends), with the same
// bytes, the same events and the tree hash of its definition (plain SHA-256 of each block,
// computed here) at both ends.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "events/event_stream.h"
#include "events/prefetching_reader.h"
#include "manifest/sha256.h"
#include "stream_fixtures.h"

using namespace starlens;
using namespace starlens::test;

namespace {

constexpr int kChunks = 40;  // 40 chunks of 12,600-16,384 records: 31 MiB, 8 blocks

std::vector<StarEvent> chunk_events(int k) {
  return random_events(16384 - 97 * k, 1000 + k);
}

// SHA-256 of the concatenated raw SHA-256 digests of the 4 MiB blocks.
std::string defined_tree_hash(const Bytes& data) {
  constexpr std::size_t kBlock = std::size_t(4) << 20;
  Sha256Stream outer;
  for (std::size_t offset = 0; offset < data.size(); offset += kBlock) {
    const std::string hex =
        sha256_hex(data.data() + offset, std::min(kBlock, data.size() - offset));
    for (int i = 0; i < 32; ++i) {
      const unsigned char byte =
          static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
      outer.update(&byte, 1);
    }
  }
  return outer.finish_hex();
}

StreamHeader large_header() {
  StreamHeader header = sample_header();
  header.chunk_capacity = 16384;
  return header;
}

std::string write_all_chunks(EventWriter& writer) {
  for (int k = 0; k < kChunks; ++k) writer.write_chunk(chunk_events(k), k, k + 1);
  writer.finish();
  return writer.tree_sha256();
}

// Standard output and standard input joined by a pipe until restore() (or destruction): a
// writer of "-" on one thread, a reader of "-" on another.
class StdioPipe {
 public:
  StdioPipe() {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    std::fflush(stdout);
    saved_stdout_ = ::dup(STDOUT_FILENO);
    saved_stdin_ = ::dup(STDIN_FILENO);
    ::dup2(ends[1], STDOUT_FILENO);
    ::dup2(ends[0], STDIN_FILENO);
    ::close(ends[1]);
    ::close(ends[0]);
  }
  ~StdioPipe() { restore(); }
  StdioPipe(const StdioPipe&) = delete;
  StdioPipe& operator=(const StdioPipe&) = delete;
  void restore() {
    if (saved_stdout_ < 0) return;
    ::dup2(saved_stdout_, STDOUT_FILENO);
    ::dup2(saved_stdin_, STDIN_FILENO);
    ::close(saved_stdout_);
    ::close(saved_stdin_);
    saved_stdout_ = saved_stdin_ = -1;
    clearerr(stdin);
  }

 private:
  int saved_stdout_ = -1, saved_stdin_ = -1;
};

}  // namespace

TEST_CASE("a stream of several blocks through a file: bytes, events and tree hash") {
  ScratchFolder folder("blocks-file");
  const fs::path path = folder / "big.sle";
  EventWriter writer(path.string(), large_header(), false);
  const std::string written = write_all_chunks(writer);
  const Bytes bytes = read_bytes(path);
  REQUIRE(bytes.size() > 7 * (std::size_t(4) << 20));
  CHECK(written == defined_tree_hash(bytes));
  PrefetchingReader reader(path.string());
  std::span<const StarEvent> events;
  ChunkInfo info;
  int k = 0;
  while (reader.next(events, info)) {
    const auto expected = chunk_events(k);
    REQUIRE(events.size() == expected.size());
    CHECK(std::memcmp(events.data(), expected.data(), events.size_bytes()) == 0);
    ++k;
  }
  CHECK(k == kChunks);
  CHECK(reader.bytes_read() == bytes.size());
  CHECK(reader.tree_sha256() == written);
}

TEST_CASE("the same stream through a pipe: enlarged, the same bytes and hash at both ends") {
  ScratchFolder folder("blocks-pipe");
  EventWriter file_writer((folder / "big.sle").string(), large_header(), false);
  const std::string file_hash = write_all_chunks(file_writer);
  const Bytes file_bytes = read_bytes(folder / "big.sle");

  StdioPipe stdio;
  std::string piped_hash, writer_error;
  std::thread writing([&] {
    try {
      EventWriter writer("-", large_header(), false);
      piped_hash = write_all_chunks(writer);
    } catch (const std::exception& error) {
      writer_error = error.what();
    }
    ::close(STDOUT_FILENO);  // the reader sees the end of the stream
  });
  std::string read_hash;
  std::uint64_t bytes_read = 0;
  int chunks = 0;
  {
    EventReader reader("-");
    std::vector<StarEvent> events;
    ChunkInfo info;
    while (reader.next_chunk(events, info)) {
      const auto expected = chunk_events(chunks++);
      REQUIRE(events.size() == expected.size());
      CHECK(std::memcmp(events.data(), expected.data(), events.size() * sizeof(StarEvent)) == 0);
    }
    read_hash = reader.tree_sha256();
    bytes_read = reader.bytes_read();
  }
  const long capacity = ::fcntl(STDIN_FILENO, F_GETPIPE_SZ);
  writing.join();
  stdio.restore();
  CHECK(writer_error.empty());
  CHECK(chunks == kChunks);
  CHECK(bytes_read == file_bytes.size());
  CHECK(piped_hash == file_hash);
  CHECK(read_hash == file_hash);
  long limit = 0;
  std::ifstream("/proc/sys/fs/pipe-max-size") >> limit;
  CHECK(capacity == limit);
}

TEST_CASE("a stream many times the pipe's splice margin, read slowly, arrives intact") {
  // Into a pipe the writer splices its blocks' pages and reuses a block only after the pipe's
  // capacity and a margin of 64 MiB more have followed it: 200 MiB, read with pauses so that
  // the writer waits on a full pipe, must arrive as written, every block of it.
  constexpr int kLongChunks = 230;
  const auto events_of = [](int k) { return random_events(16384 - 13 * (k % 50), 5000 + k); };
  StdioPipe stdio;
  std::string writer_error, written_hash;
  std::thread writing([&] {
    try {
      EventWriter writer("-", large_header(), false);
      for (int k = 0; k < kLongChunks; ++k) writer.write_chunk(events_of(k), k, k + 1);
      writer.finish();
      written_hash = writer.tree_sha256();
    } catch (const std::exception& error) {
      writer_error = error.what();
    }
    ::close(STDOUT_FILENO);
  });
  int chunks = 0, mismatched = 0;
  std::string read_hash, reader_error;
  try {
    EventReader reader("-");
    std::vector<StarEvent> events;
    ChunkInfo info;
    while (reader.next_chunk(events, info)) {
      const auto expected = events_of(chunks++);
      if (events.size() != expected.size() ||
          std::memcmp(events.data(), expected.data(), events.size() * sizeof(StarEvent)) != 0)
        ++mismatched;
      if (chunks % 16 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    read_hash = reader.tree_sha256();
  } catch (const std::exception& error) {
    reader_error = error.what();  // a block changed under the reader: its chunk's checksum
    std::vector<char> rest(1 << 20);
    while (::read(STDIN_FILENO, rest.data(), rest.size()) > 0) {
    }  // the writer finishes
  }
  writing.join();
  stdio.restore();
  CHECK(writer_error.empty());
  CHECK(reader_error.empty());
  CHECK(chunks == kLongChunks);
  CHECK(mismatched == 0);
  CHECK(read_hash == written_hash);
}
