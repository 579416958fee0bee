#include "scatter.h"

#include <filesystem>
#include <random>
#include <vector>

#include "core/progress.h"

namespace starlens::produce {
namespace {

// A double uniform in [0, 1) from the top 53 bits.
double unit_interval(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * 0x1.0p-53;
}

}  // namespace

ScatterResult scatter_stream(const std::string& input, OutputSet& outputs,
                             const std::string& output, std::uint64_t seed, bool quiet) {
  EventReader reader(input);
  ScatterResult result;
  result.header = reader.header();
  result.header.flags |= kStreamFlagScatterControl;
  EventWriter writer(outputs, output, result.header);

  std::error_code ignored;
  const auto size = input == "-" ? 0 : std::filesystem::file_size(input, ignored);
  Progress progress("scatter", size, quiet);
  std::mt19937_64 random(seed);
  const double width = result.header.width;
  const double height = result.header.height;
  std::vector<StarEvent> events;
  ChunkInfo info;
  for (;;) {
    const std::uint64_t before = reader.bytes_read();
    if (!reader.next_chunk(events, info)) break;
    for (StarEvent& event : events) {
      event.x = width * unit_interval(random);
      event.y = height * unit_interval(random);
    }
    writer.write_chunk(events, info.first_triangle, info.last_triangle);
    ++result.chunks;
    result.events += events.size();
    progress.advance(reader.bytes_read() - before);
  }
  writer.finish();
  progress.finish();
  result.input_bytes = reader.bytes_read();
  result.input_tree_sha256 = reader.tree_sha256();
  result.output_bytes = writer.bytes_written();
  result.output_tree_sha256 = writer.tree_sha256();
  return result;
}

}  // namespace starlens::produce
