#pragma once
// `starlens-produce scatter`: the spatially scattered control of an event stream (issue 5).
// The same chunks with the same event counts, fluxes, colours and supports, but every centre
// moved to a position uniform over the frame, so a splat benchmark can tell what spatial
// coherence is worth. The header carries kStreamFlagScatterControl.
#include <cstdint>
#include <string>

#include "events/event_stream.h"

namespace starlens::produce {

struct ScatterResult {
  StreamHeader header;  // of the output
  std::uint64_t chunks = 0;
  std::uint64_t events = 0;
  std::uint64_t input_bytes = 0;
  std::string input_tree_sha256;
  std::uint64_t output_bytes = 0;
  std::string output_tree_sha256;
};

// Deterministic for a seed: positions come from a 64-bit Mersenne Twister turned into
// doubles bit by bit (not through std::uniform_real_distribution, whose algorithm is the
// library's), so the control is the same on every platform. Streams chunk by chunk.
// A file output goes into `outputs`, visible at its commit.
ScatterResult scatter_stream(const std::string& input, OutputSet& outputs,
                             const std::string& output, std::uint64_t seed, bool quiet);

}  // namespace starlens::produce
