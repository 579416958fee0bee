// events.sle as starlens-splat reads it: the prefetching reader over the whole stream, and the
// phase cache that splat builds from the header's PSF. InputError is the expected outcome of a
// bad stream; anything else escaping, a sanitizer report or an oversized allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/errors.h"
#include "events/prefetching_reader.h"
#include "fuzz_input.h"
#include "optics/phase_cache.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("events.sle");
  try {
    starlens::PrefetchingReader reader(input.write(data, size));
    const starlens::PhaseCache cache(reader.header().psf);
    std::span<const starlens::StarEvent> events;
    starlens::ChunkInfo info;
    while (reader.next(events, info)) {
    }
    (void)reader.tree_sha256();
  } catch (const starlens::InputError&) {
  }
  return 0;
}
