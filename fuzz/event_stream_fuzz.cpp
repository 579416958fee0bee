// events.sle as starlens-splat reads it: the prefetching reader over the whole stream, and the
// phase cache that splat builds from the header's PSF (small ones: kBuiltCacheWeights). InputError
// is the expected outcome of a bad stream; anything else escaping, a sanitizer report or an
// oversized allocation is a finding.
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

namespace {

// Caches up to this many weights are built as splat builds them. A larger one that the header
// checks accepted (at most kMaxPhaseCacheWeights, 32 MiB) is a valid, costly model: every weight
// is an exact pixel integral, about 70 us each in this instrumented build, so a header asking
// for a few hundred thousand would spend the run's time on integrals rather than on parsing.
constexpr double kBuiltCacheWeights = 16384;

double cache_weights(const starlens::PsfModel& psf) {
  const double window = 2.0 * psf.cache_radius + 1, phase_side = psf.phases + 1.0;
  return window * window * phase_side * phase_side;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("events.sle");
  try {
    starlens::PrefetchingReader reader(input.write(data, size));
    if (cache_weights(reader.header().psf) <= kBuiltCacheWeights)
      (void)starlens::PhaseCache(reader.header().psf);
    std::span<const starlens::StarEvent> events;
    starlens::ChunkInfo info;
    while (reader.next(events, info)) {
    }
    (void)reader.tree_sha256();
  } catch (const starlens::InputError&) {
  }
  return 0;
}
