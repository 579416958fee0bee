// starlens-bench-hash: the throughput of the content hash and of the event stream's ends, each
// alone, as one JSON line on stderr (GB/s and the process's peak RSS). bench/hash/run.sh
// combines them.
//   starlens-bench-hash tree FILE [THREADS]      tree hash of a file (hash pool, parallel pread)
//   starlens-bench-hash plain FILE               plain SHA-256 of a file on one core
//   starlens-bench-hash write OUT|- BYTES [THREADS]  an event stream of about BYTES (EventWriter)
//   starlens-bench-hash read IN|- [THREADS]      an event stream read as splat reads it
//                                                (PrefetchingReader: validated and tree-hashed)
//   starlens-bench-hash evict FILE               drops FILE from the page cache (fadvise)
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/tool_main.h"
#include "events/event_stream.h"
#include "events/prefetching_reader.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/hash_pool.h"
#include "manifest/sha256.h"

namespace {

using namespace starlens;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return std::uint64_t(usage.ru_maxrss) * 1024;
}

void report(const std::string& what, std::uint64_t bytes, double seconds, const std::string& digest,
            double finish_seconds = 0) {
  const nlohmann::json line = {{"what", what},
                               {"finish_seconds", finish_seconds},
                               {"bytes", bytes},
                               {"seconds", seconds},
                               {"GBps", double(bytes) / 1e9 / seconds},
                               {"threads", hash_threads()},
                               {"peak_rss_MiB", double(peak_rss_bytes()) / (1 << 20)},
                               {"digest", digest}};
  std::cerr << line.dump() << '\n';
}

// A few distinct full chunks of valid events, reused: making events is not what is measured.
std::vector<std::vector<StarEvent>> sample_chunks(std::uint32_t capacity) {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::vector<StarEvent>> chunks(8, std::vector<StarEvent>(capacity));
  for (auto& chunk : chunks)
    for (auto& e : chunk)
      e = {1920 * unit(random), 1080 * unit(random), unit(random),         unit(random),
           unit(random),        10 * unit(random),   1 + 15 * unit(random)};
  return chunks;
}

int run(int argc, char** argv) {
  if (argc < 3) throw_input_error("arguments", "", "usage: see bench/hash/hash_bench.cpp");
  const std::string mode = argv[1], path = argv[2];
  auto threads_argument = [&](int index) { return argc > index ? std::stoi(argv[index]) : 0; };
  const auto start = Clock::now();
  if (mode == "tree") {
    set_hash_threads(threads_argument(3));
    const std::string digest = block_tree_sha256_file(path);
    report("tree_hash_file", std::filesystem::file_size(path), seconds_since(start), digest);
  } else if (mode == "plain") {
    set_hash_threads(1);
    const std::string digest = sha256_file(path);
    report("plain_sha256_file", std::filesystem::file_size(path), seconds_since(start), digest);
  } else if (mode == "write") {
    if (argc < 4) throw_input_error("arguments", "", "write OUT BYTES [THREADS]");
    set_hash_threads(threads_argument(4));
    const std::uint64_t target = std::stoull(argv[3]);
    StreamHeader header;
    header.width = 1920;
    header.height = 1080;
    const auto chunks = sample_chunks(header.chunk_capacity);
    const std::uint64_t chunk_bytes = 32 + std::uint64_t(header.chunk_capacity) * sizeof(StarEvent);
    const auto begin = Clock::now();  // the chunks' making excluded
    EventWriter writer(path, header, true);
    for (std::uint64_t k = 0; k * chunk_bytes < target; ++k)
      writer.write_chunk(chunks[k % chunks.size()], 0, 0);
    const auto finishing = Clock::now();  // a file's finish() includes its fsync
    writer.finish();
    report(path == "-" ? "write_stream_stdout" : "write_stream_file", writer.bytes_written(),
           seconds_since(begin), writer.tree_sha256(), seconds_since(finishing));
  } else if (mode == "read") {
    set_hash_threads(threads_argument(3));
    PrefetchingReader reader(path);
    std::span<const StarEvent> events;
    ChunkInfo info;
    std::uint64_t count = 0;
    while (reader.next(events, info)) count += events.size();
    report(path == "-" ? "read_stream_stdin" : "read_stream_file", reader.bytes_read(),
           seconds_since(start), reader.tree_sha256());
  } else if (mode == "evict") {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw_input_error(path, "", "cannot be opened");
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  } else {
    throw_input_error("arguments", "", "unknown mode '" + mode + "'");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return starlens::run_tool("starlens-bench-hash", [&] { return run(argc, argv); });
}
