#pragma once
// The memory a splat run needs for the frame its stream declares, estimated from the header
// before anything is allocated, and checked against what the machine has available: a
// stream whose frame is within the format's limits (2^28 pixels) can still be larger than
// this machine can hold, and should be told so by name rather than die in an allocation.
#include <cstdint>
#include <optional>
#include <string>

#include "events/event_stream.h"

namespace starlens {

struct SplatMemory {
  std::uint64_t frame = 0;     // width x height x 3 doubles (the CPU frame, or the GPU's download)
  std::uint64_t exposure = 0;  // the automatic exposure's luminances, a double a pixel
  std::uint64_t png = 0;       // the PNG's 3 bytes a pixel
  std::uint64_t cache = 0;     // the phase cache, (2Rc+1)^2 (P+1)^2 doubles
  std::uint64_t working = 0;   // the reader's blocks and chunks, the backend's event batch
  std::uint64_t total() const { return frame + exposure + png + cache + working; }
};

// `backend` is "cpu", "gpu" or "count" (which makes no frame).
SplatMemory estimate_splat_memory(const StreamHeader& header, const std::string& backend, bool png);

// Throws RunFailure ("<file>: a W x H frame needs about N of memory, M available") when
// `available` is known and below the estimate: the input is valid, the machine is short.
void check_splat_memory(const std::string& file, const StreamHeader& header,
                        const SplatMemory& estimate, std::optional<std::uint64_t> available);

}  // namespace starlens
