// splat's memory estimate for a stream's frame, and the refusal, naming the stream, the frame
// size and the estimate, when the machine has less available.
#include <doctest/doctest.h>

#include "core/errors.h"
#include "frame_memory.h"

using namespace starlens;

namespace {

StreamHeader header_of(std::uint32_t width, std::uint32_t height) {
  StreamHeader header;
  header.width = width;
  header.height = height;
  header.psf.cache_radius = 16;
  header.psf.phases = 8;
  return header;
}

std::string run_failure(const SplatMemory& estimate, const StreamHeader& header,
                        std::optional<std::uint64_t> available) {
  try {
    check_splat_memory("events.sle", header, estimate, available);
  } catch (const RunFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the estimate counts the frame's doubles, the PNG's buffers and the phase cache") {
  const StreamHeader header = header_of(65536, 4096);  // the largest frame: 2^28 pixels
  const SplatMemory cpu = estimate_splat_memory(header, "cpu", true);
  CHECK(cpu.frame == 6442450944ull);     // 2^28 x 3 x 8 bytes = 6 GiB
  CHECK(cpu.exposure == 2147483648ull);  // 2^28 x 8
  CHECK(cpu.png == 805306368ull);        // 2^28 x 3
  CHECK(cpu.cache == 33 * 33 * 9 * 9 * 8);
  CHECK(estimate_splat_memory(header, "cpu", false).png == 0);
  CHECK(estimate_splat_memory(header, "gpu", false).frame == cpu.frame);  // downloaded whole
  const SplatMemory count = estimate_splat_memory(header, "count", true);
  CHECK(count.frame == 0);
  CHECK(count.png == 0);
  CHECK(count.exposure == 0);
}

TEST_CASE("a frame larger than the available memory is a run failure naming the stream") {
  const StreamHeader header = header_of(65536, 4096);
  const SplatMemory estimate = estimate_splat_memory(header, "cpu", false);
  const std::string error = run_failure(estimate, header, std::uint64_t{3} << 30);
  const bool named = error.starts_with("events.sle: a 65536 x 4096 frame needs about 8.") &&
                     error.ends_with(" GiB of memory, 3.0 GiB available");
  CHECK_MESSAGE(named, error);
  CHECK(run_failure(estimate, header, estimate.total()) == "");
  CHECK(run_failure(estimate, header, std::nullopt) == "");  // unknown: not judged
}
