// starlens-bench-stream-io: throughput of the event stream's writer and reader, and of each
// cost inside the reader (fread, XXH3, SHA-256, record validation), in GB/s. The reader's
// target is > 1 GB/s (the GPU splat reads multi-GB streams).
// usage: starlens-bench-stream-io [--events N] [--chunk-events N] [--dir DIR]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/tool_main.h"
#include "events/event_stream.h"
#include "events/stream_layout.h"
#include "manifest/sha256.h"
#include "synth_random.h"

namespace {

using namespace starlens;
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<StarEvent> chunk_of_events(std::size_t count, std::uint64_t seed) {
  synth::SynthRandom random(seed);
  std::vector<StarEvent> events(count);
  for (auto& e : events)
    e = {random.uniform(0, 1920), random.uniform(0, 1080), random.uniform(),     random.uniform(),
         random.uniform(),        random.uniform(0, 10),   random.uniform(1, 16)};
  return events;
}

int run(int argc, char** argv) {
  std::uint64_t total_events = 20'000'000;
  std::uint32_t chunk_events = 16384;
  std::string folder = std::filesystem::temp_directory_path().string();
  CLI::App app{"Event stream write/read throughput."};
  add_version_flag(app, "starlens-bench-stream-io");
  app.add_option("--events", total_events, "Events in the test stream")->capture_default_str();
  app.add_option("--chunk-events", chunk_events, "Events per chunk")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--dir", folder, "Folder for the test stream")->capture_default_str();
  if (const int status = parse_command_line(app, argc, argv, "starlens-bench-stream-io");
      status >= 0)
    return status;

  const std::string path = folder + "/starlens-bench-stream-io.sle";
  // A few distinct chunks reused: generating events is not what is measured.
  std::vector<std::vector<StarEvent>> chunks;
  for (std::uint64_t k = 0; k < 8; ++k) chunks.push_back(chunk_of_events(chunk_events, k));

  StreamHeader header;
  header.chunk_capacity = chunk_events;
  header.width = 1920;
  header.height = 1080;
  auto start = Clock::now();
  std::uint64_t written_bytes = 0;
  {
    EventWriter writer(path, header, true);
    for (std::uint64_t done = 0, k = 0; done < total_events; done += chunk_events, ++k) {
      const std::size_t size = std::min<std::uint64_t>(chunk_events, total_events - done);
      writer.write_chunk({chunks[k % chunks.size()].data(), size}, 0, 0);
    }
    writer.finish();
    written_bytes = writer.bytes_written();
  }
  const double write_s = seconds(start);

  std::vector<StarEvent> buffer(chunk_events);
  start = Clock::now();
  std::uint64_t read_events = 0;
  std::string read_sha;
  {
    EventReader reader(path);
    ChunkInfo info;
    while (const std::uint32_t count = reader.next_chunk_into(buffer.data(), info))
      read_events += count;
    read_sha = reader.tree_sha256();
  }
  const double read_s = seconds(start);

  start = Clock::now();
  {
    EventReader reader(path, StreamHash::none);
    ChunkInfo info;
    while (reader.next_chunk_into(buffer.data(), info) > 0) {
    }
  }
  const double read_unhashed_s = seconds(start);

  // The reader's parts, each alone over the same bytes.
  start = Clock::now();
  {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    std::vector<char> block(std::size_t(chunk_events) * sizeof(StarEvent));
    while (std::fread(block.data(), 1, block.size(), file) == block.size()) {
    }
    std::fclose(file);
  }
  const double fread_s = seconds(start);
  const std::span<const StarEvent> sample(chunks[0]);
  const double passes = double(written_bytes) / double(sample.size_bytes());
  auto time_per_stream = [&](auto&& work) {
    const auto begin = Clock::now();
    const int repeats = int(std::max(1.0, passes));
    for (int i = 0; i < repeats; ++i) work();
    return seconds(begin) * passes / repeats;
  };
  std::uint64_t sink = 0;
  const double xxh3_s = time_per_stream([&] { sink += payload_checksum(sample); });
  Sha256Stream sha;
  const double sha_s = time_per_stream([&] { sha.update(sample.data(), sample.size_bytes()); });
  const double validate_s = time_per_stream([&] { sink += first_invalid_record(sample); });

  const double gb = double(written_bytes) / 1e9;
  nlohmann::json report = {{"events", read_events},
                           {"bytes", written_bytes},
                           {"chunk_events", chunk_events},
                           {"write_GBps", gb / write_s},
                           {"read_validated_GBps", gb / read_s},
                           {"read_validated_unhashed_GBps", gb / read_unhashed_s},
                           {"parts_GBps",
                            {{"fread", gb / fread_s},
                             {"xxh3", gb / xxh3_s},
                             {"sha256", gb / sha_s},
                             {"validate", gb / validate_s}}},
                           {"sink", sink % 2}};
  std::cout << report.dump(2) << '\n';
  std::filesystem::remove(path);
  return read_events == total_events ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return starlens::run_tool("starlens-bench-stream-io", [&] { return run(argc, argv); });
}
