#include "frame_memory.h"

#include <algorithm>

#include "core/available_memory.h"
#include "core/errors.h"
#include "events/prefetching_reader.h"

namespace starlens {
namespace {

// The reader's 4 MiB blocks (a few in flight, hashed on the pool), the CPU backend's pass of
// 2^22 events (235 MB) and its bands' lists, rounded up; the prefetched chunks come on top.
constexpr std::uint64_t kWorkingBytes = std::uint64_t{320} << 20;

}  // namespace

SplatMemory estimate_splat_memory(const StreamHeader& header, const std::string& backend,
                                  bool png) {
  const std::uint64_t pixels = std::uint64_t{header.width} * header.height;
  SplatMemory memory;
  if (backend != "count") {
    memory.frame = pixels * 3 * sizeof(double);
    // The EXR's viewer part needs an exposure, automatic unless --exposure is given.
    memory.exposure = pixels * sizeof(double);
    if (png) memory.png = pixels * 3;
  }
  const std::uint64_t window = 2 * std::uint64_t(std::max(0, header.psf.cache_radius)) + 1;
  const std::uint64_t phase_side = std::uint64_t(std::max(1, header.psf.phases)) + 1;
  memory.cache = window * window * phase_side * phase_side * sizeof(double);
  memory.working = kWorkingBytes + std::uint64_t(automatic_prefetch_depth(header.chunk_capacity)) *
                                       header.chunk_capacity * sizeof(StarEvent);
  return memory;
}

void check_splat_memory(const std::string& file, const StreamHeader& header,
                        const SplatMemory& estimate, std::optional<std::uint64_t> available) {
  if (!available || estimate.total() <= *available) return;
  throw_run_failure(file, "a " + std::to_string(header.width) + " x " +
                              std::to_string(header.height) + " frame needs about " +
                              describe_bytes(estimate.total()) + " of memory, " +
                              describe_bytes(*available) + " available");
}

}  // namespace starlens
