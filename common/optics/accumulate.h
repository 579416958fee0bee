#pragma once
// The CPU evaluators: one event into a band of frame rows (RGB interleaved doubles).
#include <cstdint>

#include "events/star_event.h"
#include "optics/moffat.h"
#include "optics/phase_cache.h"

namespace starlens {

// Accumulates flux * colour * weight of one event into the rows [row_begin, row_end) of a
// frame (RGB interleaved doubles, width x height), skipping pixels outside the frame.
// Cached: bilinear in the four nearest phases, pixels whose centre lies outside the event's
// circular support skipped. Direct: the integral over pixel ∩ support disc
// (direct_pixel_integral: within 1e-12 relative of moffat_rectangle_integral (docs/accuracy/psf.md,
// "Direct evaluator")). Both return the number of contributions (event-pixel pairs) added.
std::uint64_t accumulate_cached(const StarEvent& event, const PhaseCache& cache, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end);
std::uint64_t accumulate_direct(const StarEvent& event, const Moffat& psf, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end);

}  // namespace starlens
