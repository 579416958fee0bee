#pragma once
// Host-side PSF machinery: event classification (DESIGN section 5), the immutable phase
// cache, and the CPU evaluators that accumulate one event into a band of frame rows.
#include <cstdint>
#include <vector>

#include "events/star_event.h"
#include "optics/moffat.h"

namespace starlens {

enum class EventClass : std::uint8_t { discarded = 0, cache = 1, wing_clip = 2, direct = 3 };
const char* event_class_name(EventClass event_class);

struct Classification {
  EventClass event_class;
  double support;       // px; what the stream records for the event
  bool bounded_by_max;  // a direct support cut at max_radius
};

// p_pix,max: the largest pixel-integrated weight of a unit-flux event (centred in a pixel).
double peak_pixel_fraction(const PsfModel& model);
// Classifies an event of this flux under the model (thresholds of DESIGN section 5).
// Keeps a classifier for the last model per thread, so calling it per star is cheap.
Classification classify_event(double flux, const PsfModel& model);

// The thresholds of one model computed once: classify_event without the model lookup.
class EventClassifier {
 public:
  explicit EventClassifier(const PsfModel& model);
  Classification classify(double flux) const;
  // R with flux * p(R) = relative_tail * min_y (0 when even p(0) is below that level).
  double support_radius(double flux) const;

 private:
  PsfModel model_;
  Moffat psf_;
  double peak_pixel_;
  double peak_density_;
  double density_at_cache_radius_;
};

// The class of an event read back from a stream: direct iff support > Rc; cache events
// whose support equals Rc exactly are reported as cache (wing clips are indistinguishable
// from cache splats of support Rc once written).
EventClass stream_event_class(const StarEvent& event, const PsfModel& model);

// Pixel-integrated weights of a unit-flux event for the (P+1) x (P+1) sub-pixel phases over
// the (2Rc+1)^2 window. Phase (a, b) places the centre at (ix + a/P, iy + b/P) for the pixel
// (ix, iy) = floor(x, y); window entry (dj + Rc) * (2Rc+1) + (di + Rc) is the weight of pixel
// (ix + di, iy + dj). Built once, then immutable (uploaded once to the GPU).
class PhaseCache {
 public:
  explicit PhaseCache(const PsfModel& model);
  int radius() const { return radius_; }
  int phases() const { return phases_; }
  int window() const { return 2 * radius_ + 1; }
  std::size_t phase_stride() const { return std::size_t(window()) * window(); }
  // Weights of phase (a, b), a, b in [0, P].
  const double* weights(int a, int b) const {
    return weights_.data() + (std::size_t(b) * (phases_ + 1) + a) * phase_stride();
  }
  const std::vector<double>& all_weights() const { return weights_; }

 private:
  int radius_;
  int phases_;
  std::vector<double> weights_;
};

// Accumulates flux * colour * weight of one event into the rows [row_begin, row_end) of a
// frame (RGB interleaved doubles, width x height), skipping pixels outside the frame.
// Cached: bilinear in the four nearest phases, pixels whose centre lies outside the event's
// circular support skipped. Direct: the exact integral over pixel ∩ support disc.
// Both return the number of contributions (event-pixel pairs) added.
std::uint64_t accumulate_cached(const StarEvent& event, const PhaseCache& cache, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end);
std::uint64_t accumulate_direct(const StarEvent& event, const Moffat& psf, double* rgb,
                                std::uint32_t width, std::uint32_t height, std::uint32_t row_begin,
                                std::uint32_t row_end);

}  // namespace starlens
