#pragma once
// Event classes (docs/design.md section 5): discarded below the visibility floor, cache splats,
// wing clips and direct events, decided from the flux and the PSF model alone.
#include <cstdint>

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
// Classifies an event of this flux under the model (thresholds of docs/design.md section 5).
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

}  // namespace starlens
